// SPDX-License-Identifier: Apache-2.0
// The integer form of the heat-bath decision (families/spin/heat_bath.hpp): the threshold T is
// exactly where the floating-point decision u(w) * factor < 1 changes, and with beta >= 0
// the field values that can never turn a spin up form a prefix of each table row (the
// stored 32-bit form of the thresholds relies on it); the register exp gives
// deterministic_exp's bits.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <vector>

#include "hamon/core/families/detail/host_vectors.hpp"
#include "hamon/core/families/real/detail/real_registers.hpp"
#include "hamon/core/families/spin/heat_bath.hpp"

namespace {

using hamon::detail::heat_bath_factor;
using hamon::detail::heat_bath_threshold;
using hamon::detail::to_unit_interval;

bool decides_up(std::uint64_t word, double factor) {
  return to_unit_interval(static_cast<std::uint32_t>(word)) * factor < 1.0;
}

void expect_exact_threshold(double factor) {
  const std::uint64_t t = heat_bath_threshold(factor);
  ASSERT_LE(t, 0x100000000ull);
  if (t > 0) {
    EXPECT_TRUE(decides_up(t - 1, factor)) << "factor " << factor;
    EXPECT_TRUE(decides_up(0, factor)) << "factor " << factor;  // monotone
  }
  if (t < 0x100000000ull) {
    EXPECT_FALSE(decides_up(t, factor)) << "factor " << factor;
    EXPECT_FALSE(decides_up(0xFFFFFFFFull, factor)) << "factor " << factor;
  }
}

TEST(HeatBath, threshold_is_where_the_floating_point_decision_changes) {
  // Factors over the whole range: 1 (always up), 2 (a fair coin), near the ends where
  // T is 0 or 2^32, and random ones.
  for (double f : {1.0, 1.0 + 1e-12, 1.0 + std::ldexp(1.0, -33), 1.0 + std::ldexp(1.0, -32), 1.5,
                   2.0, 3.0, 1e3, std::ldexp(1.0, 32), std::ldexp(1.0, 33) - 1.0,
                   std::ldexp(1.0, 33), std::ldexp(1.0, 33) + 1.0, 1e30}) {
    expect_exact_threshold(f);
  }
  std::mt19937_64 rng(7);
  std::uniform_real_distribution<double> x(-30.0, 30.0);
  for (int k = 0; k < 2000; ++k) expect_exact_threshold(1.0 + std::exp(x(rng)));
  EXPECT_EQ(heat_bath_threshold(1.0), 0x100000000ull);
  EXPECT_EQ(heat_bath_threshold(2.0), 0x80000000ull);
  EXPECT_EQ(heat_bath_threshold(1e30), 0u);
}

TEST(HeatBath, never_up_fields_form_a_prefix_of_each_row) {
  // Rows as the sweep tabulates them: phi = -R .. R with R up to 64, beta from 0 to 50.
  for (int bound : {1, 4, 6, 64}) {
    for (double beta = 0.0; beta <= 50.0; beta = beta * 1.07 + 0.001) {
      bool seen_possible = false;
      for (int k = 0; k <= 2 * bound; ++k) {
        const bool never = heat_bath_threshold(heat_bath_factor(beta, k - bound)) == 0;
        if (!never) seen_possible = true;
        EXPECT_FALSE(never && seen_possible) << "beta " << beta << " phi " << k - bound;
      }
    }
  }
}

}  // namespace

namespace {

TEST(HeatBath, register_exp_matches_deterministic_exp_bit_for_bit) {
#if HAMON_HOST_SIMD
  // The sweep's vector path evaluates exp a vector at a time; it must give exactly
  // deterministic_exp's bits on every instruction set it dispatches to: over the clamp, near 0, at
  // reduction boundaries, random.
  std::vector<double> xs = {0.0,
                            -0.0,
                            1.0,
                            -1.0,
                            708.0,
                            -708.0,
                            709.5,
                            -800.0,
                            1e-300,
                            -1e-300,
                            0.5 * std::log(2.0),
                            -0.5 * std::log(2.0),
                            1e-17,
                            88.7};
  std::mt19937_64 rng(11);
  std::uniform_real_distribution<double> wide(-750.0, 750.0), narrow(-3.0, 3.0);
  for (int k = 0; k < 4000; ++k) xs.push_back(k % 2 == 0 ? wide(rng) : narrow(rng));
  for (const std::int64_t target : hamon::detail::host_vector_targets()) {
    hamon::detail::restrict_host_vector_target(target);
    std::vector<double> out(xs.size());
    hamon::detail::exp_registers(xs.data(), out.data(), xs.size());
    for (std::size_t i = 0; i < xs.size(); ++i) {
      const double expected = hamon::detail::deterministic_exp(xs[i]);
      ASSERT_EQ(0, std::memcmp(&out[i], &expected, sizeof(double)))
          << hamon::detail::host_vector_target_name(target) << ": x = " << xs[i];
    }
  }
  hamon::detail::restrict_host_vector_target(0);
#else
  GTEST_SKIP() << "the vector path is not compiled in";
#endif
}

}  // namespace
