// SPDX-License-Identifier: Apache-2.0
#pragma once
// The energy pass of compute_energies (hamon/core/families/energy.hpp): node chunks in the host
// style (a chunk in every machine, in vector registers for integer terms) or the device
// style, each term in fixed point.

#include <Kokkos_Core.hpp>
#include <cmath>
#include <cstdint>
#include <type_traits>

#include "hamon/core/families/detail/counted_bonds.hpp"
#include "hamon/core/families/detail/sweep_launch.hpp"
#include "hamon/core/families/potts/detail/potts_energy.hpp"
#include "hamon/core/families/spin/detail/energy_registers.hpp"
#include "hamon/core/model/device_model.hpp"
#include "hamon/core/state/chain_state.hpp"
#include "hamon/core/util/fixed_point.hpp"
#include "hamon/core/util/host_kernel.hpp"
#include "hamon/core/util/launch.hpp"

namespace hamon {

namespace detail {

/// Energies of node chunks, in the host style (a chunk in every machine, `registers`:
/// integer terms in vector registers) or the device style (a chunk
/// in one machine), which tests also run on host spaces (HostKernel::device).
template <class ExecutionSpace, bool HostStyle = host_style<ExecutionSpace>>
struct ChunkEnergy {
  using model_type = DeviceModel<typename ExecutionSpace::memory_space>;

  model_type model;
  typename ChainState<ExecutionSpace>::spin_view spins;
  typename ChainState<ExecutionSpace>::template view<std::int64_t> energy_fixed;
  double scale;
  std::int32_t n_machines;
  std::int64_t n_chunks;
  bool registers;

  using Bonds = CountedBonds<typename ExecutionSpace::memory_space>;
  using Cursor = typename Bonds::Cursor;

  /// The field in node i's energy term: h_i, or 0 on the annealing path, whose swap energy
  /// E - E_ref is the couplings' terms alone (families/spin/detail/annealed_spins.hpp).
  KOKKOS_FORCEINLINE_FUNCTION double swap_field(std::int64_t i) const {
    return model.annealed ? 0.0 : model.fields(i);
  }

  /// Fixed-point energy term of node c.node in machine m: -s_i (h_i + sum of its counted
  /// bonds J_ij s_j).
  KOKKOS_FORCEINLINE_FUNCTION std::int64_t term(const Cursor& c, std::int32_t m) const {
    double field = swap_field(c.node);
    Bonds::for_each(model, c, [&](std::int64_t j, auto coupling, std::int64_t) {
      field += coupling * spins(m, j);
    });
    return to_fixed_point(-spins(m, c.node) * field, scale);
  }

  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t idx) const {
    if constexpr (HostStyle) {
      // One node chunk, every machine: loops over machines inside.
      const std::int64_t begin = idx * kEnergyNodeChunk;
      const std::int64_t end =
          begin + kEnergyNodeChunk < model.n_nodes ? begin + kEnergyNodeChunk : model.n_nodes;
#if HAMON_HOST_SIMD && !defined(__CUDA_ARCH__)
      if constexpr (std::is_same_v<typename ExecutionSpace::memory_space, Kokkos::HostSpace>) {
        if (registers && model.integer_field_bound >= 0) {
          integer_chunk(begin, end);
          return;
        }
      }
#endif
      for (std::int32_t first = 0; first < n_machines; first += kHostLanes) {
        const std::int32_t lanes =
            n_machines - first < kHostLanes ? n_machines - first : kHostLanes;
        std::int64_t sum[kHostLanes] = {};
        Cursor c = Bonds::first(model, begin);
        for (std::int64_t i = begin; i < end; ++i, Bonds::next(model, c)) {
          double field[kHostLanes];
          const double h = swap_field(i);
          for (std::int32_t lane = 0; lane < kHostLanes; ++lane) field[lane] = h;
          Bonds::for_each(model, c, [&](std::int64_t j, auto coupling, std::int64_t) {
            const std::int8_t* neighbour = &spins(first, j);
            for (std::int32_t lane = 0; lane < lanes; ++lane)
              field[lane] += coupling * neighbour[lane];
          });
          const std::int8_t* own = &spins(first, i);
          for (std::int32_t lane = 0; lane < lanes; ++lane) {
            sum[lane] += to_fixed_point(-own[lane] * field[lane], scale);
          }
        }
        for (std::int32_t lane = 0; lane < lanes; ++lane) {
          Kokkos::atomic_add(&energy_fixed(first + lane), sum[lane]);
        }
      }
    } else {
      // One machine of one node chunk per thread; machines of a chunk in adjacent threads.
      const auto m = static_cast<std::int32_t>(idx % n_machines);
      const std::int64_t begin = (idx / n_machines) * kEnergyNodeChunk;
      const std::int64_t end =
          begin + kEnergyNodeChunk < model.n_nodes ? begin + kEnergyNodeChunk : model.n_nodes;
      std::int64_t sum = 0;
      Cursor c = Bonds::first(model, begin);
      for (std::int64_t i = begin; i < end; ++i, Bonds::next(model, c)) sum += term(c, m);
      Kokkos::atomic_add(&energy_fixed(m), sum);
    }
  }

#if HAMON_HOST_SIMD && !defined(__CUDA_ARCH__)
  /// Integer couplings and fields: each run of 32 machines' terms summed exactly as integers
  /// in vector lanes (families/spin/detail/energy_registers.hpp); the fixed-point energy is
  /// that integer times 2^fraction_bits, exactly what the general path sums term by term.
  void integer_chunk(std::int64_t begin, std::int64_t end) const {
    const std::int64_t unit = std::int64_t(1) << model.energy_fraction_bits;
    const std::int8_t* spins_end = spins.data() + spins.span();
    for (std::int32_t first = 0; first < n_machines; first += kHostLanes) {
      const std::int32_t lanes = n_machines - first < kHostLanes ? n_machines - first : kHostLanes;
      std::int32_t total[kHostLanes];
      integer_energy_registers(model, &spins(first, 0), static_cast<std::int64_t>(spins.stride(1)),
                               spins_end, begin, end, total);
      for (std::int32_t lane = 0; lane < lanes; ++lane) {
        Kokkos::atomic_add(&energy_fixed(first + lane),
                           static_cast<std::int64_t>(total[lane]) * unit);
      }
    }
  }
#endif
};

}  // namespace detail

namespace detail {

template <bool HostStyle, class ExecutionSpace>
void launch_energies(const ExecutionSpace& space,
                     const DeviceModel<typename ExecutionSpace::memory_space>& model,
                     const ChainState<ExecutionSpace>& state, bool registers) {
  const std::int64_t n_chunks = (model.n_nodes + kEnergyNodeChunk - 1) / kEnergyNodeChunk;
  const ChunkEnergy<ExecutionSpace, HostStyle> kernel{model,
                                                      state.spins,
                                                      state.local_energy_fixed(),
                                                      std::ldexp(1.0, model.energy_fraction_bits),
                                                      state.n_local_machines(),
                                                      n_chunks,
                                                      registers};
  const std::int64_t items = HostStyle ? n_chunks : n_chunks * state.n_local_machines();
  // An energy term costs about half a sweep update (measured:
  // perf/results/kernels/2026-11-30-full-grid.md).
  launch(space, "hamon::energies", items,
         model.n_nodes * host_lane_slots(state.n_local_machines()) / 2, kernel);
}

}  // namespace detail

}  // namespace hamon
