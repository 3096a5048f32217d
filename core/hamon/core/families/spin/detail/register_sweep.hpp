// SPDX-License-Identifier: Apache-2.0
#pragma once
// The AVX-512 register paths of the host sweep (families/detail/host_simd.hpp): a work item is a
// run of block nodes in machines [first, first + 32), with three batches of 16 Philox generators in
// registers at a time; local fields, byte decisions and ties as the portable loops compute them
// (families/spin/spin_decision.hpp), bit for bit. One path for integer local fields (thresholds in
// 16-bit lanes, ties deferred and drawn 16 at a time) and one for real ones (field boundaries or
// exp, 8 lanes per register). Empty unless AVX-512 is compiled in (never in device code);
// BlockUpdate (families/spin/detail/block_update.hpp) derives from it.

#include <Kokkos_Core.hpp>
#include <cstdint>
#include <type_traits>

#include "hamon/core/families/detail/host_simd.hpp"
#include "hamon/core/families/detail/sweep_args.hpp"
#include "hamon/core/families/detail/sweep_blocks.hpp"
#include "hamon/core/families/spin/detail/packed_sweep.hpp"
#include "hamon/core/families/spin/field_boundaries.hpp"
#include "hamon/core/families/spin/heat_bath.hpp"
#include "hamon/core/util/deterministic_math.hpp"

namespace hamon::detail {

template <class ExecutionSpace, class Block>
struct RegisterSweep : SweepArgs<ExecutionSpace, Block> {
#if defined(HAMON_HOST_AVX512) && !defined(__CUDA_ARCH__)
  using Args = SweepArgs<ExecutionSpace, Block>;
  using Args::betas;
  using Args::block;
  using Args::bound;
  using Args::chain_of_machine;
  using Args::field_boundary;
  using Args::group_counter;
  using Args::machine_counter;
  using Args::n_machines;
  using Args::round;
  using Args::seed;
  using Args::spins;
  using Args::sweep;
  using Args::tie;
  using Args::up_floor;
  using Args::up_limit;

  /// Per lane of a 32-machine chunk: the index of its chain's up_limit entry at phi = 0
  /// and the lowest index that can decide +1 (inactive lanes: chain 0, never read).
  struct LaneRows {
    __mmask32 active;
    __mmask16 active_lo, active_hi;
    __m512i row_lo, row_hi, floor_lo, floor_hi;
  };

  [[gnu::always_inline]] HAMON_AVX512 LaneRows lane_rows(std::int32_t first,
                                                         std::int32_t lanes) const {
    LaneRows r;
    r.active = simd::lane_mask(lanes);
    r.active_lo = static_cast<__mmask16>(r.active);
    r.active_hi = static_cast<__mmask16>(r.active >> 16);
    const __m512i width = _mm512_set1_epi32(2 * bound + 1);
    const std::int32_t* chains = &chain_of_machine(first);
    const __m512i chain_lo = _mm512_maskz_loadu_epi32(r.active_lo, chains);
    const __m512i chain_hi = _mm512_maskz_loadu_epi32(r.active_hi, chains + 16);
    const __m512i start_lo = _mm512_mullo_epi32(chain_lo, width);
    const __m512i start_hi = _mm512_mullo_epi32(chain_hi, width);
    r.row_lo = _mm512_add_epi32(start_lo, _mm512_set1_epi32(bound));
    r.row_hi = _mm512_add_epi32(start_hi, _mm512_set1_epi32(bound));
    const __m512i zero = _mm512_setzero_si512();
    r.floor_lo = _mm512_add_epi32(
        start_lo, _mm512_mask_i32gather_epi32(zero, r.active_lo, chain_lo, up_floor.data(), 4));
    r.floor_hi = _mm512_add_epi32(
        start_hi, _mm512_mask_i32gather_epi32(zero, r.active_hi, chain_hi, up_floor.data(), 4));
    return r;
  }

  /// Ties of the integer register path, settled together: a tie's spin is
  /// stored as -1 first and turned to +1 when its low bits say so, before the
  /// colour block ends (no node of the block reads another's spin, so the order
  /// does not matter).
  struct TieList {
    static constexpr int kCapacity = 64;
    alignas(64) std::uint32_t node[kCapacity];
    alignas(64) std::uint32_t machine[kCapacity];
    alignas(64) std::uint32_t limit[kCapacity];
    int count = 0;
  };

