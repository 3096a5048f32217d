// SPDX-License-Identifier: Apache-2.0
#pragma once
// The AVX-512 register path of the Potts heat bath (families/potts/potts_update.hpp) with weight
// tables (integer local fields), bit for bit the portable loops' draws: a work item is a
// run of block nodes (LatticeBlock or CsrBlock, families/detail/sweep_blocks.hpp) in machines
// [first, first + 32), three batches of 16 Philox generators in registers at a time (a
// generator serves 4 machines: one 32-bit word each).
//
// Per node: the local fields relative to h_i(0) in 16-bit lanes (|phi| <= 2 x the table's
// bound <= 8192; every term is an integer, so the gaps top - phi equal the portable loops'
// double gaps), one masked add per state and neighbour; the weights gathered from the
// chain's table row and summed in state order in doubles, 8 lanes per register; the state
// as the count of cumulative weights <= the target, as the portable loops count it.
// Host-only: empty unless AVX-512 is compiled in (families/detail/host_simd.hpp).

#include <Kokkos_Core.hpp>
#include <cstdint>

#include "hamon/core/families/detail/host_simd.hpp"
#include "hamon/core/families/detail/sweep_blocks.hpp"
#include "hamon/core/families/potts/potts_update.hpp"
#include "hamon/core/state/chain_state.hpp"

namespace hamon::detail {

/// The most states the register path holds (more: the portable loops).
inline constexpr std::int32_t kPottsRegisterStates = 16;

#if defined(HAMON_HOST_AVX512) && !defined(__CUDA_ARCH__)

template <class ExecutionSpace, class Block>
struct PottsRegisterSweep {
  using memory_space = typename ExecutionSpace::memory_space;
  using Cursor = typename Block::Cursor;

  Block block;
  typename ChainState<ExecutionSpace>::spin_view spins;
  Kokkos::View<double*, memory_space> state_fields;
  Kokkos::View<std::int32_t*, memory_space> chain_of_machine;  // local machines
  Kokkos::View<double**, Kokkos::LayoutRight, memory_space> weight;
  std::int32_t q = 0;
  std::int32_t n_machines = 0;  // local
  std::int64_t n_block = 0;
  std::int32_t nodes_per_item = 1;
  std::uint32_t first_group = 0;
  std::uint64_t seed = 0;
  std::uint32_t sweep = 0;
  std::uint32_t round = 0;

  void operator()(std::int64_t idx) const {
    const std::int64_t begin = idx * nodes_per_item;
    const std::int32_t nodes = n_block - begin < nodes_per_item
                                   ? static_cast<std::int32_t>(n_block - begin)
                                   : nodes_per_item;
    for (std::int32_t first = 0; first < n_machines; first += kHostLanes) {
      const std::int32_t lanes = n_machines - first < kHostLanes ? n_machines - first : kHostLanes;
      // The number of 8-lane groups fixed at compile time, so the loops over them unroll.
      if (q == 3) {
        run_lanes<3>(begin, nodes, first, lanes);
      } else {
        run_lanes<0>(begin, nodes, first, lanes);
      }
    }
  }

  /// `Q`: q when fixed at compile time (the loops over states unroll and the fields stay
  /// in registers: the q = 3 sweep measured 1.26x faster than with a run-time q), else 0.
  template <int Q>
  void run_lanes(std::int64_t begin, std::int32_t nodes, std::int32_t first,
                 std::int32_t lanes) const {
    if (lanes > 16) {
      run<4, Q>(begin, nodes, first, lanes);
    } else if (lanes > 8) {
      run<2, Q>(begin, nodes, first, lanes);
    } else {
      run<1, Q>(begin, nodes, first, lanes);
    }
  }

  /// Lanes [8 o, 8 o + 8) of 32 lanes held as two registers of 16 (lo, hi).
  [[gnu::always_inline]] HAMON_AVX512 static __m256i oct(__m512i lo, __m512i hi, int o) {
    const __m512i half = o < 2 ? lo : hi;
    return o % 2 == 0 ? _mm512_castsi512_si256(half) : _mm512_extracti64x4_epi64(half, 1);
  }

