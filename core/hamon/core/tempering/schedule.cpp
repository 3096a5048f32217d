// SPDX-License-Identifier: Apache-2.0
#include "hamon/core/tempering/schedule.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>
#include <stdexcept>

namespace hamon {

namespace {

void require_ladder_size(int n) {
  if (n < 1) {
    throw std::invalid_argument("a ladder needs at least one inverse temperature, got " +
                                std::to_string(n));
  }
}

// Fritsch-Carlson derivative at an interior knot: zero at a local extremum, else the
// weighted harmonic mean of the neighbouring slopes (keeps the interpolant monotone).
double interior_slope(double h_prev, double h_next, double d_prev, double d_next) {
  if (d_prev * d_next <= 0.0) return 0.0;
  const double w1 = 2.0 * h_next + h_prev;
  const double w2 = h_next + 2.0 * h_prev;
  return (w1 + w2) / (w1 / d_prev + w2 / d_next);
}

// One-sided three-point derivative at an end knot, limited so it keeps monotonicity.
double end_slope(double h0, double h1, double d0, double d1) {
  double slope = ((2.0 * h0 + h1) * d0 - h0 * d1) / (h0 + h1);
  if (slope * d0 <= 0.0) return 0.0;
  if (d0 * d1 <= 0.0 && std::abs(slope) > std::abs(3.0 * d0)) return 3.0 * d0;
  return slope;
}

}  // namespace

std::vector<double> linear_ladder(double beta_min, double beta_max, int n) {
  require_ladder_size(n);
  if (n == 1) return {beta_max};
  std::vector<double> betas(static_cast<std::size_t>(n));
  for (int k = 0; k < n; ++k) {
    betas[k] = beta_min + (beta_max - beta_min) * static_cast<double>(k) / (n - 1);
  }
  betas.front() = beta_min;
  betas.back() = beta_max;
  return betas;
}

std::vector<double> geometric_ladder(double beta_min, double beta_max, int n) {
  require_ladder_size(n);
  if (n == 1) return {beta_max};
  if (!(beta_min > 0.0)) {
    throw std::invalid_argument("a geometric ladder needs beta_min > 0, got " +
                                std::to_string(beta_min));
  }
  std::vector<double> betas(static_cast<std::size_t>(n));
  const double ratio = std::log(beta_max / beta_min);
  for (int k = 0; k < n; ++k) {
    betas[k] = beta_min * std::exp(ratio * static_cast<double>(k) / (n - 1));
  }
  betas.front() = beta_min;
  betas.back() = beta_max;
  return betas;
}

void validate_ladder(const std::vector<double>& betas) {
  if (betas.empty()) throw std::invalid_argument("the beta ladder is empty");
  for (std::size_t k = 0; k < betas.size(); ++k) {
    std::ostringstream where;
    where << "beta[" << k << "] = " << betas[k];
    if (!std::isfinite(betas[k])) {
      throw std::invalid_argument(where.str() + " is not finite");
    }
    if (betas[k] < 0.0) throw std::invalid_argument(where.str() + " is negative");
    if (k > 0 && !(betas[k] > betas[k - 1])) {
      throw std::invalid_argument(where.str() + " is not above beta[" + std::to_string(k - 1) +
                                  "] = " + std::to_string(betas[k - 1]) +
                                  ": the ladder must be strictly ascending");
    }
  }
}

std::vector<double> pchip_interpolate(const std::vector<double>& x, const std::vector<double>& y,
                                      const std::vector<double>& at) {
  const std::size_t n = x.size();
  if (n < 2 || y.size() != n) {
    throw std::invalid_argument("pchip_interpolate needs >= 2 points and matching x, y");
  }
  std::vector<double> h(n - 1), delta(n - 1);
  for (std::size_t k = 0; k + 1 < n; ++k) {
    h[k] = x[k + 1] - x[k];
    if (!(h[k] > 0.0)) throw std::invalid_argument("pchip_interpolate: x must be ascending");
    delta[k] = (y[k + 1] - y[k]) / h[k];
  }
  std::vector<double> slope(n);
  if (n == 2) {
    slope[0] = slope[1] = delta[0];
  } else {
    for (std::size_t k = 1; k + 1 < n; ++k) {
      slope[k] = interior_slope(h[k - 1], h[k], delta[k - 1], delta[k]);
    }
    slope[0] = end_slope(h[0], h[1], delta[0], delta[1]);
    slope[n - 1] = end_slope(h[n - 2], h[n - 3], delta[n - 2], delta[n - 3]);
  }
  std::vector<double> out(at.size());
  for (std::size_t q = 0; q < at.size(); ++q) {
    const double t = std::clamp(at[q], x.front(), x.back());
    const auto upper = std::upper_bound(x.begin(), x.end(), t);
    const std::size_t k = std::min<std::size_t>(
        n - 2, static_cast<std::size_t>(std::max<std::ptrdiff_t>(0, upper - x.begin() - 1)));
    const double s = (t - x[k]) / h[k];
    // Cubic Hermite basis on [x_k, x_{k+1}].
    const double h00 = (1 + 2 * s) * (1 - s) * (1 - s);
    const double h10 = s * (1 - s) * (1 - s);
    const double h01 = s * s * (3 - 2 * s);
    const double h11 = s * s * (s - 1);
    out[q] = h00 * y[k] + h10 * h[k] * slope[k] + h01 * y[k + 1] + h11 * h[k] * slope[k + 1];
  }
  return out;
}

std::vector<double> optimize_schedule(const std::vector<double>& rejection_rates,
                                      const std::vector<double>& betas) {
  validate_ladder(betas);
  const std::size_t n = betas.size();
  if (rejection_rates.size() + 1 != n) {
    throw std::invalid_argument("optimize_schedule: " + std::to_string(n) + " betas need " +
                                std::to_string(n - 1) + " rejection rates, got " +
                                std::to_string(rejection_rates.size()));
  }
  if (n <= 2) return betas;
  // Cumulative barrier. A pair with zero rejection would make it flat (not invertible), so
  // every pair keeps a tiny floor; with equal rates the ladder maps to itself.
  constexpr double kFloor = 1e-9;
  std::vector<double> cum(n, 0.0);
  for (std::size_t k = 0; k + 1 < n; ++k) {
    const double r = rejection_rates[k];
    if (!std::isfinite(r) || r < 0.0 || r > 1.0) {
      throw std::invalid_argument("optimize_schedule: rejection rate " + std::to_string(k) + " = " +
                                  std::to_string(r) + " is not in [0, 1]");
    }
    cum[k + 1] = cum[k] + std::max(r, kFloor);
  }
  std::vector<double> targets(n);
  for (std::size_t k = 0; k < n; ++k) {
    targets[k] = cum.back() * static_cast<double>(k) / static_cast<double>(n - 1);
  }
  std::vector<double> updated = n >= 3 ? pchip_interpolate(cum, betas, targets) : betas;
  updated.front() = betas.front();
  updated.back() = betas.back();
  // Guard strict ascent against rounding on nearly-flat stretches.
  for (std::size_t k = 1; k + 1 < n; ++k) {
    const double lo = std::nextafter(updated[k - 1], betas.back());
    updated[k] = std::max(updated[k], lo);
  }
  for (std::size_t k = n - 1; k-- > 1;) {
    const double hi = std::nextafter(updated[k + 1], betas.front());
    updated[k] = std::min(updated[k], hi);
  }
  return updated;
}

}  // namespace hamon
