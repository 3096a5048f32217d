// SPDX-License-Identifier: Apache-2.0
#pragma once
// The integer register path (families/spin/detail/register_sweep.hpp) when a chunk holds at most 8
// machines: the lanes of several block nodes share one register of decisions, so a 16-lane
// gather of the limits serves 16 updates whatever the number of machines (with one node per
// register, 8 machines left half of every gather idle and 1 machine fifteen sixteenths).
// Node slot p holds lanes [p W, p W + W), W the machines rounded up to a power of two; a
// node's spins are read and written at their exact width when W is the machine count, so
// no access straddles a neighbouring node's bytes (a wider masked store there stalls the
// next load of that neighbour, which cannot be forwarded from a masked store). Same bytes,
// limits, ties and stores as update_node: the same bits.

#include <cstdint>
#include <cstring>
#include <type_traits>

#include "hamon/core/families/detail/host_simd.hpp"

namespace hamon::detail {

#ifdef HAMON_HOST_AVX512

/// Up to 16 / W nodes waiting for their decisions. `Sweep`: the RegisterSweep whose
/// tables, spins and tie list (`Ties`) it uses.
template <int W, class Sweep, class Ties>
struct PackedNodes {
  static_assert(W == 1 || W == 2 || W == 4 || W == 8, "a slot is a power of two <= 8 lanes");
  static constexpr int kSlots = 16 / W;

  const Sweep& sweep;
  Ties& ties;
  std::int32_t first;  // the chunk's first machine
  std::int32_t lanes;  // machines of the chunk, at most W
  __mmask16 active;    // packed lanes l with l % W < lanes
  __m512i row, floor;  // packed lane l: those of machine first + l % W (LaneRows)
  __m512i phi, bytes;  // of the waiting nodes, slot by slot
  std::int64_t node[kSlots];
  int count = 0;

  template <class Rows>
  HAMON_AVX512 PackedNodes(const Sweep& s, Ties& t, std::int32_t first_machine,
                           std::int32_t machines, const Rows& r)
      : sweep(s), ties(t), first(first_machine), lanes(machines) {
    const __m512i lane = _mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
    const __m512i machine = _mm512_and_si512(lane, _mm512_set1_epi32(W - 1));
    active = _mm512_cmplt_epi32_mask(machine, _mm512_set1_epi32(lanes));
    row = _mm512_permutexvar_epi32(machine, r.row_lo);
    floor = _mm512_permutexvar_epi32(machine, r.floor_lo);
    phi = bytes = _mm512_setzero_si512();
  }

  /// The spins of `lanes` machines at node j, sign-extended to 16-bit lanes.
  [[gnu::always_inline]] HAMON_AVX512 __m128i load(std::int64_t j) const {
    const std::int8_t* s = &sweep.spins(first, j);
    if (lanes == W) {
      std::uint64_t word = 0;
      std::memcpy(&word, s, W);  // one load of W bytes
      return _mm_cvtepi8_epi16(_mm_cvtsi64_si128(static_cast<long long>(word)));
    }
    return _mm_cvtepi8_epi16(_mm_maskz_loadu_epi8(static_cast<__mmask16>((1u << lanes) - 1u), s));
  }

  /// Adds a node: its local fields (16-bit lanes, as update_node sums them) and bytes (those
  /// of generator `generator` in `by_generator`) go to the next slot; decides when full.
  template <class Cursor>
  [[gnu::always_inline]] HAMON_AVX512 void add(const Cursor& c, const std::uint32_t* by_generator,
                                               std::int32_t generator) {
    __m128i h = _mm_set1_epi16(static_cast<short>(sweep.block.field(c)));
    sweep.block.for_each_neighbour(c, [&](std::int64_t j, auto coupling) HAMON_AVX512 {
      h = _mm_add_epi16(h, _mm_mullo_epi16(load(j), _mm_set1_epi16(static_cast<short>(coupling))));
    });
    const auto slot = static_cast<__mmask16>(((1u << W) - 1u) << (W * count));
    phi = _mm512_mask_expand_epi32(phi, slot, _mm512_cvtepi16_epi32(_mm256_castsi128_si256(h)));
    bytes = _mm512_mask_expand_epi32(bytes, slot, simd::generator_bytes(by_generator, generator));
    node[count] = c.node;
    if (++count == kSlots) decide();
  }

  /// The waiting nodes' decisions (decide_bytes16), their stores, and their ties deferred to
  /// the sweep's tie list.
  HAMON_AVX512 void decide() {
    if (count == 0) return;
    const auto filled =
        static_cast<__mmask16>(count == kSlots ? 0xFFFFu : (1u << (W * count)) - 1u);
    const __m512i index = _mm512_add_epi32(phi, row);
    const simd::ByteDecisions16 d = simd::decide_bytes16(
        static_cast<__mmask16>(active & filled), index, floor, bytes, sweep.up_limit.data());
    alignas(16) std::int8_t decided[16];
    _mm_store_si128(reinterpret_cast<__m128i*>(decided),
                    _mm_mask_blend_epi8(d.up, _mm_set1_epi8(-1), _mm_set1_epi8(1)));
    for (int p = 0; p < count; ++p) {
      std::int8_t* s = &sweep.spins(first, node[p]);
      if (lanes == W) {
        std::memcpy(s, decided + W * p, W);  // one store of W bytes
      } else {
        for (std::int32_t k = 0; k < lanes; ++k) s[k] = decided[W * p + k];
      }
    }
    if (__builtin_expect(d.tie != 0, 0)) defer(d.tie, d.limit);
    count = 0;
  }

  /// Appends packed lanes `tie` to the tie list (after the stores: settling sets +1 over
  /// the stored -1).
  [[gnu::noinline, gnu::cold]] HAMON_AVX512 void defer(std::uint32_t tie, __m512i limits) {
    if (ties.count > Ties::kCapacity - 16) sweep.settle_ties(ties);
    alignas(64) std::uint32_t limit[16];
    _mm512_store_si512(limit, limits);
    for (; tie != 0; tie &= tie - 1) {
      const int l = __builtin_ctz(tie);
      ties.node[ties.count] = static_cast<std::uint32_t>(node[l / W]);
      ties.machine[ties.count] = static_cast<std::uint32_t>(first + l % W);  // the spins' row
      ties.limit[ties.count] = limit[l];
      ++ties.count;
    }
  }
};

/// The chunk's nodes in slots of W lanes, W the chunk's `lanes` (at most 8) rounded up to a
/// power of two: `walk(add)` calls add(cursor, by_generator, generator) node by node.
template <class Sweep, class Ties, class Rows, class Walk>
[[gnu::always_inline]] HAMON_AVX512 inline void update_packed(const Sweep& sweep, Ties& ties,
                                                              std::int32_t first,
                                                              std::int32_t lanes, const Rows& rows,
                                                              Walk&& walk) {
  const auto packed = [&](auto slot_lanes) HAMON_AVX512 {
    PackedNodes<decltype(slot_lanes)::value, Sweep, Ties> pack(sweep, ties, first, lanes, rows);
    walk([&](const auto& c, const auto* bytes, auto generator) __attribute__((always_inline))
         HAMON_AVX512 { pack.add(c, bytes, generator); });
    pack.decide();
  };
  if (lanes == 1) {
    packed(std::integral_constant<int, 1>());
  } else if (lanes == 2) {
    packed(std::integral_constant<int, 2>());
  } else if (lanes <= 4) {
    packed(std::integral_constant<int, 4>());
  } else {
    packed(std::integral_constant<int, 8>());
  }
}

#endif

}  // namespace hamon::detail
