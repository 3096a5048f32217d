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
    s.acceptance[i] =
        attempted[i] > 0 ? static_cast<double>(accepted[i]) / static_cast<double>(attempted[i])
                         : 0.0;
    s.rejection[i] = 1.0 - s.acceptance[i];
    s.Lambda += s.rejection[i];
    s.lambda_beta[i] = 0.5 * (betas[i] + betas[i + 1]);
    s.lambda[i] = s.rejection[i] / std::max(std::abs(betas[i + 1] - betas[i]), 1e-10);
  }
  s.tau_predicted = 1.0 / (2.0 + 2.0 * s.Lambda);
  return s;
}

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
  double grand = 0.0;
  for (double m : means) grand += m;
  grand /= static_cast<double>(means.size());
  double ss = 0.0;
  for (double m : means) ss += (m - grand) * (m - grand);
  const double var_of_batch_mean = ss / static_cast<double>(means.size() - 1);
  out.standard_error = std::sqrt(var_of_batch_mean / static_cast<double>(means.size()));
  return out;
}

}  // namespace hamon
