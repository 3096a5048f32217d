// SPDX-License-Identifier: Apache-2.0
#pragma once
// Statistics of an NRPT run computed from its counters (host side, cheap).

#include <cstdint>
#include <vector>

namespace hamon {

/// Per-pair swap statistics and the quantities of Syed et al. (2022) derived from them.
struct SwapStatistics {
  std::vector<std::int64_t> attempted;  // per pair (i, i+1)
  std::vector<std::int64_t> accepted;
  std::vector<double> acceptance;   // accepted / attempted, 0 when never attempted
  std::vector<double> rejection;    // 1 - acceptance
  double Lambda = 0.0;              // global communication barrier, sum of rejections
  std::vector<double> lambda_beta;  // pair midpoints (beta_i + beta_{i+1}) / 2
  std::vector<double> lambda;       // local barrier r_i / max(|beta_{i+1} - beta_i|, 1e-10)
  /// Round trips per round of an ideal sampler on this finite ladder (Syed et al. 2022):
  /// 1 / (2 + 2 sum_i r_i / (1 - r_i)). What efficiency and the health checks divide by.
  /// A pair that never accepted counts with acceptance 1e-12 (not 0), so that this stays
  /// positive and a stuck ladder reads efficiency 0 rather than 0 / 0.
  double tau_predicted = 0.0;
  /// Its fine-ladder limit 1 / (2 + 2 Lambda) (what the Python hamon calls tau_predicted
  /// and divides by): reached as every r_i -> 0, above tau_predicted on any real ladder.
  double tau_predicted_fine_ladder = 0.0;
};

/// 1 / (2 + 2 sum_i r_i / (1 - r_i)) for these rejection rates (see tau_predicted).
double finite_ladder_round_trip_rate(const std::vector<double>& rejection);

/// sqrt(mean((v - mean(v))^2)); 0 for no values. How even a ladder's rejection rates are.
double population_std(const std::vector<double>& values);

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
/// (0 with fewer than 2 non-empty batches), corrected for correlated batch means (batches
/// not much longer than the autocorrelation time): with at least 8 batches, the variance
/// is multiplied by (1 + r) / (1 - r), r the lag-1 correlation of the batch means with
/// its small-sample bias (1 + 4 r) / n_batches added back, clamped to [0, 0.9]. On AR(1)
/// series with batches from 0.5 to 50 autocorrelation times and 32..64 batches the
/// z-scores (mean - exact) / error have variance 0.85..1.2 (docs/statistics.md).
MeanWithError batch_means(const std::vector<double>& sums, const std::vector<std::int64_t>& counts);

}  // namespace hamon
