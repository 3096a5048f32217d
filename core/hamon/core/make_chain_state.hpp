// SPDX-License-Identifier: Apache-2.0
#pragma once
// A new ChainState (chain_state.hpp) for a ladder of inverse temperatures.

#include <Kokkos_Core.hpp>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "hamon/core/chain_state.hpp"
#include "hamon/core/device_model.hpp"
#include "hamon/core/gibbs_sweep.hpp"
#include "hamon/core/impl/counter_rng.hpp"
#include "hamon/core/machine_exchange.hpp"
#include "hamon/core/swap.hpp"

namespace hamon {

/// The state of betas.size() machines of `model` in `space`, machine m at chain m
/// (`betas`: inverse temperatures per chain, ascending): uniformly random spins from `seed`
/// (clamped nodes hold their value; the same spins on every backend), identity
/// permutations, zero counters, the trip phases of the initial permutation, and the
/// acceptance thresholds of the ladder (refresh_acceptance_thresholds). Kernels are
/// enqueued on `space`; fence it before reading the views on the host.
/// With `local` (a block of machine_blocks(betas.size(), ranks)), the state holds the spins
/// of those machines only, the same spins they have in the whole run.
template <class ExecutionSpace>
ChainState<ExecutionSpace> make_chain_state(
    const ExecutionSpace& space, const DeviceModel<typename ExecutionSpace::memory_space>& model,
    const std::vector<double>& betas, std::uint64_t seed,
    std::optional<MachineBlock> local = std::nullopt) {
  using state_type = ChainState<ExecutionSpace>;
  const auto n = static_cast<std::int32_t>(betas.size());
  const MachineBlock block = local.value_or(MachineBlock{0, n});
  if (block.first < 0 || block.count < 0 || block.first + block.count > n ||
      (block.count > 0 && block.first % kMachinesPerRankUnit != 0)) {
    throw std::invalid_argument("make_chain_state: machines [" + std::to_string(block.first) +
                                ", " + std::to_string(block.first + block.count) +
                                ") are not a block of whole draw groups of " + std::to_string(n) +
                                " machines");
  }
  state_type s;
  s.first_machine = block.first;
  s.spins = typename state_type::spin_view(
      Kokkos::view_alloc(space, Kokkos::WithoutInitializing, std::string("hamon::spins")),
      block.count, model.n_nodes);
  s.betas = detail::to_view(space, betas, "hamon::betas");
  if (model.n_states > 0 && model.integer_field_bound >= 0) {
    s.potts_weight =
        Kokkos::View<double**, Kokkos::LayoutRight, typename ExecutionSpace::memory_space>(
            Kokkos::view_alloc(space, Kokkos::WithoutInitializing,
                               std::string("hamon::potts_weight")),
            n, model.integer_field_bound + 1);
  } else if (model.integer_field_bound >= 0) {
    s.up_limit =
        Kokkos::View<std::uint32_t**, Kokkos::LayoutRight, typename ExecutionSpace::memory_space>(
            Kokkos::view_alloc(space, Kokkos::WithoutInitializing, std::string("hamon::up_limit")),
            n, 2 * model.integer_field_bound + 1);
    s.up_floor = typename state_type::template view<std::int32_t>(
        Kokkos::view_alloc(space, Kokkos::WithoutInitializing, std::string("hamon::up_floor")), n);
  }
  std::vector<std::int32_t> identity(static_cast<std::size_t>(n));
  for (std::int32_t k = 0; k < n; ++k) identity[static_cast<std::size_t>(k)] = k;
  s.chain_of_machine = detail::to_view(space, identity, "hamon::chain_of_machine");
  s.machine_of_chain = detail::to_view(space, identity, "hamon::machine_of_chain");
  auto zeros = [&](const char* label, std::int64_t size) {
    return typename state_type::template view<std::int64_t>(
        Kokkos::view_alloc(space, std::string(label)), size);
  };
  s.energy_fixed = zeros("hamon::energy_fixed", n);
  s.attempted = zeros("hamon::attempted", n > 1 ? n - 1 : 0);
  s.accepted = zeros("hamon::accepted", n > 1 ? n - 1 : 0);
  s.round_trips = zeros("hamon::round_trips", n);
  s.restarts = zeros("hamon::restarts", n);
  s.trip_phase = typename state_type::template view<std::int8_t>(
      Kokkos::view_alloc(space, std::string("hamon::trip_phase")), n);

  // Uniform random start for free nodes; clamped nodes hold their value. One Philox call
  // draws the start of 4 machines (word m % 4 of counter (node, m / 4)): a spin is the top
  // bit of the word, a Potts state floor(w q / 2^32).
  const auto spins = s.spins;
  const auto clamped = model.clamped;
  const auto clamp_state = model.clamp_state;
  const auto q = static_cast<std::uint64_t>(model.n_states);
  const std::int64_t n_nodes = model.n_nodes;
  const std::int32_t first = block.first;
  const std::int32_t end = block.first + block.count;
  const std::int64_t n_groups = (block.count + 3) / 4;
  Kokkos::parallel_for(
      "hamon::initial_state",
      Kokkos::RangePolicy<ExecutionSpace, Kokkos::IndexType<std::int64_t>>(space, 0,
                                                                           n_nodes * n_groups),
      KOKKOS_LAMBDA(const std::int64_t idx) {
        const std::int64_t i = idx % n_nodes;
        const auto group = static_cast<std::int32_t>(first / 4 + idx / n_nodes);
        const detail::Philox4 draw =
            detail::philox4(seed, static_cast<std::uint32_t>(i), static_cast<std::uint32_t>(group),
                            static_cast<std::uint32_t>(detail::Stream::initial_state), 0u);
        for (std::int32_t k = 0; k < 4 && 4 * group + k < end; ++k) {
          const std::int32_t m = 4 * group + k;
          if (q > 0) {
            spins(m - first, i) = detail::potts_byte(
                clamp_state(i) >= 0 ? clamp_state(i)
                                    : static_cast<std::int32_t>((draw.w[k] * q) >> 32));
          } else {
            spins(m - first, i) = clamped(i) != 0
                                      ? clamped(i)
                                      : ((draw.w[k] >> 31) ? std::int8_t(1) : std::int8_t(-1));
          }
        }
      });
  refresh_acceptance_thresholds(space, model, s);
  update_index_process(space, s);  // the initial permutation: machine 0 starts at chain 0
  return s;
}

}  // namespace hamon