  /// Block nodes [begin, begin + nodes) in machines [first, first + lanes).
  template <int Octs, int Q>
  [[gnu::noinline]] HAMON_AVX512 void run(std::int64_t begin, std::int32_t nodes,
                                          std::int32_t first, std::int32_t lanes) const {
    constexpr int kBatches = 3;  // Philox batches in flight (register_sweep.hpp)
    const __mmask32 active = simd::lane_mask(lanes);
    std::int32_t per_node = 1;  // generators per node: a power of two >= lanes / 4
    while (per_node * kPottsMachinesPerDraw < lanes) per_node *= 2;
    const std::int32_t per_batch = 16 / per_node;
    const std::int32_t per_step = kBatches * per_batch;
    alignas(64) std::uint32_t slot_of[16], group_of[16];
    for (std::int32_t g = 0; g < 16; ++g) {
      slot_of[g] = static_cast<std::uint32_t>(g / per_node);
      group_of[g] =
          first_group + static_cast<std::uint32_t>(first / kPottsMachinesPerDraw + g % per_node);
    }
    const __m512i slot = _mm512_load_si512(slot_of);
    const __m512i group_words = _mm512_load_si512(group_of);
    // Each lane's table row.
    __m256i row[Octs];
    __mmask8 oct_active[Octs];
    const __m256i width = _mm256_set1_epi32(static_cast<int>(weight.extent(1)));
    for (int o = 0; o < Octs; ++o) {
      oct_active[o] = static_cast<__mmask8>(active >> (8 * o));
      const __m256i chains =
          _mm256_maskz_loadu_epi32(oct_active[o], chain_of_machine.data() + first + 8 * o);
      row[o] = _mm256_mullo_epi32(chains, width);
    }

    Cursor walk = block.cursor(begin);
    for (std::int32_t done = 0; done < nodes; done += per_step) {
      const std::int32_t in_step = nodes - done < per_step ? nodes - done : per_step;
      const Cursor step_start = walk;
      alignas(64) std::uint32_t batch_nodes[16 * kBatches];
      const auto filler = static_cast<std::uint32_t>(walk.node);
      for (std::int32_t k = 0; k < 16 * kBatches; ++k) batch_nodes[k] = filler;
      for (std::int32_t n = 0; n < in_step; ++n) {
        batch_nodes[16 * (n / per_batch) + n % per_batch] = static_cast<std::uint32_t>(walk.node);
        if (done + n + 1 < nodes) block.advance(walk);
      }
      __m512i node_counter[kBatches];
      for (int b = 0; b < kBatches; ++b) {
        node_counter[b] = _mm512_permutexvar_epi32(slot, _mm512_load_si512(batch_nodes + 16 * b));
      }
      simd::PhiloxWords16 draws[kBatches];
      simd::philox16<kBatches>(seed, node_counter, group_words, sweep | kPottsSweep, round, draws);
      alignas(64) std::uint32_t by_generator[kBatches][64];
      for (int b = 0; b < kBatches; ++b) simd::store_by_generator(draws[b], by_generator[b]);
      Cursor c = step_start;
      for (std::int32_t n = 0; n < in_step; ++n) {
        if (n > 0) block.advance(c);
        update_node<Octs, Q>(c, first, active, row, oct_active, by_generator[n / per_batch],
                             (n % per_batch) * per_node);
      }
    }
  }

  /// One node: lane l's word is word l % 4 of generator first_generator + l / 4.
  template <int Octs, int Q>
  [[gnu::always_inline]] HAMON_AVX512 void update_node(const Cursor& c, std::int32_t first,
                                                       __mmask32 active, const __m256i* row,
                                                       const __mmask8* oct_active,
                                                       const std::uint32_t* by_generator,
                                                       std::int32_t first_generator) const {
    const std::int32_t states = Q > 0 ? Q : q;
    const std::int64_t i = c.node;
    const double* h = state_fields.data() + i * q;
    __m512i phi[kPottsRegisterStates];
    for (std::int32_t s = 0; s < states; ++s) {
      phi[s] = _mm512_set1_epi16(static_cast<short>(h[s] - h[0]));
    }
    block.for_each_neighbour(c, [&](std::int64_t j, auto coupling) HAMON_AVX512 {
      const __m256i x = _mm256_maskz_loadu_epi8(active, &spins(first, j));
      const __m512i J = _mm512_set1_epi16(static_cast<short>(coupling));
      for (std::int32_t s = 0; s < states; ++s) {
        const __mmask32 in_s = _mm256_cmpeq_epi8_mask(x, _mm256_set1_epi8(static_cast<char>(s)));
        phi[s] = _mm512_mask_add_epi16(phi[s], in_s, phi[s], J);
      }
    });
    __m512i top = phi[0];
    for (std::int32_t s = 1; s < states; ++s) top = _mm512_max_epi16(top, phi[s]);

    // Cumulative weights in state order, 8 lanes per register.
    __m512d total[Octs], cumulative[kPottsRegisterStates][Octs];
    for (int o = 0; o < Octs; ++o) total[o] = _mm512_setzero_pd();
    const double* table = weight.data();
    for (std::int32_t s = 0; s < states; ++s) {
      const __m512i gap = _mm512_sub_epi16(top, phi[s]);
      const __m512i gap_lo = _mm512_cvtepi16_epi32(_mm512_castsi512_si256(gap));
      const __m512i gap_hi = _mm512_cvtepi16_epi32(_mm512_extracti64x4_epi64(gap, 1));
      for (int o = 0; o < Octs; ++o) {
        const __m256i index = _mm256_add_epi32(row[o], oct(gap_lo, gap_hi, o));
        const __m512d w =
            _mm512_mask_i32gather_pd(_mm512_setzero_pd(), oct_active[o], index, table, 8);
        total[o] = _mm512_add_pd(total[o], w);
        cumulative[s][o] = total[o];
      }
    }
    // The state: how many of the first q - 1 cumulative weights are <= the target.
    std::uint32_t at_or_below[kPottsRegisterStates] = {};
    for (int o = 0; o < Octs; ++o) {
      const std::int32_t g = first_generator + 2 * o;
      const __m128i w0 = _mm_load_si128(
          reinterpret_cast<const __m128i*>(by_generator + simd::generator_offset(g)));
      const __m128i w1 = _mm_load_si128(
          reinterpret_cast<const __m128i*>(by_generator + simd::generator_offset(g + 1)));
      const __m256i words = _mm256_inserti128_si256(_mm256_castsi128_si256(w0), w1, 1);
      const __m512d target = _mm512_mul_pd(simd::unit_interval8(words), total[o]);
      for (std::int32_t s = 0; s < states - 1; ++s) {
        at_or_below[s] |=
            static_cast<std::uint32_t>(_mm512_cmp_pd_mask(cumulative[s][o], target, _CMP_LE_OQ))
            << (8 * o);
      }
    }
    __m256i state = _mm256_setzero_si256();
    const __m256i one = _mm256_set1_epi8(1);
    for (std::int32_t s = 0; s < states - 1; ++s) {
      state = _mm256_mask_add_epi8(state, __mmask32(at_or_below[s]), state, one);
    }
    _mm256_mask_storeu_epi8(&spins(first, i), active, state);
  }
};

#endif

}  // namespace hamon::detail
