// SPDX-License-Identifier: Apache-2.0
#pragma once
// The math of hamon's kernels, in one place, with the same bits on every execution space
// (host libm and CUDA's exp, tanh, log may differ in the last place).
//
// exp(x) in plain double arithmetic, which also vectorises in host loops. Cody-Waite reduction x =
// k ln2 + r, |r| <= ln2/2, then a degree-13 Taylor polynomial (truncation error < 2e-16 relative)
// and an exact scaling by 2^k. Accurate to a few units in the last place; arguments are clamped to
// [-708, 708].
//
// Bit-identity needs the compiler not to fuse multiply-adds differently on host and
// device: hamon compiles with -ffp-contract=off on the host and --fmad=false for Cuda.

#include <Kokkos_Core.hpp>
#include <cstdint>
#include <cstring>

namespace hamon::detail {

KOKKOS_FORCEINLINE_FUNCTION double deterministic_exp(double x) {
  constexpr double kLog2e = 1.4426950408889634074;
  constexpr double kLn2Hi = 6.93147180369123816490e-01;  // trailing bits zero: k * hi exact
  constexpr double kLn2Lo = 1.90821492927058770002e-10;
  constexpr double kRoundMagic = 6755399441055744.0;  // 1.5 * 2^52: add/sub rounds to integer
  x = x < -708.0 ? -708.0 : (x > 708.0 ? 708.0 : x);
  const double k = (x * kLog2e + kRoundMagic) - kRoundMagic;
  const double r = (x - k * kLn2Hi) - k * kLn2Lo;
  double p = 1.0 / 6227020800.0;  // 1/13!
  p = p * r + 1.0 / 479001600.0;
  p = p * r + 1.0 / 39916800.0;
  p = p * r + 1.0 / 3628800.0;
  p = p * r + 1.0 / 362880.0;
  p = p * r + 1.0 / 40320.0;
  p = p * r + 1.0 / 5040.0;
  p = p * r + 1.0 / 720.0;
  p = p * r + 1.0 / 120.0;
  p = p * r + 1.0 / 24.0;
  p = p * r + 1.0 / 6.0;
  p = p * r + 0.5;
  p = p * r + 1.0;
  p = p * r + 1.0;
  // 2^k from its bit pattern (k in [-1022, 1022] after the clamp).
  const std::int64_t bits = (static_cast<std::int64_t>(k) + 1023) << 52;
  double scale;
  std::memcpy(&scale, &bits, sizeof scale);
  return p * scale;
}

/// tanh(x) = 1 - 2 / (1 + exp(2x)) with deterministic_exp: the same bits everywhere.
KOKKOS_INLINE_FUNCTION double deterministic_tanh(double x) {
  return 1.0 - 2.0 / (1.0 + deterministic_exp(2.0 * x));
}

/// sqrt is correctly rounded (IEEE 754) on the host and on CUDA alike; this only picks the
/// spelling of the Kokkos version at hand.
KOKKOS_INLINE_FUNCTION double device_sqrt(double x) {
#if KOKKOS_VERSION >= 30700
  return Kokkos::sqrt(x);
#else
  return Kokkos::Experimental::sqrt(x);
#endif
}

}  // namespace hamon::detail
