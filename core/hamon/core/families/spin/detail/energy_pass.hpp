// SPDX-License-Identifier: Apache-2.0
#pragma once
// The energy pass of compute_energies (hamon/core/families/energy.hpp): node chunks in the host
// style (a chunk in every machine, AVX-512 registers where the CPU has them) or the device
// style, each term in fixed point.

#include <Kokkos_Core.hpp>
#include <cmath>
#include <cstdint>

#include "hamon/core/families/detail/counted_bonds.hpp"
#include "hamon/core/families/detail/sweep_launch.hpp"
#include "hamon/core/families/potts/detail/potts_energy.hpp"
#include "hamon/core/model/device_model.hpp"
#include "hamon/core/state/chain_state.hpp"
#include "hamon/core/util/fixed_point.hpp"
#include "hamon/core/util/host_kernel.hpp"
#include "hamon/core/util/launch.hpp"

namespace hamon {

namespace detail {

/// Energies of node chunks, in the host style (a chunk in every machine, `registers`:
/// integer terms in AVX-512 registers where the CPU has them) or the device style (a chunk
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
#if defined(HAMON_HOST_AVX512) && !defined(__CUDA_ARCH__)
      if (registers && model.integer_field_bound >= 0) {
        if (!model.lattice.enabled) {
          integer_chunk<-1>(begin, end);
        } else if (model.lattice.dims == 2) {
          integer_chunk<2>(begin, end);
        } else {
          integer_chunk<3>(begin, end);
        }
        return;
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

#if defined(HAMON_HOST_AVX512) && !defined(__CUDA_ARCH__)
  /// Integer couplings and fields: every node term -s_i (h_i + its counted bonds J_ij s_j) is an
  /// integer of magnitude <= integer_field_bound <= 64 (also without h_i, on the annealing
  /// path: the bound is the largest |h_i| + sum_j |J_ij|), so terms add exactly in 16-bit
  /// lanes (256 at a time) and 32-bit lanes (a chunk), and the fixed-point energy is that
  /// integer times 2^fraction_bits, exactly what the general path sums term by term.
  template <int LatticeDims>
  HAMON_AVX512 void integer_chunk(std::int64_t begin, std::int64_t end) const {
    constexpr std::int64_t kExact16 = 256;  // 256 * 64 < 2^15
    const std::int64_t unit = std::int64_t(1) << model.energy_fraction_bits;
    for (std::int32_t first = 0; first < n_machines; first += kHostLanes) {
      const std::int32_t lanes = n_machines - first < kHostLanes ? n_machines - first : kHostLanes;
      const __mmask32 active = simd::lane_mask(lanes);
      __m512i total_lo = _mm512_setzero_si512();
      __m512i total_hi = _mm512_setzero_si512();
      for (std::int64_t part = begin; part < end; part += kExact16) {
        const std::int64_t part_end = part + kExact16 < end ? part + kExact16 : end;
        __m512i partial = _mm512_setzero_si512();
        Cursor c = Bonds::first(model, part);
        for (std::int64_t i = part; i < part_end;
             ++i, Bonds::template next<LatticeDims>(model, c)) {
          __m512i field = _mm512_set1_epi16(static_cast<short>(swap_field(i)));
          Bonds::template for_each<LatticeDims>(
              model, c, [&](std::int64_t j, auto coupling, std::int64_t) HAMON_AVX512 {
                const __m512i s =
                    _mm512_cvtepi8_epi16(_mm256_maskz_loadu_epi8(active, &spins(first, j)));
                field = _mm512_add_epi16(
                    field, _mm512_mullo_epi16(s, _mm512_set1_epi16(static_cast<short>(coupling))));
              });
          const __m512i own =
              _mm512_cvtepi8_epi16(_mm256_maskz_loadu_epi8(active, &spins(first, i)));
          partial = _mm512_sub_epi16(partial, _mm512_mullo_epi16(own, field));
        }
        total_lo =
            _mm512_add_epi32(total_lo, _mm512_cvtepi16_epi32(_mm512_castsi512_si256(partial)));
        total_hi = _mm512_add_epi32(total_hi,
                                    _mm512_cvtepi16_epi32(_mm512_extracti64x4_epi64(partial, 1)));
      }
      alignas(64) std::int32_t total[kHostLanes];
      _mm512_store_si512(total, total_lo);
      _mm512_store_si512(total + 16, total_hi);
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
