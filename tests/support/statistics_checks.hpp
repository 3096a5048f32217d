// SPDX-License-Identifier: Apache-2.0
#pragma once
// Pieces of the statistical sampler tests: the short NRPT run they share, the check of an
// estimate against an exact value within its error bar, and moments of z-scores
// (estimate - exact) / error pooled over many estimates. Each test says why its numbers fit.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <string>

#include "hamon/core/sampler/nrpt.hpp"

namespace hamon_test {

/// `chains` betas linear from 0 to beta_max, 500 rounds of burn-in, one sweep per round,
/// moments from 32..64 batch means.
inline hamon::NrptOptions statistics_run(double beta_max, std::int64_t rounds, std::uint64_t seed,
                                         std::int32_t chains = 4) {
  hamon::NrptOptions o;
  o.n_chains = chains;
  o.beta_min = 0.0;
  o.beta_max = beta_max;
  o.n_rounds = rounds;
  o.burn_in = 500;
  o.n_expl = 1;
  o.seed = seed;
  o.observers.moments = true;
  o.observers.moment_batches = 32;
  return o;
}

/// The estimate within `sigmas` of its standard error of the exact value (plus `floor`,
/// for estimates whose error is 0, e.g. a clamped node's), and within `absolute` of it.
inline void expect_within_error(double estimate, double stderr_estimate, double exact,
                                const std::string& what, double sigmas = 5.0,
                                double absolute = 0.05, double floor = 1e-12) {
  EXPECT_LE(std::abs(estimate - exact), sigmas * stderr_estimate + floor)
      << what << ": estimate " << estimate << " +- " << stderr_estimate << ", exact " << exact;
  EXPECT_LT(std::abs(estimate - exact), absolute) << what;
}

/// Mean and (n - 1) sample variance of z-scores.
struct ZMoments {
  double sum = 0.0;
  double sum_sq = 0.0;
  std::int64_t n = 0;
  void add(double z) {
    sum += z;
    sum_sq += z * z;
    ++n;
  }
  double mean() const { return sum / static_cast<double>(n); }
  double variance() const {
    return (sum_sq - sum * sum / static_cast<double>(n)) / static_cast<double>(n - 1);
  }
};

}  // namespace hamon_test
