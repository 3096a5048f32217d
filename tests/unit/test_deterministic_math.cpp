// SPDX-License-Identifier: Apache-2.0
// deterministic_log and standard_normal_quantile (util/deterministic_math.hpp) against the
// host's libm: log within 2 ulp of std::log, the quantile checked by inverting it with
// std::erfc. (Same bits on every execution space follows from the arithmetic used; these
// tests check accuracy.)
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <vector>

#include "hamon/core/families/detail/host_vectors.hpp"
#include "hamon/core/families/real/detail/real_registers.hpp"
#include "hamon/core/util/counter_rng.hpp"
#include "hamon/core/util/deterministic_math.hpp"

namespace {

using hamon::detail::deterministic_exp;
using hamon::detail::deterministic_log;
using hamon::detail::standard_normal_quantile;
using hamon::detail::to_unit_interval;

// Bit patterns mapped onto a line that is monotone in the value (negative doubles folded
// below zero), so the difference of two is the number of doubles between them.
std::int64_t ordered_bits(double x) {
  std::int64_t b;
  std::memcpy(&b, &x, sizeof b);
  return b < 0 ? std::numeric_limits<std::int64_t>::min() - b : b;
}

std::int64_t ulp_distance(double a, double b) {
  const std::int64_t d = ordered_bits(a) - ordered_bits(b);
  return d < 0 ? -d : d;
}

void expect_log_close(double x) {
  // 2 ulp: std::log is within 1 ulp of the exact value (glibc: correctly rounded in
  // practice) and deterministic_log within 1 ulp (measured at most 0.79 ulp against a
  // 40-digit reference), so the two differ by at most 2.
  ASSERT_LE(ulp_distance(deterministic_log(x), std::log(x)), 2) << "x = " << x;
}

TEST(DeterministicMath, LogWithinTwoUlpOfLibm) {
  // Log-uniform over [1e-300, 1e300].
  constexpr int kPoints = 200000;
  for (int i = 0; i <= kPoints; ++i) {
    expect_log_close(std::pow(10.0, -300.0 + 600.0 * i / kPoints));
  }
  // Subnormals (scaled by 2^54 inside) and the edges of the normal range.
  for (const double x : {4.9e-324, 1e-320, 1e-315, 1e-310, 2.2250738585072009e-308,
                         2.2250738585072014e-308, 1.7976931348623157e308}) {
    expect_log_close(x);
  }
  for (std::uint64_t bits = 1; bits < (std::uint64_t{1} << 52); bits += bits / 64 + 1) {
    double x;
    std::memcpy(&x, &bits, sizeof x);
    expect_log_close(x);
  }
  // Near 1, where the result is small and the reduction's exact f = m - 1 matters, and
  // around the sqrt(2) split of the reduction.
  for (int k = 1; k <= 1000; ++k) {
    expect_log_close(1.0 + k * 0x1p-52);
    expect_log_close(1.0 - k * 0x1p-53);
    expect_log_close(1.0 + k * 1e-8);
    expect_log_close(1.0 - k * 1e-8);
    expect_log_close(std::sqrt(2.0) + (k - 500) * 0x1p-52);
    expect_log_close(std::sqrt(0.5) + (k - 500) * 0x1p-53);
  }
  EXPECT_EQ(deterministic_log(1.0), 0.0);
  EXPECT_EQ(deterministic_log(2.0), std::log(2.0));
  EXPECT_EQ(deterministic_log(0.5), -std::log(2.0));
}

TEST(DeterministicMath, LogInvertsExp) {
  // deterministic_exp is a few ulp from exp(x); log of it is within an ulp of x plus
  // log's own ulp, so |log(exp(x)) - x| stays at a few 1e-16 relative (measured 2.2e-16;
  // near x = 0 the absolute error of the exp result, ~1e-16, sets the floor).
  for (int i = -700000; i <= 700000; ++i) {
    const double x = i * 1e-3;
    ASSERT_LE(std::abs(deterministic_log(deterministic_exp(x)) - x),
              4e-16 * std::max(1.0, std::abs(x)))
        << "x = " << x;
  }
}

TEST(DeterministicMath, NormalQuantileIsAntisymmetric) {
  // Exact: 1 - p and the tail min(p, 1 - p) are computed exactly, and both branches use
  // them symmetrically, so q(1 - p) is -q(p) to the bit.
  EXPECT_EQ(standard_normal_quantile(0.5), 0.0);
  for (int k = 1; k < 1024; ++k) {
    const double p = k / 1024.0;
    ASSERT_EQ(standard_normal_quantile(1.0 - p), -standard_normal_quantile(p)) << "p = " << p;
  }
}

// The relative error of q = quantile(p), to first order: one Newton step on
// Phi(q) = p with Phi from std::erfc, taken on the tail side of p (1 - p is exact for
// p > 1/2, so the upper tail is compared as 1 - p against Phi(-q)).
double quantile_relative_error(double p) {
  const double q = standard_normal_quantile(p);
  const bool upper = p > 0.5;
  const double tail = 0.5 * std::erfc((upper ? q : -q) / std::sqrt(2.0));
  const double target = upper ? 1.0 - p : p;
  constexpr double kSqrt2Pi = 2.5066282746310002;
  const double density = std::exp(-0.5 * q * q) / kSqrt2Pi;
  return std::abs(tail - target) / density / std::abs(q);
}

TEST(DeterministicMath, NormalQuantileInvertsErfc) {
  // 1e-14 relative in q (measured 1.1e-15 with this reference; 6.6e-16 against a 50-digit
  // one). Measured in q rather than as |Phi(q) - p| / p: in the tail d log Phi / d log|q| is
  // about q^2 (~1400 at p = 1e-300), so merely rounding q / sqrt(2) in the reference moves
  // Phi(q) by about 1e-13 relative there, while q itself is good to 1e-15.
  constexpr int kPoints = 20000;
  for (int i = 0; i <= kPoints; ++i) {  // log-spaced over [1e-300, 0.5)
    const double p = std::pow(10.0, -300.0 + (300.0 + std::log10(0.5)) * i / kPoints);
    if (p >= 0.5) continue;
    ASSERT_LE(quantile_relative_error(p), 1e-14) << "p = " << p;
  }
  for (int i = 1; i < kPoints; ++i) {  // linear over (0.5, 1)
    const double p = 0.5 + 0.5 * i / kPoints;
    ASSERT_LE(quantile_relative_error(p), 1e-14) << "p = " << p;
  }
  for (int i = 0; i < 100; ++i) {  // 1 - p down to 1e-16, the upper tail's far end
    const double p = 1.0 - std::pow(10.0, -16.0 + 15.0 * i / 100);
    ASSERT_LE(quantile_relative_error(p), 1e-14) << "p = " << p;
  }
}

TEST(DeterministicMath, NormalQuantileOfTheExtremeRandomWords) {
  // to_unit_interval never gives 0 or 1; its extremes 2^-33 and 1 - 2^-33 map to
  // -+6.3380 (Phi(-6.3380) = 1.164e-10), finite and accurate like any other p.
  const double lo = standard_normal_quantile(to_unit_interval(0));
  const double hi = standard_normal_quantile(to_unit_interval(0xFFFFFFFFu));
  EXPECT_TRUE(std::isfinite(lo));
  EXPECT_NEAR(lo, -6.33795775455379, 1e-12);
  EXPECT_EQ(hi, -lo);
  EXPECT_LE(quantile_relative_error(to_unit_interval(0)), 1e-14);
}

#if HAMON_HOST_SIMD
/// On every instruction set the vector path dispatches to here, every lane of
/// vector(xs) has the bits of scalar(x).
template <class Vector, class Scalar>
void expect_lanes_match(const std::vector<double>& xs, Vector vector, Scalar scalar) {
  for (const std::int64_t target : hamon::detail::host_vector_targets()) {
    hamon::detail::restrict_host_vector_target(target);
    std::vector<double> out(xs.size());
    vector(xs.data(), out.data(), xs.size());
    for (std::size_t i = 0; i < xs.size(); ++i) {
      const double expected = scalar(xs[i]);
      ASSERT_EQ(0, std::memcmp(&out[i], &expected, sizeof(double)))
          << hamon::detail::host_vector_target_name(target) << ": x = " << xs[i] << " gives "
          << out[i] << ", not " << expected;
    }
  }
  hamon::detail::restrict_host_vector_target(0);
}
#endif

TEST(DeterministicMath, RegisterLogAndQuantileMatchTheScalarBitForBit) {
#if HAMON_HOST_SIMD
  // log: subnormals (scaled first), zero, the sqrt(2) split of the mantissa, powers of
  // two, log-uniform values over the whole range.
  std::vector<double> xs = {0.0,
                            std::numeric_limits<double>::denorm_min(),
                            1e-310,
                            std::numeric_limits<double>::min(),
                            1.0,
                            2.0,
                            0.5,
                            std::sqrt(2.0),
                            std::nextafter(std::sqrt(2.0), 0.0),
                            std::nextafter(1.0, 0.0),
                            1e300,
                            std::numeric_limits<double>::max()};
  std::uint64_t state = 0x9E3779B97F4A7C15ull;
  for (int k = 0; k < 20000; ++k) {
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    xs.push_back(std::pow(10.0, -320.0 + 628.0 * static_cast<double>(state >> 11) * 0x1p-53));
  }
  expect_lanes_match(xs, hamon::detail::log_registers,
                     [](double x) { return deterministic_log(x); });
  // The quantile: every region (central, near tail, far tail beyond r = 5) and their
  // boundaries, both signs, the extreme words and many random ones.
  std::vector<double> ps = {0.075,
                            0.925,
                            std::nextafter(0.075, 0.0),
                            std::nextafter(0.925, 1.0),
                            0.5,
                            to_unit_interval(0),
                            to_unit_interval(0xFFFFFFFFu),
                            1e-11,
                            1e-12,
                            1e-100,
                            1e-300,
                            1.0 - 1e-12,
                            std::exp(-25.0),
                            std::nextafter(std::exp(-25.0), 0.0)};
  for (std::uint32_t k = 0; k < 40000; ++k) {
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    ps.push_back(to_unit_interval(static_cast<std::uint32_t>(state >> 32)));
  }
  expect_lanes_match(ps, hamon::detail::normal_quantile_registers,
                     [](double p) { return standard_normal_quantile(p); });
#else
  GTEST_SKIP() << "the vector path is not compiled in";
#endif
}

}  // namespace
