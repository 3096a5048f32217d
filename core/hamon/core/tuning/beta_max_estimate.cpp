// SPDX-License-Identifier: Apache-2.0
#include "hamon/core/tuning/beta_max_estimate.hpp"

#include <cmath>
#include <stdexcept>
#include <string>

#include "hamon/core/tuning/tuning.hpp"
#include "hamon/core/util/text.hpp"

namespace hamon {

namespace {

// beta c beyond this makes p = 0 to double precision; capping it keeps exp finite.
constexpr double kExponentCap = 700.0;
constexpr double kBetaCap = 1e6;
constexpr double kPi = 3.14159265358979323846;

double occupation(double cost, double beta) {
  return 1.0 / (1.0 + std::exp(std::fmin(beta * cost, kExponentCap)));
}

std::vector<double> positive(const std::vector<double>& costs) {
  std::vector<double> kept;
  kept.reserve(costs.size());
  for (double c : costs) {
    if (std::isfinite(c) && c > 0.0) kept.push_back(c);
  }
  return kept;
}

void check_inputs(const std::vector<double>& kept, double energy_scale, double gap_tol) {
  if (kept.empty()) {
    throw std::invalid_argument(
        "the model has no positive excitation cost: nothing to estimate beta_max from");
  }
  if (!(gap_tol > 0.0 && gap_tol < 1.0)) {
    throw std::invalid_argument("gap_tol " + format_value(gap_tol) +
                                " is not strictly between 0 and 1");
  }
  if (!(std::isfinite(energy_scale) && std::fabs(energy_scale) > 0.0)) {
    throw std::invalid_argument("the energy scale " + format_value(energy_scale) +
                                " is not finite and non-zero");
  }
}

BetaMaxEstimate describe(const std::vector<double>& kept, double energy_scale, double gap_tol,
                         double beta_max) {
  BetaMaxEstimate e;
  e.beta_max = beta_max;
  e.gap_tol = gap_tol;
  e.energy_scale = std::fabs(energy_scale);
  e.predicted_excess_energy = defect_excess_energy(kept, beta_max);
  e.Lambda = defect_barrier(kept, beta_max);
  ChainTuningOptions unclamped;
  unclamped.max_chains = 1 << 30;  // a prediction, not a tuning run: say what it asks for
  e.n_chains = recommended_chains(e.Lambda, unclamped);
  e.n_costs = static_cast<std::int64_t>(kept.size());
  return e;
}

}  // namespace

double defect_excess_energy(const std::vector<double>& costs, double beta) {
  double sum = 0.0;
  for (double c : costs) {
    if (c > 0.0) sum += c * occupation(c, beta);
  }
  return sum;
}

double defect_energy_std(const std::vector<double>& costs, double beta) {
  double var = 0.0;
  for (double c : costs) {
    if (!(c > 0.0)) continue;
    const double p = occupation(c, beta);
    var += c * c * p * (1.0 - p);
  }
  return std::sqrt(var);
}

double defect_barrier(const std::vector<double>& costs, double beta_max, int n_intervals) {
  if (n_intervals < 2 || n_intervals % 2 != 0) {
    throw std::invalid_argument("defect_barrier needs an even number of intervals >= 2");
  }
  if (!(beta_max > 0.0)) return 0.0;
  const double h = beta_max / n_intervals;
  double sum = defect_energy_std(costs, 0.0) + defect_energy_std(costs, beta_max);
  for (int k = 1; k < n_intervals; ++k) {
    sum += (k % 2 == 1 ? 4.0 : 2.0) * defect_energy_std(costs, h * k);
  }
  return sum * h / 3.0 / std::sqrt(kPi);
}

BetaMaxEstimate estimate_beta_max(const std::vector<double>& costs, double energy_scale,
                                  double gap_tol) {
  const std::vector<double> kept = positive(costs);
  check_inputs(kept, energy_scale, gap_tol);
  const double target = gap_tol * std::fabs(energy_scale);
  const auto cold_enough = [&](double beta) { return defect_excess_energy(kept, beta) <= target; };
  double lo = 0.0;
  double hi = 1.0;
  while (!cold_enough(hi) && hi < kBetaCap) {
    lo = hi;
    hi *= 2.0;
  }
  // The excess decreases monotonically in beta: bisect [lo, hi] down to rounding.
  for (int step = 0; step < 200 && hi - lo > 1e-12 * hi; ++step) {
    const double mid = 0.5 * (lo + hi);
    (cold_enough(mid) ? hi : lo) = mid;
  }
  return describe(kept, energy_scale, gap_tol, hi);
}

BetaMaxEstimate describe_beta_max(const std::vector<double>& costs, double energy_scale,
                                  double gap_tol, double beta_max) {
  const std::vector<double> kept = positive(costs);
  check_inputs(kept, energy_scale, gap_tol);
  if (!(std::isfinite(beta_max) && beta_max > 0.0)) {
    throw std::invalid_argument("beta_max " + format_value(beta_max) + " is not positive");
  }
  return describe(kept, energy_scale, gap_tol, beta_max);
}

}  // namespace hamon
