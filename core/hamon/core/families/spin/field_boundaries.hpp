// SPDX-License-Identifier: Apache-2.0
#pragma once
// Real local fields without exp on the common path: per chain, the field values where the
// byte decision (families/spin/heat_bath.hpp) changes.
//
// The floating-point test u(w) * (1 + exp(-2 beta phi)) < 1 holds for a word w from some
// field value on, and the larger w, the larger that value. With w_k = max(k 2^24 - 1, 0),
// k = 0 .. 256, let B[k] be the smallest double phi for which the test holds at w_k,
// found by bisection over the ordered doubles on that very floating-point test (as
// heat_bath_threshold does for words). Then for the top byte b of a word:
//   phi >= B[b + 1]  every word with top byte b (the largest is w_{b+1}) decides +1;
//   phi <  B[b]      no word with top byte b (the smallest is >= w_b) decides +1;
//   otherwise        a tie: the 24 low bits are drawn and the test itself evaluated.
// For each phi at most one byte ties (probability 1/256), so exp runs for 1/256 of the
// updates. Where the test is monotone in phi (exp, products and sums rounded monotonically;
// deterministic_exp is accurate to a few ulp), this is the exp test bit for bit; the tests
// compare both on every path. beta = 0 gives B = -inf or +inf (no field dependence).

#include <Kokkos_Core.hpp>
#include <cstdint>
#include <cstring>

#include "hamon/core/families/spin/heat_bath.hpp"

namespace hamon::detail {

/// Boundaries per chain: B[0] .. B[256].
inline constexpr std::int32_t kFieldBoundaries = 257;

/// w_k of the table: the word whose test B[k] is the boundary of.
KOKKOS_FORCEINLINE_FUNCTION std::uint32_t boundary_word(std::int32_t k) {
  return k == 0 ? 0u : static_cast<std::uint32_t>((static_cast<std::uint64_t>(k) << 24) - 1u);
}

/// Doubles as unsigned integers in the same order (bisection over every double): the sign
/// bit flipped for positive numbers, every bit for negative ones.
KOKKOS_FORCEINLINE_FUNCTION std::uint64_t ordered_key(double x) {
  std::uint64_t bits;
  std::memcpy(&bits, &x, sizeof bits);
  constexpr std::uint64_t kSign = 0x8000000000000000ull;
  return (bits & kSign) != 0 ? ~bits : bits | kSign;
}

KOKKOS_FORCEINLINE_FUNCTION double from_ordered_key(std::uint64_t key) {
  constexpr std::uint64_t kSign = 0x8000000000000000ull;
  const std::uint64_t bits = (key & kSign) != 0 ? key & ~kSign : ~key;
  double x;
  std::memcpy(&x, &bits, sizeof x);
  return x;
}

KOKKOS_FORCEINLINE_FUNCTION double signed_infinity(bool negative) {
  const std::uint64_t bits = negative ? 0xFFF0000000000000ull : 0x7FF0000000000000ull;
  double x;
  std::memcpy(&x, &bits, sizeof x);
  return x;
}

/// B for word `word` at `beta`: the smallest finite phi with
/// to_unit_interval(word) * heat_bath_factor(beta, phi) < 1; -inf when the test holds for
/// every finite phi, +inf when for none.
KOKKOS_INLINE_FUNCTION double field_boundary(double beta, std::uint32_t word) {
  constexpr double kMax = 1.7976931348623157e308;
  const double u = to_unit_interval(word);
  auto up = [&](double phi) { return u * heat_bath_factor(beta, phi) < 1.0; };
  if (up(-kMax)) return signed_infinity(true);
  if (!up(kMax)) return signed_infinity(false);
  std::uint64_t low = ordered_key(-kMax);  // the test fails here
  std::uint64_t high = ordered_key(kMax);  // and holds here
  while (high - low > 1) {
    const std::uint64_t mid = low + (high - low) / 2;
    if (up(from_ordered_key(mid))) {
      high = mid;
    } else {
      low = mid;
    }
  }
  return from_ordered_key(high);
}

/// The byte decision from the boundaries of the chain (`row` = its B[0 .. 256]): +1, -1,
/// or 0 for a tie (tie_heat_bath_decision settles it).
KOKKOS_FORCEINLINE_FUNCTION std::int8_t byte_boundary_decision(std::uint32_t byte, double phi,
                                                               const double* row) {
  if (phi >= row[byte + 1]) return 1;
  if (phi < row[byte]) return -1;
  return 0;
}

}  // namespace hamon::detail
