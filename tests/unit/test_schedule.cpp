// SPDX-License-Identifier: Apache-2.0
// Ladders and the PCHIP schedule update.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <numeric>

#include "hamon/core/tempering/schedule.hpp"

namespace {

TEST(Schedule, linear_and_geometric_ladders_hit_their_ends) {
  const auto lin = hamon::linear_ladder(0.0, 1.0, 5);
  EXPECT_EQ(lin, (std::vector<double>{0.0, 0.25, 0.5, 0.75, 1.0}));
  const auto geo = hamon::geometric_ladder(0.01, 1.0, 3);
  EXPECT_EQ(geo.front(), 0.01);
  EXPECT_EQ(geo.back(), 1.0);
  EXPECT_NEAR(geo[1], 0.1, 1e-15);
  EXPECT_EQ(hamon::linear_ladder(0.0, 0.7, 1), std::vector<double>{0.7});
  EXPECT_THROW(hamon::geometric_ladder(0.0, 1.0, 4), std::invalid_argument);
  EXPECT_THROW(hamon::linear_ladder(0.0, 1.0, 0), std::invalid_argument);
}

TEST(Schedule, validate_ladder_names_the_entry) {
  EXPECT_NO_THROW(hamon::validate_ladder({0.0, 0.1, 0.2}));
  try {
    hamon::validate_ladder({0.0, 0.3, 0.3});
    FAIL();
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("beta[2]"), std::string::npos) << e.what();
  }
  EXPECT_THROW(hamon::validate_ladder({}), std::invalid_argument);
  EXPECT_THROW(hamon::validate_ladder({-1.0, 0.0}), std::invalid_argument);
  EXPECT_THROW(hamon::validate_ladder({0.0, INFINITY}), std::invalid_argument);
}

TEST(Schedule, pchip_reproduces_knots_and_is_monotone) {
  const std::vector<double> x = {0.0, 0.1, 0.5, 0.6, 2.0};
  const std::vector<double> y = {0.0, 1.0, 1.1, 3.0, 3.2};
  EXPECT_EQ(hamon::pchip_interpolate(x, y, x), y);
  std::vector<double> at;
  for (int k = 0; k <= 2000; ++k) at.push_back(2.0 * k / 2000.0);
  const auto v = hamon::pchip_interpolate(x, y, at);
  EXPECT_TRUE(std::is_sorted(v.begin(), v.end()));  // no overshoot on monotone data
  EXPECT_GE(*std::min_element(v.begin(), v.end()), 0.0);
  EXPECT_LE(*std::max_element(v.begin(), v.end()), 3.2);
  // Linear data is reproduced exactly by the Hermite cubic with its own slopes.
  const auto line = hamon::pchip_interpolate({0, 1, 2, 3}, {0, 2, 4, 6}, {0.5, 2.25});
  EXPECT_NEAR(line[0], 1.0, 1e-14);
  EXPECT_NEAR(line[1], 4.5, 1e-14);
}

TEST(Schedule, optimize_keeps_equalised_ladders_and_pins_endpoints) {
  const auto betas = hamon::linear_ladder(0.1, 0.9, 6);
  const auto same = hamon::optimize_schedule(std::vector<double>(5, 0.3), betas);
  for (std::size_t k = 0; k < betas.size(); ++k) EXPECT_NEAR(same[k], betas[k], 1e-12);
  EXPECT_EQ(same.front(), 0.1);
  EXPECT_EQ(same.back(), 0.9);
}

TEST(Schedule, optimize_equalises_a_known_rejection_profile) {
  // Local barrier lambda(beta) = 2 beta on [0, 1]: Lambda(beta) = beta^2, so the optimal
  // ladder is beta_k = sqrt(k / (N-1)). Feed the rejections a linear ladder would see
  // (the integral of lambda over each gap) and iterate the update: it converges to sqrt.
  const int n = 9;
  auto betas = hamon::linear_ladder(0.0, 1.0, n);
  for (int iteration = 0; iteration < 6; ++iteration) {
    std::vector<double> r(n - 1);
    for (int k = 0; k + 1 < n; ++k) r[k] = betas[k + 1] * betas[k + 1] - betas[k] * betas[k];
    betas = hamon::optimize_schedule(r, betas);
    EXPECT_TRUE(std::is_sorted(betas.begin(), betas.end()));
    EXPECT_EQ(betas.front(), 0.0);
    EXPECT_EQ(betas.back(), 1.0);
  }
  std::vector<double> r(n - 1);
  for (int k = 0; k + 1 < n; ++k) r[k] = betas[k + 1] * betas[k + 1] - betas[k] * betas[k];
  const double mean = std::accumulate(r.begin(), r.end(), 0.0) / (n - 1);
  for (int k = 0; k + 1 < n; ++k) EXPECT_NEAR(r[k], mean, 0.01 * mean) << "pair " << k;
  for (int k = 0; k < n; ++k) EXPECT_NEAR(betas[k], std::sqrt(k / double(n - 1)), 0.01);
}

TEST(Schedule, optimize_rejects_bad_inputs) {
  EXPECT_THROW(hamon::optimize_schedule({0.1}, {0.0, 0.5, 1.0}), std::invalid_argument);
  EXPECT_THROW(hamon::optimize_schedule({0.1, 1.5}, {0.0, 0.5, 1.0}), std::invalid_argument);
  EXPECT_THROW(hamon::optimize_schedule({0.1, 0.2}, {0.0, 0.5, 0.5}), std::invalid_argument);
  // Zero rejection everywhere is flat but allowed: the ladder stays strictly ascending.
  const auto zero = hamon::optimize_schedule({0.0, 0.0, 0.0}, {0.0, 0.1, 0.2, 0.3});
  EXPECT_TRUE(std::adjacent_find(zero.begin(), zero.end(), std::greater_equal<>()) == zero.end());
}

}  // namespace
