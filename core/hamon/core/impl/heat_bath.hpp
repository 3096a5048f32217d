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

#include <Kokkos_Core.hpp>
#include <cstdint>

#include "hamon/core/impl/counter_rng.hpp"
#include "hamon/core/impl/exp.hpp"

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

}  // namespace hamon::detail
