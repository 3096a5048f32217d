// SPDX-License-Identifier: Apache-2.0
#pragma once
// Energies of a Potts model's machines, E(x) = -(sum_i h_i(x_i) + sum_{i<j} W_ij(x_i, x_j)),
// in the fixed point of energy.hpp: node i's term -(h_i(x_i) + the W_ij(x_i, x_j) of its
// counted bonds, families/detail/counted_bonds.hpp) is rounded to an integer and the integers are
// summed, so every space and thread count gets the same bits. A work item sums one chunk
// of nodes in every machine (the host style: machines side by side in vectorised loops)
// or in one machine (the device style, which tests also run on host spaces); each term's
// sum is formed in the same order either way.

#include <Kokkos_Core.hpp>
#include <cmath>
#include <cstdint>
#include <type_traits>

#include "hamon/core/families/detail/counted_bonds.hpp"
#include "hamon/core/families/detail/host_vectors.hpp"
#include "hamon/core/families/detail/sweep_blocks.hpp"
#include "hamon/core/families/detail/sweep_launch.hpp"
#include "hamon/core/families/potts/detail/potts_registers.hpp"
#include "hamon/core/families/potts/potts_update.hpp"
#include "hamon/core/model/device_model.hpp"
#include "hamon/core/state/chain_state.hpp"
#include "hamon/core/util/fixed_point.hpp"
#include "hamon/core/util/host_kernel.hpp"
#include "hamon/core/util/launch.hpp"

namespace hamon::detail {

/// The members (model, spins, energy_fixed, scale, n_machines, chunk, registers) are
/// PottsEnergyArgs', which the vector path reads.
template <class ExecutionSpace, bool HostStyle = host_style<ExecutionSpace>>
struct PottsChunkEnergy : PottsEnergyArgs<typename ExecutionSpace::memory_space> {
  using Args = PottsEnergyArgs<typename ExecutionSpace::memory_space>;
  using Bonds = CountedBonds<typename ExecutionSpace::memory_space>;
  using Cursor = typename Bonds::Cursor;
  using Args::chunk;
  using Args::energy_fixed;
  using Args::model;
  using Args::n_machines;
  using Args::registers;
  using Args::scale;
  using Args::spins;
  static_assert(
      std::is_same_v<decltype(Args::spins), typename ChainState<ExecutionSpace>::spin_view>,
      "the state's spins");

  explicit PottsChunkEnergy(const Args& args) : Args(args) {}

  /// W_ij(x, y) of the bond in CRS entry e (-1: a lattice bond, Potts-form) with J.
  KOKKOS_FORCEINLINE_FUNCTION double bond_weight(std::int64_t e, double coupling, std::int32_t x,
                                                 std::int32_t y) const {
    const std::int32_t q = model.n_states;
    if (model.csr_matrices.extent(0) > 0) return model.csr_matrices(e * q * q + x * q + y);
    return x == y ? coupling : 0.0;
  }

