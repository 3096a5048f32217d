// SPDX-License-Identifier: Apache-2.0
// Disorder averages with jackknife errors (hamon/core/stats/jackknife.hpp) on small tables whose
// answers are worked out by hand.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "hamon/core/stats/jackknife.hpp"

namespace {

using hamon::jackknife_binder;
using hamon::jackknife_mean;

TEST(Jackknife, MeanErrorIsTheStandardErrorOfTheMean) {
  // Mean 2.5; sample variance 5/3; standard error sqrt(5/3 / 4).
  const auto e = jackknife_mean({1.0, 2.0, 3.0, 4.0});
  EXPECT_DOUBLE_EQ(e.value, 2.5);
  EXPECT_NEAR(e.error, std::sqrt(5.0 / 12.0), 1e-15);
}

TEST(Jackknife, OneInstanceHasNoError) {
  const auto e = jackknife_mean({7.0});
  EXPECT_DOUBLE_EQ(e.value, 7.0);
  EXPECT_TRUE(std::isnan(e.error));
}

TEST(Jackknife, BinderIsTheRatioOfAveragesNotTheAverageOfRatios) {
  // Two instances, each with g = 1 (q4 = q2^2): the average of ratios would be 1. The
  // averages [q2] = 3/2, [q4] = 5/2 give g = (3 - 10/9) / 2 = 17/18; both leave-one-out
  // values are 1, so the error is 0.
  const auto e = jackknife_binder({1.0, 2.0}, {1.0, 4.0});
  EXPECT_NEAR(e.value, 17.0 / 18.0, 1e-15);
  EXPECT_NEAR(e.error, 0.0, 1e-15);
}

TEST(Jackknife, BinderErrorFromTheLeaveOneOutValues) {
  // [q2] = 7/3, [q4] = 25/3: g = (3 - (25/3)/(49/9)) / 2 = 36/49. Leaving out instance
  // 0, 1, 2: ([q2], [q4]) = (3, 12), (5/2, 17/2), (3/2, 9/2), so g = 5/6, 41/50, 1/2.
  const auto e = jackknife_binder({1.0, 2.0, 4.0}, {1.0, 8.0, 16.0});
  EXPECT_NEAR(e.value, 36.0 / 49.0, 1e-15);
  const std::vector<double> left_out = {5.0 / 6.0, 41.0 / 50.0, 0.5};
  const double mean = (left_out[0] + left_out[1] + left_out[2]) / 3.0;
  double sum_sq = 0.0;
  for (double g : left_out) sum_sq += (g - mean) * (g - mean);
  EXPECT_NEAR(e.error, std::sqrt(2.0 / 3.0 * sum_sq), 1e-14);
  EXPECT_NEAR(e.error, 0.21791378972677802, 1e-14);
}

TEST(Jackknife, RaggedOrEmptyTablesAreRefused) {
  EXPECT_THROW(jackknife_binder({1.0, 2.0}, {1.0}), std::invalid_argument);
  EXPECT_THROW(jackknife_mean({}), std::invalid_argument);
}

}  // namespace
