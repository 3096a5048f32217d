// SPDX-License-Identifier: Apache-2.0
#pragma once
// Effective sample size of one correlated series (host side).
//
// Autocorrelations come from a zero-padded radix-2 FFT (O(n log n) for every lag, so a
// slowly mixing series costs no more than a fast one) and are summed with Geyer's (1992)
// initial monotone sequence estimator: Gamma_k = rho(2k) + rho(2k+1) is summed while it
// stays positive, each Gamma_k capped by its predecessor; tau = -1 + 2 sum_k Gamma_k and
// ESS = n / tau. As in Stan, tau is kept >= 1 / log10(n) so that an antithetic series
// cannot claim an unbounded ESS.

#include <cstddef>
#include <vector>

namespace hamon {

/// Normalised autocorrelation at lags 0..max_lag (biased autocovariance over n, the
/// standard choice that keeps the sequence positive definite). Empty input -> empty; a
/// constant series -> rho(0) = 1, 0 elsewhere.
std::vector<double> autocorrelation(const std::vector<double>& series, std::size_t max_lag);

struct EffectiveSampleSize {
  double ess = 0.0;           // n / tau
  double tau = 0.0;           // integrated autocorrelation time (1 for independent draws)
  std::size_t lags_used = 0;  // autocorrelations summed (the Geyer window)
  bool defined = false;       // false for n < 4 or a constant series (ess = tau = 0 then)
};

/// ESS of `series` by Geyer's initial monotone sequence (see the top of this file).
EffectiveSampleSize effective_sample_size(const std::vector<double>& series);

}  // namespace hamon