  /// Appends lanes `ties` (bit l: machine first + l) of `node`, limits limit_lo
  /// (lanes 0..15) and limit_hi; settles the list first when it could overflow.
  [[gnu::noinline, gnu::cold]] HAMON_AVX512 void defer_ties(TieList& list, std::int64_t node,
                                                            std::int32_t first, std::uint32_t ties,
                                                            __m512i limit_lo,
                                                            __m512i limit_hi) const {
    if (list.count > TieList::kCapacity - 32) settle_ties(list);
    alignas(64) std::uint32_t limit[32];
    _mm512_store_si512(limit, limit_lo);
    _mm512_store_si512(limit + 16, limit_hi);
    for (; ties != 0; ties &= ties - 1) {
      const int l = __builtin_ctz(ties);
      list.node[list.count] = static_cast<std::uint32_t>(node);
      list.machine[list.count] = static_cast<std::uint32_t>(first + l);  // the spins' row
      list.limit[list.count] = limit[l];
      ++list.count;
    }
  }

  /// Draws the low bits of every listed tie (16 generators at a time: tie_bits)
  /// and sets the spins that turn up; empties the list.
  HAMON_AVX512 void settle_ties(TieList& list) const {
    for (int t = 0; t < list.count; t += 16) {
      const __mmask16 live =
          static_cast<__mmask16>(list.count - t >= 16 ? 0xFFFFu : (1u << (list.count - t)) - 1u);
      const __m512i node[1] = {_mm512_maskz_loadu_epi32(live, list.node + t)};
      const __m512i machine =  // the counter word of the rows' machines
          _mm512_add_epi32(_mm512_maskz_loadu_epi32(live, list.machine + t),
                           _mm512_set1_epi32(static_cast<int>(machine_counter(0))));
      simd::PhiloxWords16 draw[1];
      simd::philox16<1>(seed, node, machine, sweep | kTieSweep, round, draw);
      const __m512i low_bits = _mm512_srli_epi32(draw[0].words[0], 8);
      const __m512i limit_low = _mm512_and_si512(_mm512_maskz_loadu_epi32(live, list.limit + t),
                                                 _mm512_set1_epi32(0xFFFFFF));
      // tie_threshold_decision
      for (auto up =
               static_cast<std::uint32_t>(_mm512_mask_cmple_epu32_mask(live, low_bits, limit_low));
           up != 0; up &= up - 1) {
        const int k = t + __builtin_ctz(up);
        spins(static_cast<std::int32_t>(list.machine[k]), list.node[k]) = 1;
      }
    }
    list.count = 0;
  }

