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

#include "hamon/core/families/detail/counted_bonds.hpp"
#include "hamon/core/families/detail/host_simd.hpp"
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

template <class ExecutionSpace, bool HostStyle = host_style<ExecutionSpace>>
struct PottsChunkEnergy {
  using Bonds = CountedBonds<typename ExecutionSpace::memory_space>;
  using Cursor = typename Bonds::Cursor;

  DeviceModel<typename ExecutionSpace::memory_space> model;
  typename ChainState<ExecutionSpace>::spin_view spins;
  typename ChainState<ExecutionSpace>::template view<std::int64_t> energy_fixed;
  double scale = 1.0;
  std::int32_t n_machines = 0;
  std::int64_t chunk = 1;
  bool registers = false;  // the host style in AVX-512 registers (Potts-form bonds only)

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
#if defined(HAMON_HOST_AVX512) && !defined(__CUDA_ARCH__)
      if (registers) {
        if (!model.lattice.enabled) {
          register_chunk<-1>(begin, end);
        } else if (model.lattice.dims == 2) {
          register_chunk<2>(begin, end);
        } else {
          register_chunk<3>(begin, end);
        }
        return;
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

#if defined(HAMON_HOST_AVX512) && !defined(__CUDA_ARCH__)
  /// The host style's terms in registers, 8 machines per register, the same operations as
  /// term(): h_i(x_i) (selected by state, q <= 16), then J added where the bond's states
  /// agree, in the bonds' order (a masked add where the loops add J or 0.0: the same sums,
  /// up to the sign of a zero the rounding to fixed point drops), then
  /// floor(-sum scale + 1/2).
  template <int LatticeDims>
  HAMON_AVX512 void register_chunk(std::int64_t begin, std::int64_t end) const {
    const std::int32_t q = model.n_states;
    const __m512d minus_scale = _mm512_set1_pd(-scale);
    const __m512d half = _mm512_set1_pd(0.5);
    for (std::int32_t first = 0; first < n_machines; first += kHostLanes) {
      const std::int32_t lanes = n_machines - first < kHostLanes ? n_machines - first : kHostLanes;
      const __mmask32 active = simd::lane_mask(lanes);
      __m512i total[4];
      for (int o = 0; o < 4; ++o) total[o] = _mm512_setzero_si512();
      Cursor c = Bonds::first(model, begin);
      for (std::int64_t i = begin; i < end; ++i, Bonds::template next<LatticeDims>(model, c)) {
        const __m256i own = _mm256_maskz_loadu_epi8(active, &spins(first, i));
        const double* h = model.state_fields.data() + i * q;
        __m512d sum[4];
        for (int o = 0; o < 4; ++o) sum[o] = _mm512_set1_pd(h[0]);
        for (std::int32_t s = 1; s < q; ++s) {
          const std::uint32_t in_s =
              _mm256_cmpeq_epi8_mask(own, _mm256_set1_epi8(static_cast<char>(s)));
          if (in_s == 0) continue;
          const __m512d hs = _mm512_set1_pd(h[s]);
          for (int o = 0; o < 4; ++o) {
            sum[o] = _mm512_mask_mov_pd(sum[o], static_cast<__mmask8>(in_s >> (8 * o)), hs);
          }
        }
        Bonds::template for_each<LatticeDims>(
            model, c, [&](std::int64_t j, auto coupling, std::int64_t) HAMON_AVX512 {
              const std::uint32_t agree =
                  _mm256_cmpeq_epi8_mask(own, _mm256_maskz_loadu_epi8(active, &spins(first, j)));
              const __m512d J = _mm512_set1_pd(static_cast<double>(coupling));
              for (int o = 0; o < 4; ++o) {
                sum[o] =
                    _mm512_mask_add_pd(sum[o], static_cast<__mmask8>(agree >> (8 * o)), sum[o], J);
              }
            });
        for (int o = 0; o < 4; ++o) {
          // -sum scale is (-sum) scale exactly (rounding is symmetric).
          const __m512d scaled = _mm512_add_pd(_mm512_mul_pd(sum[o], minus_scale), half);
          const __m512d floored =
              _mm512_roundscale_pd(scaled, _MM_FROUND_TO_NEG_INF | _MM_FROUND_NO_EXC);
          total[o] = _mm512_add_epi64(total[o], _mm512_cvttpd_epi64(floored));
        }
      }
      alignas(64) std::int64_t lane_total[kHostLanes];
      for (int o = 0; o < 4; ++o) _mm512_store_si512(lane_total + 8 * o, total[o]);
      for (std::int32_t lane = 0; lane < lanes; ++lane) {
        Kokkos::atomic_add(&energy_fixed(first + lane), lane_total[lane]);
      }
    }
  }
#endif
};

template <bool HostStyle, class ExecutionSpace>
void launch_potts_energies_in(const ExecutionSpace& space,
                              const DeviceModel<typename ExecutionSpace::memory_space>& model,
                              const ChainState<ExecutionSpace>& state, bool registers = false) {
  constexpr std::int64_t chunk = kEnergyNodeChunk;
  const std::int32_t n_machines = state.n_local_machines();
  const std::int64_t n_chunks = (model.n_nodes + chunk - 1) / chunk;
  const PottsChunkEnergy<ExecutionSpace, HostStyle> kernel{
      model,
      state.spins,
      state.local_energy_fixed(),
      std::ldexp(1.0, model.energy_fraction_bits),
      n_machines,
      chunk,
      registers};
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
                                     use_host_registers<ExecutionSpace>(kernel) &&
                                         model.csr_matrices.extent(0) == 0 &&
                                         model.n_states <= kPottsRegisterStates);
      return;
    }
  }
  launch_potts_energies_in<false>(space, model, state);
}

}  // namespace hamon::detail
