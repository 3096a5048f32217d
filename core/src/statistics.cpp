// SPDX-License-Identifier: Apache-2.0
#include "hamon/core/statistics.hpp"

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

double finite_ladder_round_trip_rate(const std::vector<double>& rejection) {
  constexpr double min_acceptance = 1e-12;
  double odds = 0.0;
  for (double r : rejection) odds += r / std::max(1.0 - r, min_acceptance);
  return 1.0 / (2.0 + 2.0 * odds);
}

namespace {

struct Batches {
  std::vector<double> sums;
  std::vector<double> counts;
};

// The standard error of the mean of equal-weight batch means.
double standard_error_of(const Batches& b) {
  const std::size_t n = b.sums.size();
  double grand = 0.0;
  for (std::size_t k = 0; k < n; ++k) grand += b.sums[k] / b.counts[k];
  grand /= static_cast<double>(n);
  double ss = 0.0;
  for (std::size_t k = 0; k < n; ++k) {
    const double d = b.sums[k] / b.counts[k] - grand;
    ss += d * d;
  }
  return std::sqrt(ss / static_cast<double>(n - 1) / static_cast<double>(n));
}

// Lag-1 autocorrelation of the batch means.
double lag_one_correlation(const Batches& b) {
  const std::size_t n = b.sums.size();
  std::vector<double> m(n);
  double mean = 0.0;
  for (std::size_t k = 0; k < n; ++k) mean += m[k] = b.sums[k] / b.counts[k];
  mean /= static_cast<double>(n);
  double c0 = 0.0;
  double c1 = 0.0;
  for (std::size_t k = 0; k < n; ++k) {
    c0 += (m[k] - mean) * (m[k] - mean);
    if (k + 1 < n) c1 += (m[k] - mean) * (m[k + 1] - mean);
  }
  return c0 > 0.0 ? c1 / c0 : 0.0;
}

// Adjacent batches merged in pairs (an odd last one joins the pair before it).
Batches merged_pairs(const Batches& b) {
  Batches out;
  for (std::size_t k = 0; k + 1 < b.sums.size(); k += 2) {
    out.sums.push_back(b.sums[k] + b.sums[k + 1]);
    out.counts.push_back(b.counts[k] + b.counts[k + 1]);
  }
  if (b.sums.size() % 2 == 1) {
    out.sums.back() += b.sums.back();
    out.counts.back() += b.counts.back();
  }
  return out;
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
  // autocorrelation time. When the batch means are still correlated at lag 1 (beyond
  // 2 / sqrt(n_batches), twice the sd of that estimate for independent means), adjacent
  // batches are merged in pairs (Flyvbjerg & Petersen 1989 blocking) while at least 8
  // remain; the error is the largest of the groupings tried, since too short batches
  // only ever underestimate it.
  Batches batches;
  for (std::size_t b = 0; b < sums.size(); ++b) {
    if (counts[b] <= 0) continue;
    batches.sums.push_back(sums[b]);
    batches.counts.push_back(static_cast<double>(counts[b]));
  }
  out.standard_error = standard_error_of(batches);
  constexpr std::size_t kMinBatches = 8;
  while (batches.sums.size() >= 2 * kMinBatches &&
         lag_one_correlation(batches) > 2.0 / std::sqrt(static_cast<double>(batches.sums.size()))) {
    batches = merged_pairs(batches);
    out.standard_error = std::max(out.standard_error, standard_error_of(batches));
  }
  return out;
}

}  // namespace hamon