  /// One node in machines [first, first + lanes), its bytes from generators
  /// first_generator.. of `by_generator` (simd::store_by_generator): local fields in 16-bit
  /// lanes, thresholds, ties, the store.
  [[gnu::always_inline]] HAMON_AVX512 void update_node(
      const typename Block::Cursor& c, std::int32_t first, std::int32_t lanes, const LaneRows& r,
      const std::uint32_t* by_generator, std::int32_t first_generator, TieList& ties_left) const {
    const std::uint32_t* limits = up_limit.data();
    const auto h = static_cast<short>(block.field(c));
    if (lanes > 16) {
      __m512i phi = _mm512_set1_epi16(h);
      block.for_each_neighbour(c, [&](std::int64_t j, auto coupling) HAMON_AVX512 {
        const __m512i s = _mm512_cvtepi8_epi16(_mm256_maskz_loadu_epi8(r.active, &spins(first, j)));
        phi = _mm512_add_epi16(
            phi, _mm512_mullo_epi16(s, _mm512_set1_epi16(static_cast<short>(coupling))));
      });
      const __m512i index_lo =
          _mm512_add_epi32(_mm512_cvtepi16_epi32(_mm512_castsi512_si256(phi)), r.row_lo);
      const __m512i index_hi =
          _mm512_add_epi32(_mm512_cvtepi16_epi32(_mm512_extracti64x4_epi64(phi, 1)), r.row_hi);
      const simd::ByteDecisions16 lo =
          simd::decide_bytes16(r.active_lo, index_lo, r.floor_lo,
                               simd::generator_bytes(by_generator, first_generator), limits);
      const simd::ByteDecisions16 hi =
          simd::decide_bytes16(r.active_hi, index_hi, r.floor_hi,
                               simd::generator_bytes(by_generator, first_generator + 1), limits);
      const std::uint32_t up = _mm512_kunpackw(hi.up, lo.up);
      const std::uint32_t ties = _mm512_kunpackw(hi.tie, lo.tie);
      if (__builtin_expect(ties != 0, 0)) {
        defer_ties(ties_left, c.node, first, ties, lo.limit, hi.limit);
      }
      const __m256i decided =
          _mm256_mask_blend_epi8(__mmask32(up), _mm256_set1_epi8(-1), _mm256_set1_epi8(1));
      _mm256_mask_storeu_epi8(&spins(first, c.node), r.active, decided);
    } else {
      // At most 16 machines: half-width registers, no idle lanes.
      __m256i phi = _mm256_set1_epi16(h);
      block.for_each_neighbour(c, [&](std::int64_t j, auto coupling) HAMON_AVX512 {
        const __m256i s = _mm256_cvtepi8_epi16(_mm_maskz_loadu_epi8(r.active_lo, &spins(first, j)));
        phi = _mm256_add_epi16(
            phi, _mm256_mullo_epi16(s, _mm256_set1_epi16(static_cast<short>(coupling))));
      });
      const __m512i index = _mm512_add_epi32(_mm512_cvtepi16_epi32(phi), r.row_lo);
      const simd::ByteDecisions16 d =
          simd::decide_bytes16(r.active_lo, index, r.floor_lo,
                               simd::generator_bytes(by_generator, first_generator), limits);
      const std::uint32_t up = d.up;
      if (__builtin_expect(d.tie != 0, 0)) {
        defer_ties(ties_left, c.node, first, d.tie, d.limit, d.limit);
      }
      const __m128i decided =
          _mm_mask_blend_epi8(__mmask16(up), _mm_set1_epi8(-1), _mm_set1_epi8(1));
      _mm_mask_storeu_epi8(&spins(first, c.node), r.active_lo, decided);
    }
  }

  // The two register paths are separate functions so each gets its own register
  // allocation (one function holding both measured 5-14 % slower on the integer path).
  [[gnu::noinline]] HAMON_AVX512 void update_registers_integer(std::int64_t begin,
                                                               std::int32_t nodes,
                                                               std::int32_t first) const {
    const std::int32_t lanes = n_machines - first < kHostLanes ? n_machines - first : kHostLanes;
    const LaneRows rows = lane_rows(first, lanes);
    TieList ties;
    if (lanes <= 8) {  // several nodes per register (families/spin/detail/packed_sweep.hpp)
      update_packed(*this, ties, first, lanes, rows, [&](auto&& add) HAMON_AVX512 {
        walk_registers(begin, nodes, first, lanes, add);
      });
      settle_ties(ties);
      return;
    }
    walk_registers(
        begin, nodes, first, lanes,
        [&](const auto& c, const auto* bytes, auto gen) __attribute__((always_inline))
        HAMON_AVX512 { update_node(c, first, lanes, rows, bytes, gen, ties); });
    settle_ties(ties);
  }

  [[gnu::noinline]] HAMON_AVX512 void update_registers_real(std::int64_t begin, std::int32_t nodes,
                                                            std::int32_t first) const {
    const std::int32_t lanes = n_machines - first < kHostLanes ? n_machines - first : kHostLanes;
    const LaneBetas lane_betas = betas_of_lanes(first, lanes);
    RealTieList ties;
    // The number of 8-lane groups fixed at compile time, so the local fields stay in
    // registers (a run-time count spilled them to the stack).
    const auto walk = [&](auto groups) HAMON_AVX512 {
      walk_registers(
          begin, nodes, first, lanes,
          [&](const auto& c, const auto* bytes, auto gen) __attribute__((always_inline))
          HAMON_AVX512 {
            update_node_real<decltype(groups)::value>(c, first, lane_betas, bytes, gen, ties);
          });
    };
    if (lanes > 16) {
      walk(std::integral_constant<int, 4>());
    } else if (lanes > 8) {
      walk(std::integral_constant<int, 2>());
    } else {
      walk(std::integral_constant<int, 1>());
    }
    settle_real_ties(ties);
  }

