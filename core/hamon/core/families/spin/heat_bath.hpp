// SPDX-License-Identifier: Apache-2.0
#pragma once
// The heat-bath decision and its exact integer form.
//
// Node i of a machine at inverse temperature beta becomes +1 with probability
// 1 / (1 + exp(-2 beta phi_i)). With the uniform u = (w + 1/2) / 2^32 of a 32-bit random
// word w, the decision is u * factor < 1, factor = 1 + exp(-2 beta phi) (no division).
//
// When local fields are integers they take few values, and for each (beta, phi) the set
// of words that give +1 is a prefix [0, T): u(w) is exact and increasing in w and rounding
// a product is monotone, so u(w) * factor < 1 holds for w < T and fails from T on. The
// threshold T (0 .. 2^32) is found once per ladder by bisection on that very predicate,
// so `w < T` decides exactly as the floating-point expression does, bit for bit, with one
// integer comparison per update. T takes 2^32 + 1 values; tables store it in 32 bits as
// T - 1 plus a per-row floor for T = 0 (threshold_limit, threshold_decision).
//
// One byte per update (random stream version 2, counter_rng.hpp): a Philox4x32-10 draw
// gives 16 bytes, and byte j (byte j % 4 of word j / 4, least significant first) is the
// top 8 bits of the 32-bit word w of update j. It decides alone unless it equals the top
// byte of the boundary (a tie, probability 1/256); only then are the 24 low bits of w
// drawn, from a separate counter domain (tie_bits). The decision is that of the full
// 32-bit word, so the distribution is exactly that of the 32-bit test.

#include <Kokkos_Core.hpp>
#include <cstdint>

#include "hamon/core/util/counter_rng.hpp"
#include "hamon/core/util/deterministic_math.hpp"

namespace hamon::detail {

KOKKOS_FORCEINLINE_FUNCTION double heat_bath_factor(double beta, double local_field) {
  return 1.0 + deterministic_exp(-2.0 * beta * local_field);
}

KOKKOS_FORCEINLINE_FUNCTION std::int8_t heat_bath_decision(double factor, double u) {
  return u * factor < 1.0 ? std::int8_t(1) : std::int8_t(-1);
}

/// The number T of words w in [0, 2^32) for which to_unit_interval(w) * factor < 1.
KOKKOS_INLINE_FUNCTION std::uint64_t heat_bath_threshold(double factor) {
  std::uint64_t low = 0;                // every w < low decides +1
  std::uint64_t high = 0x100000000ull;  // every w >= high decides -1
  while (low < high) {
    const std::uint64_t mid = low + (high - low) / 2;
    if (to_unit_interval(static_cast<std::uint32_t>(mid)) * factor < 1.0) {
      low = mid + 1;
    } else {
      high = mid;
    }
  }
  return low;
}

/// The stored form of T, in 32 bits: `limit` = T - 1 when T >= 1, and `possible` = T >= 1.
/// A word decides +1 iff possible and word <= limit. For beta >= 0 the T = 0 entries of a
/// row (phi = -R .. R) are a prefix, so `possible` is "phi + R >= the row's floor".
KOKKOS_FORCEINLINE_FUNCTION std::uint32_t threshold_limit(std::uint64_t threshold) {
  return threshold == 0 ? 0u : static_cast<std::uint32_t>(threshold - 1);
}

KOKKOS_FORCEINLINE_FUNCTION std::int8_t threshold_decision(std::uint32_t word, std::uint32_t limit,
                                                           bool possible) {
  return possible && word <= limit ? std::int8_t(1) : std::int8_t(-1);
}

/// Updates served by one Philox4x32-10 draw (its 16 bytes).
inline constexpr std::int32_t kUpdatesPerDraw = 16;

/// Byte j (0 .. 15) of a draw.
KOKKOS_FORCEINLINE_FUNCTION std::uint32_t draw_byte(const Philox4& draw, std::int32_t j) {
  return (draw.w[j >> 2] >> (8 * (j & 3))) & 0xFFu;
}

/// The 24 low bits of the word of a tie of (node, machine) in (sweep, round): the top 24
/// bits of word 0 of Philox at counter (node, machine, sweep | kTieSweep, round).
KOKKOS_INLINE_FUNCTION std::uint32_t tie_bits(std::uint64_t seed, std::uint32_t node,
                                              std::uint32_t machine, std::uint32_t sweep,
                                              std::uint32_t round) {
  return philox4(seed, node, machine, sweep | kTieSweep, round).w[0] >> 8;
}

/// The threshold test w <= limit (threshold_decision) from the top byte of w alone: +1,
/// -1, or 0 for a tie (byte == limit >> 24), which tie_threshold_decision settles.
KOKKOS_FORCEINLINE_FUNCTION std::int8_t byte_threshold_decision(std::uint32_t byte,
                                                                std::uint32_t limit,
                                                                bool possible) {
  const std::uint32_t top = limit >> 24;
  return !possible || byte > top ? std::int8_t(-1) : (byte < top ? std::int8_t(1) : std::int8_t(0));
}

KOKKOS_FORCEINLINE_FUNCTION std::int8_t tie_threshold_decision(std::uint32_t low_bits,
                                                               std::uint32_t limit) {
  return low_bits <= (limit & 0xFFFFFFu) ? std::int8_t(1) : std::int8_t(-1);
}

/// The floating-point test u(w) * factor < 1 from the top byte of w alone: every word
/// with that byte decides the same when the largest and the smallest of them do (the test
/// is monotone in w); otherwise 0, a tie, which tie_heat_bath_decision settles.
KOKKOS_FORCEINLINE_FUNCTION std::int8_t byte_heat_bath_decision(std::uint32_t byte, double factor) {
  if (to_unit_interval((byte << 24) | 0xFFFFFFu) * factor < 1.0) return 1;
  if (!(to_unit_interval(byte << 24) * factor < 1.0)) return -1;
  return 0;
}

KOKKOS_FORCEINLINE_FUNCTION std::int8_t tie_heat_bath_decision(std::uint32_t byte,
                                                               std::uint32_t low_bits,
                                                               double factor) {
  return heat_bath_decision(factor, to_unit_interval((byte << 24) | low_bits));
}

}  // namespace hamon::detail
