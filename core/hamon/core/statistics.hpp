#pragma once
// Statistics of an NRPT run computed from its counters (host side, cheap).

#include <cstdint>
#include <vector>

namespace hamon {

/// Per-pair swap statistics and the quantities of Syed et al. (2022) derived from them.
struct SwapStatistics {
  std::vector<std::int64_t> attempted;  // per pair (i, i+1)
  std::vector<std::int64_t> accepted;
  std::vector<double> acceptance;       // accepted / attempted, 0 when never attempted
  std::vector<double> rejection;        // 1 - acceptance
  double Lambda = 0.0;                  // global communication barrier, sum of rejections
  std::vector<double> lambda_beta;      // pair midpoints (beta_i + beta_{i+1}) / 2
  std::vector<double> lambda;           // local barrier r_i / max(|beta_{i+1} - beta_i|, 1e-10)
  double tau_predicted = 0.0;           // 1 / (2 + 2 Lambda): optimal round trips per round
};

SwapStatistics swap_statistics(const std::vector<double>& betas,
                               const std::vector<std::int64_t>& attempted,
                               const std::vector<std::int64_t>& accepted);

/// Mean and standard error of a series from non-overlapping batch means.
struct MeanWithError {
  double mean = 0.0;
  double standard_error = 0.0;
};

/// Mean and standard error from per-batch sums: batch b holds `sums[b]` over `counts[b]`
/// samples. The error is the standard deviation of the batch means over sqrt(n_batches)
/// (0 with fewer than 2 non-empty batches).
MeanWithError batch_means(const std::vector<double>& sums, const std::vector<std::int64_t>& counts);

}  // namespace hamon