  /// Runs the Philox batches for the nodes and calls update(cursor, by_generator,
  /// first_generator) for each node in order.
  template <class Update>
  [[gnu::always_inline]] HAMON_AVX512 void walk_registers(std::int64_t begin, std::int32_t nodes,
                                                          std::int32_t first, std::int32_t lanes,
                                                          Update&& update) const {
    constexpr int kBatches = 3;
    const std::int32_t per_node = (lanes + kMachinesPerDraw - 1) / kMachinesPerDraw;  // 1 or 2
    const std::int32_t per_batch = 16 / per_node;  // nodes that share one batch
    const std::int32_t per_step = kBatches * per_batch;
    // Generator g of a batch: node slot g / per_node, group first / 4 + g % per_node.
    alignas(64) std::uint32_t slot_of[16], group_of[16];
    for (std::int32_t g = 0, n = 0; g < 16; ++n) {
      for (std::int32_t k = 0; k < per_node && g < 16; ++k, ++g) {
        slot_of[g] = static_cast<std::uint32_t>(n);
        group_of[g] = group_counter(first / kMachinesPerDraw + k);
      }
    }
    const __m512i slot = _mm512_load_si512(slot_of);
    const __m512i group_words = _mm512_load_si512(group_of);

    typename Block::Cursor walk = block.cursor(begin);
    for (std::int32_t done = 0; done < nodes; done += per_step) {
      const std::int32_t in_step = nodes - done < per_step ? nodes - done : per_step;
      // Counters: each batch's node slots, unused slots repeating the step's first node.
      const typename Block::Cursor step_start = walk;
      alignas(64) std::uint32_t batch_nodes[16 * kBatches];
      const auto filler = static_cast<std::uint32_t>(walk.node);
      for (std::int32_t k = 0; k < 16 * kBatches; ++k) batch_nodes[k] = filler;
      for (std::int32_t n = 0, b = 0, in_batch = 0; n < in_step; ++n) {
        batch_nodes[16 * b + in_batch] = static_cast<std::uint32_t>(walk.node);
        if (done + n + 1 < nodes) block.advance(walk);
        if (++in_batch == per_batch) {
          in_batch = 0;
          ++b;
        }
      }
      __m512i node_counter[kBatches];
      for (int b = 0; b < kBatches; ++b) {
        node_counter[b] = _mm512_permutexvar_epi32(slot, _mm512_load_si512(batch_nodes + 16 * b));
      }
      simd::PhiloxWords16 draws[kBatches];
      simd::philox16<kBatches>(seed, node_counter, group_words, sweep, round, draws);
      alignas(64) std::uint32_t by_generator[kBatches][64];
      for (int b = 0; b < kBatches; ++b) simd::store_by_generator(draws[b], by_generator[b]);

      typename Block::Cursor c = step_start;
      for (std::int32_t n = 0, b = 0, in_batch = 0; n < in_step; ++n) {
        if (n > 0) block.advance(c);
        update(c, by_generator[b], in_batch * per_node);
        if (++in_batch == per_batch) {
          in_batch = 0;
          ++b;
        }
      }
    }
  }

  /// Ties of the real register path, settled together like the integer path's (TieList):
  /// a tie's spin is stored as -1 first and turned to +1 when the floating-point test with
  /// its 24 low bits says so, before the work item ends.
  struct RealTieList {
    static constexpr int kCapacity = 64;
    alignas(64) std::uint32_t node[kCapacity];
    alignas(64) std::uint32_t machine[kCapacity];
    alignas(64) std::uint32_t byte[kCapacity];
    alignas(64) double phi[kCapacity];
    alignas(64) double minus_two_beta[kCapacity];
    int count = 0;
  };

