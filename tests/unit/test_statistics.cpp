// SPDX-License-Identifier: Apache-2.0
// Swap statistics and batch means.
#include <gtest/gtest.h>

#include <cmath>

#include "hamon/core/statistics.hpp"

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

}  // namespace
