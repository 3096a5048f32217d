// SPDX-License-Identifier: Apache-2.0
#pragma once
// The spin family (families/model_family.hpp): SpinVariable (+1 / -1), the heat-bath block-Gibbs
// update (gibbs_sweep.hpp), the energy pass (families/spin/detail/energy_pass.hpp) and the
// magnetisation observers (families/detail/moment_observers.hpp).

#include <Kokkos_Core.hpp>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "hamon/core/families/detail/initial_values.hpp"
#include "hamon/core/families/detail/moment_observers.hpp"
#include "hamon/core/families/detail/sweep_launch.hpp"
#include "hamon/core/families/model_family.hpp"
#include "hamon/core/families/spin/detail/annealed_spins.hpp"
#include "hamon/core/families/spin/detail/energy_pass.hpp"
#include "hamon/core/families/spin/field_boundaries.hpp"
#include "hamon/core/families/spin/heat_bath.hpp"
#include "hamon/core/model/device_model.hpp"
#include "hamon/core/model/variable_kind.hpp"
#include "hamon/core/state/chain_state.hpp"
#include "hamon/core/util/host_kernel.hpp"

namespace hamon::detail {

template <class ExecutionSpace>
using SpinState = ChainState<ExecutionSpace, SpinVariable::storage_type>;

/// The boundaries of real local fields (families/spin/field_boundaries.hpp) for the ladder, in
/// state.field_boundary (allocated here when missing).
template <class ExecutionSpace>
void refresh_field_boundaries(const ExecutionSpace& space, SpinState<ExecutionSpace>& state) {
  const auto n_chains = static_cast<std::int64_t>(state.betas.extent(0));
  if (static_cast<std::int64_t>(state.field_boundary.extent(0)) != n_chains) {
    state.field_boundary =
        decltype(state.field_boundary)(Kokkos::view_alloc(space, Kokkos::WithoutInitializing,
                                                          std::string("hamon::field_boundary")),
                                       n_chains, kFieldBoundaries);
  }
  const auto boundary = state.field_boundary;
  const auto betas = state.betas;
  Kokkos::parallel_for(
      "hamon::field_boundaries",
      Kokkos::RangePolicy<ExecutionSpace, Kokkos::IndexType<std::int64_t>>(
          space, 0, n_chains * kFieldBoundaries),
      KOKKOS_LAMBDA(const std::int64_t i) {
        const std::int64_t chain = i / kFieldBoundaries;
        const auto k = static_cast<std::int32_t>(i % kFieldBoundaries);
        boundary(chain, k) = field_boundary(betas(chain), boundary_word(k));
      });
}

/// The decision tables from the ladder: state.up_limit / up_floor with integer local fields,
/// state.field_boundary otherwise (allocated here); none on the annealing path, which
/// decides with exp (families/spin/detail/annealed_spins.hpp).
template <class ExecutionSpace>
void refresh_spin_tables(const ExecutionSpace& space,
                         const DeviceModel<typename ExecutionSpace::memory_space>& model,
                         SpinState<ExecutionSpace>& state) {
  if (model.annealed) return;
  const std::int32_t bound = model.integer_field_bound;
  if (bound < 0) {
    refresh_field_boundaries(space, state);
    return;
  }
  if (state.up_limit.extent(0) == 0) return;
  const auto up_limit = state.up_limit;
  const auto up_floor = state.up_floor;
  const auto betas = state.betas;
  const std::int32_t width = 2 * bound + 1;
  // One chain per work item: the floor needs the chain's whole row.
  Kokkos::parallel_for(
      "hamon::acceptance_thresholds",
      Kokkos::RangePolicy<ExecutionSpace>(space, 0, static_cast<std::int32_t>(betas.extent(0))),
      KOKKOS_LAMBDA(const std::int32_t chain) {
        std::int32_t floor = 0;
        for (std::int32_t k = 0; k < width; ++k) {
          const std::uint64_t t =
              heat_bath_threshold(heat_bath_factor(betas(chain), static_cast<double>(k - bound)));
          up_limit(chain, k) = threshold_limit(t);
          if (t == 0) floor = k + 1;
        }
        up_floor(chain) = floor;
      });
}

/// The threshold tables (integer local fields), then uniformly random spins
/// (draw_initial_values): a spin is the top bit of its word; clamped nodes hold their value.
template <class ExecutionSpace>
void start_spins(const ExecutionSpace& space,
                 const DeviceModel<typename ExecutionSpace::memory_space>& model,
                 SpinState<ExecutionSpace>& state, std::uint64_t seed) {
  using memory_space = typename ExecutionSpace::memory_space;
  const auto n_chains = static_cast<std::int64_t>(state.betas.extent(0));
  if (model.integer_field_bound >= 0 && !model.annealed) {
    state.up_limit = Kokkos::View<std::uint32_t**, Kokkos::LayoutRight, memory_space>(
        Kokkos::view_alloc(space, Kokkos::WithoutInitializing, std::string("hamon::up_limit")),
        n_chains, 2 * model.integer_field_bound + 1);
    state.up_floor = Kokkos::View<std::int32_t*, memory_space>(
        Kokkos::view_alloc(space, Kokkos::WithoutInitializing, std::string("hamon::up_floor")),
        n_chains);
  }
  const auto clamped = model.clamped;
  draw_initial_values(
      space, state, seed, KOKKOS_LAMBDA(const std::int64_t i, const std::uint32_t word) {
        return clamped(i) != 0 ? clamped(i) : ((word >> 31) ? std::int8_t(1) : std::int8_t(-1));
      });
}

/// One block-Gibbs sweep: each colour class in turn; periodic lattices with integer local
/// fields take the lattice fast path (same bits as the general path). The annealing path
/// takes its own update, never the fast paths (families/spin/detail/annealed_spins.hpp).
template <class ExecutionSpace>
void sweep_spins(const ExecutionSpace& space,
                 const DeviceModel<typename ExecutionSpace::memory_space>& model,
                 const SpinState<ExecutionSpace>& state, std::uint64_t seed, std::uint32_t round,
                 std::uint32_t sweep, HostKernel kernel) {
  if (model.annealed) {
    annealed_spin_sweep(space, model, state, seed, round, sweep);
    return;
  }
  const std::int32_t bound = state.up_limit.extent(0) > 0 ? model.integer_field_bound : -1;
  for_each_colour_block(
      model, model.lattice.enabled && bound >= 0, [&](const auto& block, std::int64_t n_block) {
        update_block(space, state, bound, block, n_block, seed, round, sweep, kernel);
      });
}

template <class ExecutionSpace>
void add_spin_energies(const ExecutionSpace& space,
                       const DeviceModel<typename ExecutionSpace::memory_space>& model,
                       const SpinState<ExecutionSpace>& state, HostKernel kernel) {
  if constexpr (host_style<ExecutionSpace>) {
    if (kernel == HostKernel::device) {
      launch_energies<false>(space, model, state, false);
      return;
    }
  }
  launch_energies<host_style<ExecutionSpace>>(space, model, state,
                                              use_host_registers<ExecutionSpace>(kernel));
}

template <class Model>
std::int64_t one_column_per_node(const Model&) {
  return 1;
}

/// <|m|> per node: the observer adds |sum_i s_i| per round.
template <class Model>
double mean_abs_magnetization(const Model&, double per_node_sum, std::int64_t) {
  return per_node_sum;
}

template <class ExecutionSpace>
ModelFamily<ExecutionSpace, SpinVariable::storage_type> spin_family() {
  using memory_space = typename ExecutionSpace::memory_space;
  return {&start_spins<ExecutionSpace>,
          &refresh_spin_tables<ExecutionSpace>,
          &sweep_spins<ExecutionSpace>,
          &add_spin_energies<ExecutionSpace>,
          &one_column_per_node<DeviceModel<memory_space>>,
          &observe_spin_moments<ExecutionSpace>,
          &mean_abs_magnetization<DeviceModel<memory_space>>};
}

}  // namespace hamon::detail