  /// Appends lanes `ties` (bit l: machine first + l) of `node`, with their bytes, local
  /// fields and -2 beta (8 lanes); settles the list first when it could overflow.
  [[gnu::noinline, gnu::cold]] HAMON_AVX512 void defer_real_ties(
      RealTieList& list, std::int64_t node, std::int32_t first, std::uint32_t ties, __m256i bytes,
      __m512d phis, __m512d minus_two_betas) const {
    if (list.count > RealTieList::kCapacity - 8) settle_real_ties(list);
    alignas(64) std::uint32_t byte[8];
    alignas(64) double phi[8], minus_two_beta[8];
    _mm256_store_si256(reinterpret_cast<__m256i*>(byte), bytes);
    _mm512_store_pd(phi, phis);
    _mm512_store_pd(minus_two_beta, minus_two_betas);
    for (; ties != 0; ties &= ties - 1) {
      const int l = __builtin_ctz(ties);
      list.node[list.count] = static_cast<std::uint32_t>(node);
      list.machine[list.count] = static_cast<std::uint32_t>(first + l);  // the spins' row
      list.byte[list.count] = byte[l];
      list.phi[list.count] = phi[l];
      list.minus_two_beta[list.count] = minus_two_beta[l];
      ++list.count;
    }
  }

  /// Draws the low bits of every listed tie (16 generators at a time: tie_bits), evaluates
  /// heat_bath_factor's test and sets the spins that turn up; empties the list.
  HAMON_AVX512 void settle_real_ties(RealTieList& list) const {
    for (int t = 0; t < list.count; t += 16) {
      const int in_batch = list.count - t >= 16 ? 16 : list.count - t;
      const auto live = static_cast<__mmask16>(in_batch == 16 ? 0xFFFFu : (1u << in_batch) - 1u);
      const __m512i node[1] = {_mm512_maskz_loadu_epi32(live, list.node + t)};
      const __m512i machine =
          _mm512_add_epi32(_mm512_maskz_loadu_epi32(live, list.machine + t),
                           _mm512_set1_epi32(static_cast<int>(machine_counter(0))));
      simd::PhiloxWords16 draw[1];
      simd::philox16<1>(seed, node, machine, sweep | kTieSweep, round, draw);
      alignas(64) std::uint32_t low_bits[16];
      _mm512_store_si512(low_bits, _mm512_srli_epi32(draw[0].words[0], 8));
      for (int k = 0; k < in_batch; ++k) {
        const int i = t + k;
        const double factor = 1.0 + deterministic_exp(list.minus_two_beta[i] * list.phi[i]);
        if (tie_heat_bath_decision(list.byte[i], low_bits[k], factor) > 0) {
          spins(static_cast<std::int32_t>(list.machine[i]), list.node[i]) = 1;
        }
      }
    }
    list.count = 0;
  }

  /// -2 beta of each lane's chain, 8 lanes per register (real local fields).
  struct LaneBetas {
    __mmask32 active;
    __m512d minus_two_beta[4];
    __m256i boundary_row[4];  // chain * kFieldBoundaries
  };

  [[gnu::always_inline]] HAMON_AVX512 LaneBetas betas_of_lanes(std::int32_t first,
                                                               std::int32_t lanes) const {
    LaneBetas r;
    r.active = simd::lane_mask(lanes);
    for (int q = 0; q < 4; ++q) {
      const auto mask = static_cast<__mmask8>(r.active >> (8 * q));
      const __m256i chains = _mm256_maskz_loadu_epi32(mask, &chain_of_machine(first) + 8 * q);
      const __m512d beta =
          _mm512_mask_i32gather_pd(_mm512_setzero_pd(), mask, chains, betas.data(), 8);
      r.minus_two_beta[q] = _mm512_mul_pd(_mm512_set1_pd(-2.0), beta);
      r.boundary_row[q] = _mm256_mullo_epi32(chains, _mm256_set1_epi32(kFieldBoundaries));
    }
    return r;
  }

