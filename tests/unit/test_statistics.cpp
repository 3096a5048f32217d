// SPDX-License-Identifier: Apache-2.0
// Swap statistics and batch means.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <random>
#include <vector>

#include "hamon/core/stats/statistics.hpp"

namespace {

TEST(Statistics, swap_statistics_follow_their_definitions) {
  const auto s = hamon::swap_statistics({0.0, 0.5, 0.75, 1.0}, {100, 50, 0}, {80, 10, 0});
  EXPECT_EQ(s.acceptance, (std::vector<double>{0.8, 0.2, 0.0}));
  EXPECT_NEAR(s.rejection[0], 0.2, 1e-15);
  EXPECT_NEAR(s.Lambda, 0.2 + 0.8 + 1.0, 1e-15);
  EXPECT_NEAR(s.tau_predicted_fine_ladder, 1.0 / (2.0 + 2.0 * 2.0), 1e-15);
  // The finite ladder: odds 0.2/0.8 + 0.8/0.2 + 1/1e-12 (the pair that never accepted
  // counts with acceptance 1e-12): positive but negligible, so efficiency reads 0.
  EXPECT_NEAR(s.tau_predicted, 1.0 / (2.0 + 2.0 * (0.25 + 4.0 + 1e12)), 1e-27);
  EXPECT_GT(s.tau_predicted, 0.0);
  const auto open = hamon::swap_statistics({0.0, 0.5, 1.0}, {100, 100}, {50, 75});
  EXPECT_NEAR(open.tau_predicted, 1.0 / (2.0 + 2.0 * (1.0 + 1.0 / 3.0)), 1e-15);
  EXPECT_NEAR(open.tau_predicted_fine_ladder, 1.0 / (2.0 + 2.0 * 0.75), 1e-15);
  EXPECT_LT(open.tau_predicted, open.tau_predicted_fine_ladder);
  EXPECT_EQ(s.lambda_beta, (std::vector<double>{0.25, 0.625, 0.875}));
  EXPECT_NEAR(s.lambda[0], 0.2 / 0.5, 1e-15);
  EXPECT_NEAR(s.lambda[1], 0.8 / 0.25, 1e-15);
  EXPECT_THROW(hamon::swap_statistics({0.0, 1.0}, {1, 2}, {1}), std::invalid_argument);
}

TEST(Statistics, batch_means_of_known_batches) {
  // Batch means 1, 2, 3, 4 (each of 10 samples): mean 2.5, sd of batch means
  // sqrt(5/3), standard error sqrt(5/3)/2.
  const auto m = hamon::batch_means({10, 20, 30, 40}, {10, 10, 10, 10});
  EXPECT_DOUBLE_EQ(m.mean, 2.5);
  EXPECT_NEAR(m.standard_error, std::sqrt(5.0 / 3.0) / 2.0, 1e-15);
  const auto single = hamon::batch_means({5}, {2});
  EXPECT_DOUBLE_EQ(single.mean, 2.5);
  EXPECT_EQ(single.standard_error, 0.0);
  EXPECT_EQ(hamon::batch_means({}, {}).mean, 0.0);
}

// The variance of (mean - exact) / error of batch_means over `replicates` stationary AR(1)
// series x_t = rho x_(t-1) + sqrt(1 - rho^2) e_t (mean 0, variance 1), each cut into
// `batches` batches of `length` steps. Its integrated autocorrelation time, what the
// variance of a long mean is inflated by, is tau = (1 + rho) / (1 - rho).
double ar1_z_variance(double rho, std::int64_t length, std::size_t batches, int replicates,
                      std::uint64_t seed) {
  std::mt19937_64 engine(seed);
  std::normal_distribution<double> normal;
  const double innovation = std::sqrt(1.0 - rho * rho);
  double sum_z2 = 0.0;
  std::vector<double> sums(batches);
  const std::vector<std::int64_t> counts(batches, length);
  for (int k = 0; k < replicates; ++k) {
    double x = normal(engine);  // a stationary start
    for (auto& s : sums) {
      s = 0.0;
      for (std::int64_t t = 0; t < length; ++t) {
        x = rho * x + innovation * normal(engine);
        s += x;
      }
    }
    const auto m = hamon::batch_means(sums, counts);
    sum_z2 += m.mean * m.mean / (m.standard_error * m.standard_error);
  }
  return sum_z2 / replicates;
}

TEST(Statistics, batch_means_errors_hold_for_correlated_batches) {
  // Honest errors give z-scores of variance 1 (with errors from n batch means, a t with
  // about n - 1 degrees of freedom: 1.03..1.07). Over 2000 replicates the z-variance
  // itself has sd about 0.035, so [0.8, 1.25] is 5 sd from 1 on either side, and an error
  // off by 10% (variance 0.83 or 1.23) is near its edge. The cases span batches from half
  // to 50 autocorrelation times and the 32..63 batches the sampler keeps with K = 32. In
  // the first, blocking (merging batches while their lag-1 correlation exceeds
  // 2 / sqrt(n)) stops too early: z-variance 1.57 (errors 0.8 of the true ones).
  struct Case {
    double rho;
    std::int64_t length;
    std::size_t batches;
  };
  const Case cases[] = {
      {0.995, 519, 48},                 // tau 399: batches 1.3 tau
      {0.99, 100, 63},                  // tau 199: 0.5 tau
      {0.9, 10, 32},                    // tau 19: 0.5 tau
      {0.9, 10, 63},    {0.5, 15, 63},  // tau 3: 5 tau
      {0.5, 150, 32},                   // 50 tau
      {0.0, 1, 40},  // independent: the correction must not inflate the error much
  };
  std::uint64_t seed = 2024;
  for (const Case& c : cases) {
    const double tau = (1.0 + c.rho) / (1.0 - c.rho);
    const double v = ar1_z_variance(c.rho, c.length, c.batches, 2000, seed++);
    std::printf("rho %.3f, batches of %.2f tau, %zu batches: z-variance %.3f\n", c.rho,
                static_cast<double>(c.length) / tau, c.batches, v);
    EXPECT_GE(v, 0.8) << "rho " << c.rho << " length " << c.length << " batches " << c.batches;
    EXPECT_LE(v, 1.25) << "rho " << c.rho << " length " << c.length << " batches " << c.batches;
  }
}

TEST(Statistics, batch_means_correct_only_with_enough_batches) {
  // Below 8 batches their lag-1 correlation says too little: the plain batch-means error,
  // even for a trend 1..7 (lag-1 correlation 0.57): sd sqrt(28 / 6) over sqrt(7).
  const auto few = hamon::batch_means({1, 2, 3, 4, 5, 6, 7}, std::vector<std::int64_t>(7, 1));
  EXPECT_NEAR(few.standard_error, std::sqrt(28.0 / 6.0 / 7.0), 1e-15);
  // Eight alternating means: r = -0.875, corrected -0.875 + (1 - 3.5) / 8 < 0, clamped to
  // 0: the plain error again (a negative correlation is not trusted to shrink it).
  const auto alternating =
      hamon::batch_means({0, 1, 0, 1, 0, 1, 0, 1}, std::vector<std::int64_t>(8, 1));
  EXPECT_NEAR(alternating.standard_error, std::sqrt(2.0 / 7.0 / 8.0), 1e-15);
  // A trend 1..8: r = 0.625, corrected 0.625 + (1 + 2.5) / 8 = 1.0625, clamped to 0.9:
  // the variance times 1.9 / 0.1 = 19.
  const auto trend = hamon::batch_means({1, 2, 3, 4, 5, 6, 7, 8}, std::vector<std::int64_t>(8, 1));
  EXPECT_NEAR(trend.standard_error, std::sqrt(6.0 / 8.0 * 19.0), 1e-12);
}

}  // namespace