  KOKKOS_INLINE_FUNCTION std::int64_t term(const Cursor& c, std::int32_t m) const {
    const std::int32_t x = potts_state(spins(m, c.node));
    double sum = model.state_fields(c.node * model.n_states + x);
    Bonds::for_each(model, c, [&](std::int64_t j, auto coupling, std::int64_t e) {
      sum += bond_weight(e, static_cast<double>(coupling), x, potts_state(spins(m, j)));
    });
    return to_fixed_point(-sum, scale);
  }

  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t idx) const {
    const std::int64_t chunk_index = HostStyle ? idx : idx / n_machines;
    const std::int64_t begin = chunk_index * chunk;
    const std::int64_t end = begin + chunk < model.n_nodes ? begin + chunk : model.n_nodes;
    if constexpr (HostStyle) {
#if HAMON_HOST_SIMD && !defined(__CUDA_ARCH__)
      if constexpr (std::is_same_v<typename ExecutionSpace::memory_space, Kokkos::HostSpace>) {
        if (registers && potts_energy_registers(*this, begin, end)) return;
      }
#endif
      const std::int32_t q = model.n_states;
      const bool matrices = model.csr_matrices.extent(0) > 0;
      for (std::int32_t first = 0; first < n_machines; first += kHostLanes) {
        const std::int32_t lanes =
            n_machines - first < kHostLanes ? n_machines - first : kHostLanes;
        std::int64_t total[kHostLanes] = {};
        Cursor c = Bonds::first(model, begin);
        for (std::int64_t i = begin; i < end; ++i, Bonds::next(model, c)) {
          const std::int8_t* own = &spins(first, i);
          double sum[kHostLanes];
          for (std::int32_t lane = 0; lane < lanes; ++lane) {
            sum[lane] = model.state_fields(i * q + potts_state(own[lane]));
          }
          Bonds::for_each(model, c, [&](std::int64_t j, auto coupling, std::int64_t e) {
            const std::int8_t* other = &spins(first, j);
            if (matrices) {
              for (std::int32_t lane = 0; lane < lanes; ++lane) {
                sum[lane] += bond_weight(e, 0.0, potts_state(own[lane]), potts_state(other[lane]));
              }
            } else {
              // bond_weight's J delta(x, y), vectorised (equal bytes: equal states).
              const auto J = static_cast<double>(coupling);
              HAMON_SIMD
              for (std::int32_t lane = 0; lane < lanes; ++lane) {
                sum[lane] += own[lane] == other[lane] ? J : 0.0;
              }
            }
          });
          HAMON_SIMD
          for (std::int32_t lane = 0; lane < lanes; ++lane) {
            total[lane] += to_fixed_point(-sum[lane], scale);
          }
        }
        for (std::int32_t lane = 0; lane < lanes; ++lane) {
          Kokkos::atomic_add(&energy_fixed(first + lane), total[lane]);
        }
      }
    } else {
      const auto m = static_cast<std::int32_t>(idx % n_machines);
      std::int64_t total = 0;
      Cursor c = Bonds::first(model, begin);
      for (std::int64_t i = begin; i < end; ++i, Bonds::next(model, c)) total += term(c, m);
      Kokkos::atomic_add(&energy_fixed(m), total);
    }
  }
};

template <bool HostStyle, class ExecutionSpace>
void launch_potts_energies_in(const ExecutionSpace& space,
                              const DeviceModel<typename ExecutionSpace::memory_space>& model,
                              const ChainState<ExecutionSpace>& state, bool registers = false) {
  constexpr std::int64_t chunk = kEnergyNodeChunk;
  const std::int32_t n_machines = state.n_local_machines();
  const std::int64_t n_chunks = (model.n_nodes + chunk - 1) / chunk;
  PottsEnergyArgs<typename ExecutionSpace::memory_space> args;
  args.model = model;
  args.spins = state.spins;
  args.energy_fixed = state.local_energy_fixed();
  args.scale = std::ldexp(1.0, model.energy_fraction_bits);
  args.n_machines = n_machines;
  args.chunk = chunk;
  args.registers = registers;
  const PottsChunkEnergy<ExecutionSpace, HostStyle> kernel(args);
  launch(space, "hamon::potts_energies", HostStyle ? n_chunks : n_chunks * n_machines,
         model.n_nodes * n_machines * model.n_states / 2, kernel);
}

/// The Potts energies (compute_energies, energy.hpp): the host style on host spaces unless
/// `kernel` asks for the device style.
template <class ExecutionSpace>
void launch_potts_energies(const ExecutionSpace& space,
                           const DeviceModel<typename ExecutionSpace::memory_space>& model,
                           const ChainState<ExecutionSpace>& state, HostKernel kernel) {
  if (state.n_local_machines() == 0) return;
  if constexpr (host_style<ExecutionSpace>) {
    if (kernel != HostKernel::device) {
      launch_potts_energies_in<true>(space, model, state,
                                     use_host_vectors<ExecutionSpace>(kernel) &&
                                         model.csr_matrices.extent(0) == 0 &&
                                         model.n_states <= kPottsRegisterStates);
      return;
    }
  }
  launch_potts_energies_in<false>(space, model, state);
}

}  // namespace hamon::detail
