// SPDX-License-Identifier: Apache-2.0
#pragma once
// Temperature ladders: construction and the NRPT schedule update.

#include <vector>

namespace hamon {

/// n ascending inverse temperatures from beta_min to beta_max (n >= 1; n == 1 gives
/// {beta_max}). Geometric spacing needs beta_min > 0.
std::vector<double> linear_ladder(double beta_min, double beta_max, int n);
std::vector<double> geometric_ladder(double beta_min, double beta_max, int n);

/// Throws std::invalid_argument unless the ladder is non-empty, finite, non-negative
/// and strictly ascending; the message names the first offending entry.
void validate_ladder(const std::vector<double>& betas);

/// The NRPT schedule update (Syed et al. 2022): cum = [0, cumsum(r)], targets spaced
/// evenly on [0, cum.back()], new beta = inverse of beta -> cum at the targets, with
/// monotone cubic (PCHIP, Fritsch-Carlson) interpolation when there are >= 3 betas and
/// linear otherwise. Endpoints are kept exactly; the result is strictly ascending.
/// rejection_rates has betas.size() - 1 entries in [0, 1].
std::vector<double> optimize_schedule(const std::vector<double>& rejection_rates,
                                      const std::vector<double>& betas);

/// Monotone piecewise-cubic Hermite interpolation (Fritsch-Carlson) of (x, y) at `at`;
/// x strictly ascending, y monotone. Exposed for tests.
std::vector<double> pchip_interpolate(const std::vector<double>& x, const std::vector<double>& y,
                                      const std::vector<double>& at);

}  // namespace hamon
