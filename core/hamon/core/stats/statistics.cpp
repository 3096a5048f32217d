// SPDX-License-Identifier: Apache-2.0
#include "hamon/core/stats/statistics.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace hamon {

SwapStatistics swap_statistics(const std::vector<double>& betas,
                               const std::vector<std::int64_t>& attempted,
                               const std::vector<std::int64_t>& accepted) {
  const std::size_t n_pairs = betas.empty() ? 0 : betas.size() - 1;
  if (attempted.size() != n_pairs || accepted.size() != n_pairs) {
    throw std::invalid_argument("swap_statistics: counters must have one entry per pair");
  }
  SwapStatistics s;
  s.attempted = attempted;
  s.accepted = accepted;
  s.acceptance.resize(n_pairs);
  s.rejection.resize(n_pairs);
  s.lambda_beta.resize(n_pairs);
  s.lambda.resize(n_pairs);
  for (std::size_t i = 0; i < n_pairs; ++i) {
    s.acceptance[i] = attempted[i] > 0
                          ? static_cast<double>(accepted[i]) / static_cast<double>(attempted[i])
                          : 0.0;
    s.rejection[i] = 1.0 - s.acceptance[i];
    s.Lambda += s.rejection[i];
    s.lambda_beta[i] = 0.5 * (betas[i] + betas[i + 1]);
    s.lambda[i] = s.rejection[i] / std::max(std::abs(betas[i + 1] - betas[i]), 1e-10);
  }
  s.tau_predicted = finite_ladder_round_trip_rate(s.rejection);
  s.tau_predicted_fine_ladder = 1.0 / (2.0 + 2.0 * s.Lambda);
  return s;
}

double population_std(const std::vector<double>& values) {
  if (values.empty()) return 0.0;
  double mean = 0.0;
  for (double v : values) mean += v;
  mean /= static_cast<double>(values.size());
  double ss = 0.0;
  for (double v : values) ss += (v - mean) * (v - mean);
  return std::sqrt(ss / static_cast<double>(values.size()));
}

double finite_ladder_round_trip_rate(const std::vector<double>& rejection) {
  constexpr double min_acceptance = 1e-12;
  double odds = 0.0;
  for (double r : rejection) odds += r / std::max(1.0 - r, min_acceptance);
  return 1.0 / (2.0 + 2.0 * odds);
}

namespace {

// Below this many batch means their lag-1 correlation is too noisy to correct by.
constexpr std::size_t kMinBatchesForCorrelation = 8;
// A corrected lag-1 correlation above this would multiply the error by more than
// sqrt(19): such batches are far shorter than the autocorrelation time, and the
// error_bars health check says so.
constexpr double kMaxCorrelation = 0.9;

// Lag-1 autocorrelation of a series about its own mean (0 for a constant series).
double lag_one_correlation(const std::vector<double>& m) {
  const std::size_t n = m.size();
  double mean = 0.0;
  for (double v : m) mean += v;
  mean /= static_cast<double>(n);
  double c0 = 0.0;
  double c1 = 0.0;
  for (std::size_t k = 0; k < n; ++k) {
    c0 += (m[k] - mean) * (m[k] - mean);
    if (k + 1 < n) c1 += (m[k] - mean) * (m[k + 1] - mean);
  }
  return c0 > 0.0 ? c1 / c0 : 0.0;
}

// What correlated batch means multiply the variance of their mean by (1 when too few to
// tell).
double batch_correlation_factor(const std::vector<double>& means) {
  const std::size_t n = means.size();
  if (n < kMinBatchesForCorrelation) return 1.0;
  // The estimate of a lag-1 correlation r from n values about their own mean is low by
  // (1 + 4 r) / n to first order (Kendall 1954), which is as large as r itself for the
  // 32..64 batches the sampler keeps; undone before it is used.
  const double estimate = lag_one_correlation(means);
  const double r =
      std::clamp(estimate + (1.0 + 4.0 * estimate) / static_cast<double>(n), 0.0, kMaxCorrelation);
  return (1.0 + r) / (1.0 - r);
}

}  // namespace

MeanWithError batch_means(const std::vector<double>& sums,
                          const std::vector<std::int64_t>& counts) {
  if (sums.size() != counts.size()) {
    throw std::invalid_argument("batch_means: sums and counts differ in length");
  }
  double total = 0.0;
  std::int64_t n = 0;
  std::vector<double> means;
  for (std::size_t b = 0; b < sums.size(); ++b) {
    if (counts[b] <= 0) continue;
    total += sums[b];
    n += counts[b];
    means.push_back(sums[b] / static_cast<double>(counts[b]));
  }
  MeanWithError out;
  if (n == 0) return out;
  out.mean = total / static_cast<double>(n);
  if (means.size() < 2) return out;
  // Batch means are independent only when a batch is much longer than the integrated
  // autocorrelation time, and the sampler's often are not (a run of a few hundred
  // autocorrelation times in 32..64 batches). The variance of their mean is corrected as
  // for an AR(1) series of batch means, by (1 + r) / (1 - r): the batch means of an AR(1)
  // series correlate at lag k by at most r^k, so this errs on the large side. Blocking
  // (merging batches while their lag-1 correlation looks significant) is not used: with
  // so few batches it stops while r is still ~0.3, leaving errors ~0.8 of the true ones.
  const auto n_batches = static_cast<double>(means.size());
  double grand = 0.0;
  for (double m : means) grand += m;
  grand /= n_batches;
  double ss = 0.0;
  for (double m : means) ss += (m - grand) * (m - grand);
  out.standard_error =
      std::sqrt(ss / (n_batches - 1.0) / n_batches * batch_correlation_factor(means));
  return out;
}

}  // namespace hamon