  /// One node, real local fields: phi = h + sum_j J s_j in CRS order, then
  /// byte_heat_bath_decision and its ties, every operation as the portable loops do it.
  template <int Groups>
  [[gnu::always_inline]] HAMON_AVX512 void update_node_real(const typename Block::Cursor& c,
                                                            std::int32_t first, const LaneBetas& r,
                                                            const std::uint32_t* by_generator,
                                                            std::int32_t first_generator,
                                                            RealTieList& ties_left) const {
    constexpr int groups = Groups;  // (lanes + 7) / 8
    __m512d phi[Groups];
    for (int q = 0; q < Groups; ++q) phi[q] = _mm512_set1_pd(static_cast<double>(block.field(c)));
    block.for_each_neighbour(c, [&](std::int64_t j, auto coupling) HAMON_AVX512 {
      const __m256i s8 = _mm256_maskz_loadu_epi8(r.active, &spins(first, j));
      const __m512i s_lo = _mm512_cvtepi8_epi32(_mm256_castsi256_si128(s8));
      const __m512i s_hi = _mm512_cvtepi8_epi32(_mm256_extracti128_si256(s8, 1));
      const __m512d J = _mm512_set1_pd(static_cast<double>(coupling));
      for (int q = 0; q < groups; ++q) {
        const __m512i s32 = q < 2 ? s_lo : s_hi;
        const __m256i s =
            q % 2 == 0 ? _mm512_castsi512_si256(s32) : _mm512_extracti64x4_epi64(s32, 1);
        phi[q] = _mm512_add_pd(phi[q], _mm512_mul_pd(J, _mm512_cvtepi32_pd(s)));
      }
    });
    std::uint32_t up = 0;
    for (int q = 0; q < groups; ++q) {
      const __m512i bytes = simd::generator_bytes(by_generator, first_generator + q / 2);
      const __m256i b =
          q % 2 == 0 ? _mm512_castsi512_si256(bytes) : _mm512_extracti64x4_epi64(bytes, 1);
      __mmask8 surely_up, maybe_up;
      if (field_boundary.extent(0) > 0) {
        // phi against the chain's boundaries B[b] and B[b + 1].
        const __m256i index = _mm256_add_epi32(r.boundary_row[q], b);
        const double* boundaries = field_boundary.data();
        const __m512d upper =
            _mm512_i32gather_pd(_mm256_add_epi32(index, _mm256_set1_epi32(1)), boundaries, 8);
        const __m512d lower = _mm512_i32gather_pd(index, boundaries, 8);
        surely_up = _mm512_cmp_pd_mask(phi[q], upper, _CMP_GE_OQ);
        maybe_up = _mm512_cmp_pd_mask(phi[q], lower, _CMP_GE_OQ);
      } else {
        const __m512d factor = _mm512_add_pd(
            _mm512_set1_pd(1.0), simd::exp8(_mm512_mul_pd(r.minus_two_beta[q], phi[q])));
        // The largest and the smallest word with this top byte.
        const __m256i w_low = _mm256_slli_epi32(b, 24);
        const __m256i w_high = _mm256_or_si256(w_low, _mm256_set1_epi32(0xFFFFFF));
        surely_up = _mm512_cmp_pd_mask(_mm512_mul_pd(simd::unit_interval8(w_high), factor),
                                       _mm512_set1_pd(1.0), _CMP_LT_OQ);
        maybe_up = _mm512_cmp_pd_mask(_mm512_mul_pd(simd::unit_interval8(w_low), factor),
                                      _mm512_set1_pd(1.0), _CMP_LT_OQ);
      }
      std::uint32_t decided = surely_up;
      const auto ties = static_cast<std::uint32_t>(maybe_up & ~surely_up) &
                        static_cast<std::uint32_t>(r.active >> (8 * q)) & 0xFFu;
      if (__builtin_expect(ties != 0, 0)) {
        defer_real_ties(ties_left, c.node, first + 8 * q, ties, b, phi[q], r.minus_two_beta[q]);
      }
      up |= decided << (8 * q);
    }
    const __m256i decided =
        _mm256_mask_blend_epi8(__mmask32(up), _mm256_set1_epi8(-1), _mm256_set1_epi8(1));
    _mm256_mask_storeu_epi8(&spins(first, c.node), r.active, decided);
  }
#endif
};

}  // namespace hamon::detail
