// SPDX-License-Identifier: Apache-2.0
#pragma once
// Energy terms in fixed point (energy.hpp): integers add the same in any order.

#include <Kokkos_Core.hpp>
#include <cmath>
#include <cstdint>

namespace hamon::detail {

/// `value` rounded to a multiple of 1 / scale (scale = 2^fraction_bits), as that integer.
KOKKOS_FORCEINLINE_FUNCTION std::int64_t to_fixed_point(double value, double scale) {
  return static_cast<std::int64_t>(std::floor(value * scale + 0.5));
}

}  // namespace hamon::detail

namespace hamon {

/// Fixed-point energy -> energy (energy.hpp).
KOKKOS_INLINE_FUNCTION double fixed_point_energy(std::int64_t fixed, int fraction_bits) {
  return static_cast<double>(fixed) * std::ldexp(1.0, -fraction_bits);
}

}  // namespace hamon
