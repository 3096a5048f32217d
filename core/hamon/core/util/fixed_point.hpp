// SPDX-License-Identifier: Apache-2.0
#pragma once
// Energy terms in fixed point (energy.hpp): integers add the same in any order.

#include <Kokkos_Core.hpp>
#include <climits>
#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <vector>

namespace hamon::detail {

/// `value` rounded to a multiple of 1 / scale (scale = 2^fraction_bits), as that integer.
KOKKOS_FORCEINLINE_FUNCTION std::int64_t to_fixed_point(double value, double scale) {
  return static_cast<std::int64_t>(std::floor(value * scale + 0.5));
}

/// A fixed-point value or sum that left its range: a value too large to convert, or a sum
/// that would have overflowed int64. Every later sum keeps it (add_fixed), and the host
/// refuses to report a number made from it (fixed_sums_overflowed), so a number past the
/// range is an error, never a silently clamped or wrapped one. No in-range sum reaches it:
/// the sums it marks stay within (-2^63, 2^63).
inline constexpr std::int64_t kFixedOutOfRange = INT64_MIN;

/// a + b, or kFixedOutOfRange when either is, or when the sum leaves int64. Equal to a + b
/// wherever that does not overflow, so the bits of every in-range sum are unchanged.
KOKKOS_FORCEINLINE_FUNCTION std::int64_t add_fixed(std::int64_t a, std::int64_t b) {
  if (a == kFixedOutOfRange || b == kFixedOutOfRange) return kFixedOutOfRange;
  // Added as unsigned words (defined on overflow); the signs tell whether it overflowed.
  const std::uint64_t word = static_cast<std::uint64_t>(a) + static_cast<std::uint64_t>(b);
  const std::int64_t sum =
      word > static_cast<std::uint64_t>(INT64_MAX)
          ? -static_cast<std::int64_t>(~word) - 1  // two's complement, without a narrowing cast
          : static_cast<std::int64_t>(word);
  return ((a ^ sum) & (b ^ sum)) < 0 ? kFixedOutOfRange : sum;
}

/// Throws std::runtime_error when a machine's energy (or its best, which keeps the lowest
/// and so keeps a mark) left the fixed-point range (a continuous model's beyond 2^38): such
/// a run's swaps and log Z are not numbers to report.
inline void require_energies_in_range(const std::vector<std::int64_t>& energies,
                                      const std::vector<std::int64_t>& best) {
  for (const auto* list : {&energies, &best}) {
    for (const std::int64_t e : *list) {
      if (e == kFixedOutOfRange) {
        throw std::runtime_error(
            "a machine's energy left the fixed-point range (|E| up to 2^38 = 2.7e11): the "
            "model diverges at these temperatures (a Gaussian's precision matrix not positive "
            "definite?) or its numbers are too large; the swaps and log Z of this run would be "
            "wrong");
      }
    }
  }
}

}  // namespace hamon::detail

namespace hamon {

/// Whether any of `sums` (one process's, before they are added over ranks) left the
/// fixed-point range.
inline bool fixed_sums_overflowed(const std::vector<std::int64_t>& sums) {
  for (const std::int64_t s : sums) {
    if (s == detail::kFixedOutOfRange) return true;
  }
  return false;
}

/// Fixed-point energy -> energy (energy.hpp).
KOKKOS_INLINE_FUNCTION double fixed_point_energy(std::int64_t fixed, int fraction_bits) {
  return static_cast<double>(fixed) * std::ldexp(1.0, -fraction_bits);
}

}  // namespace hamon
