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
// log(x) reduces x = 2^k m, m in [sqrt(1/2), sqrt(2)), from the bit pattern and sums the odd
// series of log(m) = 2 atanh((m - 1) / (m + 1)); the standard-normal quantile is Wichura's
// AS 241 (PPND16) on top of it. log is within an ulp of the exact value, the quantile within
// about 1e-15 relative (tests/unit/test_deterministic_math.cpp).
//
// Bit-identity needs the compiler not to fuse multiply-adds differently on host and
// device: hamon compiles with -ffp-contract=off on the host and --fmad=false for Cuda.

#include <Kokkos_Core.hpp>
#include <cstdint>
#include <cstring>

namespace hamon::detail {

/// The polynomial c_n x^n + ... + c_1 x + c_0 by Horner's rule, leading coefficient first:
/// horner(x, c_n, ..., c_0). Each step is acc * x + c, in this order and unfused, so every
/// polynomial below keeps its bits on every execution space.
KOKKOS_FORCEINLINE_FUNCTION double horner(double /*x*/, double acc) {
  return acc;
}

template <class... Rest>
KOKKOS_FORCEINLINE_FUNCTION double horner(double x, double acc, double next, Rest... rest) {
  return horner(x, acc * x + next, rest...);
}

KOKKOS_FORCEINLINE_FUNCTION double deterministic_exp(double x) {
  constexpr double kLog2e = 1.4426950408889634074;
  constexpr double kLn2Hi = 6.93147180369123816490e-01;  // trailing bits zero: k * hi exact
  constexpr double kLn2Lo = 1.90821492927058770002e-10;
  constexpr double kRoundMagic = 6755399441055744.0;  // 1.5 * 2^52: add/sub rounds to integer
  x = x < -708.0 ? -708.0 : (x > 708.0 ? 708.0 : x);
  const double k = (x * kLog2e + kRoundMagic) - kRoundMagic;
  const double r = (x - k * kLn2Hi) - k * kLn2Lo;
  // The Taylor series of e^r to r^13 / 13!.
  const double p = horner(r, 1.0 / 6227020800.0, 1.0 / 479001600.0, 1.0 / 39916800.0,
                          1.0 / 3628800.0, 1.0 / 362880.0, 1.0 / 40320.0, 1.0 / 5040.0, 1.0 / 720.0,
                          1.0 / 120.0, 1.0 / 24.0, 1.0 / 6.0, 0.5, 1.0, 1.0);
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

/// log(x) for finite x > 0, subnormals included. Anything else is the caller's error; it then
/// returns a finite number without meaning (log|x| for negative x, -1077 ln2 for zero).
///
/// x = 2^k m with m in [sqrt(1/2), sqrt(2)) and f = m - 1 (exact). With s = f / (2 + f),
/// log(1 + f) = 2 atanh(s) = 2s + 2s^3/3 + 2s^5/5 + ... and |s| < 0.1716, so the series to
/// s^21 leaves a relative truncation error below 1e-18. Since 2s = f - s f, the sum is written
/// as f - (f^2/2 - s (f^2/2 + R)) with R = 2s^2/3 + 2s^4/5 + ...: the leading term f is exact
/// and the rounding of s only enters through the small correction s (f^2/2 + R). k ln2 is added
/// as k ln2_hi (exact) plus k ln2_lo folded into the small terms.
KOKKOS_INLINE_FUNCTION double deterministic_log(double x) {
  constexpr double kLn2Hi = 6.93147180369123816490e-01;  // trailing bits zero: k * hi exact
  constexpr double kLn2Lo = 1.90821492927058770002e-10;
  constexpr double kTwo54 = 18014398509481984.0;                   // 2^54
  constexpr std::uint64_t kMantissa = 0x000FFFFFFFFFFFFFull;       // 52 fraction bits
  constexpr std::uint64_t kSqrt2Mantissa = 0x0006A09E667F3BCDull;  // fraction of sqrt(2)
  constexpr std::uint64_t kExponentOne = 0x3FF0000000000000ull;    // 1.0
  constexpr std::uint64_t kExponentHalf = 0x3FE0000000000000ull;   // 0.5
  std::uint64_t bits;
  std::memcpy(&bits, &x, sizeof bits);
  bits &= ~(std::uint64_t{1} << 63);
  int k = 0;
  if ((bits >> 52) == 0) {  // subnormal (or zero): scale into the normal range exactly
    double scaled;
    std::memcpy(&scaled, &bits, sizeof scaled);
    scaled *= kTwo54;
    std::memcpy(&bits, &scaled, sizeof bits);
    k = -54;
  }
  k += static_cast<int>(bits >> 52) - 1023;
  const std::uint64_t fraction = bits & kMantissa;
  // m in [1, sqrt(2)) keeps exponent 0; m in [sqrt(2), 2) is halved into [sqrt(1/2), 1).
  const bool halve = fraction >= kSqrt2Mantissa;
  const std::uint64_t m_bits = fraction | (halve ? kExponentHalf : kExponentOne);
  k += halve ? 1 : 0;
  double m;
  std::memcpy(&m, &m_bits, sizeof m);
  const double f = m - 1.0;  // exact: m in [0.5, 2]
  const double s = f / (2.0 + f);
  const double z = s * s;
  // R = 2 (z/3 + z^2/5 + ... + z^10/21)
  const double r = horner(z, 2.0 / 21.0, 2.0 / 19.0, 2.0 / 17.0, 2.0 / 15.0, 2.0 / 13.0, 2.0 / 11.0,
                          2.0 / 9.0, 2.0 / 7.0, 2.0 / 5.0, 2.0 / 3.0) *
                   z;
  const double half_f2 = 0.5 * f * f;
  const double dk = static_cast<double>(k);
  return dk * kLn2Hi - ((half_f2 - (s * (half_f2 + r) + dk * kLn2Lo)) - f);
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

/// Whether p - 1/2 = q lies in the central region of standard_normal_quantile.
KOKKOS_INLINE_FUNCTION bool normal_quantile_is_central(double q) {
  return q >= -0.425 && q <= 0.425;
}

/// standard_normal_quantile's central region, from q = p - 1/2 (|q| <= 0.425): branch-free,
/// so a loop over many draws vectorises (with the same bits: the same operations in order).
KOKKOS_INLINE_FUNCTION double normal_quantile_central(double q) {
  const double r = 0.180625 - q * q;
  const double num =
      horner(r, 2.5090809287301226727e+3, 3.3430575583588128105e+4, 6.7265770927008700853e+4,
             4.5921953931549871457e+4, 1.3731693765509461125e+4, 1.9715909503065514427e+3,
             1.3314166789178437745e+2, 3.3871328727963666080e+0);
  const double den =
      horner(r, 5.2264952788528545610e+3, 2.8729085735721942674e+4, 3.9307895800092710610e+4,
             2.1213794301586595867e+4, 5.3941960214247511077e+3, 6.8718700749205790830e+2,
             4.2313330701600911252e+1, 1.0);
  return q * num / den;
}

/// The standard-normal quantile Phi^{-1}(p) for p in (0, 1) (Wichura 1988, algorithm AS 241,
/// PPND16: relative accuracy about 1e-16). p = 0 or 1 or outside (0, 1) is the caller's error.
/// Exactly antisymmetric: q(1 - p) == -q(p) whenever 1 - p is exact.
///
/// Central region |p - 1/2| <= 0.425: a degree-7/7 rational function of 0.180625 - (p - 1/2)^2,
/// times p - 1/2. Tails: with r = sqrt(-log(min(p, 1 - p))), a rational function of r - 1.6 for
/// r <= 5 (min(p, 1 - p) >= about 1.4e-11) and of r - 5 beyond.
KOKKOS_INLINE_FUNCTION double standard_normal_quantile(double p) {
  const double q = p - 0.5;
  if (normal_quantile_is_central(q)) return normal_quantile_central(q);
  // The smaller tail probability: exact, as p >= 0.925 makes 1 - p exact (Sterbenz).
  const double tail = q < 0.0 ? p : 1.0 - p;
  double r = device_sqrt(-deterministic_log(tail));
  double num;
  double den;
  if (r <= 5.0) {
    r -= 1.6;
    num = horner(r, 7.74545014278341407640e-4, 2.27238449892691845833e-2, 2.41780725177450611770e-1,
                 1.27045825245236838258e+0, 3.64784832476320460504e+0, 5.76949722146069140550e+0,
                 4.63033784615654529590e+0, 1.42343711074968357734e+0);
    den = horner(r, 1.05075007164441684324e-9, 5.47593808499534494600e-4, 1.51986665636164571966e-2,
                 1.48103976427480074590e-1, 6.89767334985100004550e-1, 1.67638483018380384940e+0,
                 2.05319162663775882187e+0, 1.0);
  } else {
    r -= 5.0;
    num = horner(r, 2.01033439929228813265e-7, 2.71155556874348757815e-5, 1.24266094738807843860e-3,
                 2.65321895265761230930e-2, 2.96560571828504891230e-1, 1.78482653991729133580e+0,
                 5.46378491116411436990e+0, 6.65790464350110377720e+0);
    den = horner(r, 2.04426310338993978564e-15, 1.42151175831644588870e-7,
                 1.84631831751005468180e-5, 7.86869131145613259100e-4, 1.48753612908506148525e-2,
                 1.36929880922735805310e-1, 5.99832206555887937690e-1, 1.0);
  }
  const double value = num / den;
  return q < 0.0 ? -value : value;
}

}  // namespace hamon::detail
