// SPDX-License-Identifier: Apache-2.0
// The counter-based generator: Random123's known answers, identical numbers on the host
// and in TEST_EXECSPACE, and uniforms that are uniform.
#include <Random123/philox.h>
#include <gtest/gtest.h>

#include <Kokkos_Core.hpp>
#include <cmath>

#include "hamon/core/util/counter_rng.hpp"
#include "hamon/core/util/deterministic_math.hpp"

namespace {

using hamon::detail::philox4;

TEST(TEST_CATEGORY, philox_known_answers) {
  // Known-answer vectors published with Random123 (kat_vectors, philox4x32 10 rounds).
  const auto zero = philox4(0, 0u, 0u, 0u, 0u);
  EXPECT_EQ(zero.w[0], 0x6627e8d5u);
  EXPECT_EQ(zero.w[1], 0xe169c58du);
  EXPECT_EQ(zero.w[2], 0xbc57ac4cu);
  EXPECT_EQ(zero.w[3], 0x9b00dbd8u);
  const auto ones =
      philox4(0xffffffffffffffffull, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu);
  EXPECT_EQ(ones.w[0], 0x408f276du);
  EXPECT_EQ(ones.w[1], 0x41c83b0eu);
  EXPECT_EQ(ones.w[2], 0xa20bc7c6u);
  EXPECT_EQ(ones.w[3], 0x6d5451fdu);
}

using WordView = Kokkos::View<std::uint32_t**, Kokkos::LayoutRight, TEST_EXECSPACE::memory_space>;

// Device lambdas may not live in a gtest TestBody (a private member): a free function.
void fill_words_in_space(const WordView& words) {
  Kokkos::parallel_for(
      "test::philox", Kokkos::RangePolicy<TEST_EXECSPACE>(0, static_cast<int>(words.extent(0))),
      KOKKOS_LAMBDA(const int k) {
        const auto d = philox4(0x1234567890abcdefull, static_cast<std::uint32_t>(k), 7u, 3u, 11u);
        for (int w = 0; w < 4; ++w) words(k, w) = d.w[w];
      });
}

TEST(TEST_CATEGORY, philox_matches_random123_bit_for_bit) {
  // hamon spells the Philox4x32-10 rounds out (scalar and side-by-side lanes); both must
  // be Random123's generator exactly.
  r123::Philox4x32 reference;
  std::uint32_t a[16], b[16], lanes_out[64];
  for (int trial = 0; trial < 64; ++trial) {
    const std::uint64_t seed = 0x9e3779b97f4a7c15ull * static_cast<std::uint64_t>(trial + 1);
    for (int g = 0; g < 16; ++g) {
      a[g] = static_cast<std::uint32_t>(trial * 7919 + g * 104729);
      b[g] = static_cast<std::uint32_t>(g * 31 + trial);
    }
    const std::uint32_t c = static_cast<std::uint32_t>(trial * 3), d = 0xdeadbeefu ^ trial;
    hamon::detail::philox4_lanes<16>(seed, a, b, c, d, lanes_out);
    for (int g = 0; g < 16; ++g) {
      const r123::Philox4x32::ctr_type ctr = {{a[g], b[g], c, d}};
      const r123::Philox4x32::key_type key = {
          {static_cast<std::uint32_t>(seed), static_cast<std::uint32_t>(seed >> 32)}};
      const auto expected = reference(ctr, key);
      const auto scalar = philox4(seed, a[g], b[g], c, d);
      for (int w = 0; w < 4; ++w) {
        ASSERT_EQ(scalar.w[w], expected[w]) << "trial " << trial << " lane " << g;
        ASSERT_EQ(lanes_out[4 * g + w], expected[w]) << "trial " << trial << " lane " << g;
      }
    }
  }
}

TEST(TEST_CATEGORY, deterministic_exp_is_accurate) {
  // Within 4 ulp of libm's exp over the range the sampler uses; clamped beyond +-708.
  for (int k = -70800; k <= 70800; k += 7) {
    const double x = k * 0.01 + 0.003;
    const double ours = hamon::detail::deterministic_exp(x);
    const double libm = std::exp(x);
    ASSERT_LE(std::abs(ours - libm), 4 * (std::nextafter(libm, INFINITY) - libm)) << "x = " << x;
  }
  EXPECT_EQ(hamon::detail::deterministic_exp(0.0), 1.0);
  EXPECT_EQ(hamon::detail::deterministic_exp(-1e9), hamon::detail::deterministic_exp(-708.0));
  EXPECT_GT(hamon::detail::deterministic_exp(1e9), 1e307);
}

TEST(TEST_CATEGORY, philox_same_words_in_every_space) {
  const int n = 4096;
  WordView words("words", n, 4);
  fill_words_in_space(words);
  auto host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), words);
  for (int k = 0; k < n; ++k) {
    const auto d = philox4(0x1234567890abcdefull, static_cast<std::uint32_t>(k), 7u, 3u, 11u);
    for (int w = 0; w < 4; ++w) ASSERT_EQ(host(k, w), d.w[w]) << "counter " << k << " word " << w;
  }
}

TEST(TEST_CATEGORY, philox_uniforms_have_uniform_moments) {
  // 4 * 2^16 uniforms: the mean has sigma = sqrt(1/12 / n) ~ 5.6e-4 and the second
  // moment sigma = sqrt(4/45 / n) ~ 5.8e-4; 5 sigma bounds.
  const int n_draws = 1 << 16;
  double sum = 0.0, sum_sq = 0.0;
  double lo = 1.0, hi = 0.0;
  for (int k = 0; k < n_draws; ++k) {
    const auto d = philox4(42, static_cast<std::uint32_t>(k), 0u, 0u, 0u);
    for (int w = 0; w < 4; ++w) {
      const double u = hamon::detail::to_unit_interval(d.w[w]);
      sum += u;
      sum_sq += u * u;
      lo = std::min(lo, u);
      hi = std::max(hi, u);
    }
  }
  const double n = 4.0 * n_draws;
  EXPECT_NEAR(sum / n, 0.5, 5 * std::sqrt(1.0 / 12.0 / n));
  EXPECT_NEAR(sum_sq / n, 1.0 / 3.0, 5 * std::sqrt(4.0 / 45.0 / n));
  EXPECT_GT(lo, 0.0);
  EXPECT_LT(hi, 1.0);
}

}  // namespace
