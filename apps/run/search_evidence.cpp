// SPDX-License-Identifier: Apache-2.0
#include "run/search_evidence.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace hamon::cli {

namespace {

/// Improvements of the lowest energy over all chains, round by round.
void add_history(const NrptResult& r, SearchEvidence& e) {
  const std::size_t chains = r.betas.size();
  if (chains == 0 || r.n_rounds <= 0 ||
      r.energies.size() != static_cast<std::size_t>(r.n_rounds) * chains) {
    return;
  }
  double scale = 0.0;
  for (double v : r.energies) scale = std::max(scale, std::fabs(v));
  const double tolerance = 1e-9 * std::max(scale, 1.0);
  double best = std::numeric_limits<double>::infinity();
  for (std::int64_t round = 0; round < r.n_rounds; ++round) {
    const auto row = r.energies.begin() +
                     static_cast<std::ptrdiff_t>(round) * static_cast<std::ptrdiff_t>(chains);
    const double lowest = *std::min_element(row, row + static_cast<std::ptrdiff_t>(chains));
    if (lowest < best - tolerance) {
      best = lowest;
      e.improvements.push_back({round, std::nullopt});
    }
  }
  e.best_energy = best;
  // The cold chain since the last improvement: how often it sits at the best energy, and
  // the smallest step above the best it visited.
  const std::int64_t from = e.improvements.back().round;
  std::int64_t at_best = 0;
  double gap = std::numeric_limits<double>::infinity();
  for (std::int64_t round = from; round < r.n_rounds; ++round) {
    const double cold = r.energies[static_cast<std::size_t>(round) * chains + chains - 1];
    if (cold <= best + tolerance) {
      ++at_best;
    } else {
      gap = std::min(gap, cold - best);
    }
  }
  e.fraction_at_best = static_cast<double>(at_best) / static_cast<double>(r.n_rounds - from);
  if (std::isfinite(gap)) e.level_gap = gap;
}

}  // namespace

SearchEvidence search_evidence(const NrptResult& r, std::int32_t explore_sweeps,
                               const RunDiagnostics& diagnostics,
                               const std::optional<BetaMaxReport>& beta_max) {
  SearchEvidence e;
  e.rounds = r.n_rounds;
  e.total_round_trips = r.total_round_trips;
  e.n_chains = static_cast<std::int32_t>(r.betas.size());
  e.explore_sweeps = explore_sweeps;
  e.beta_max = r.betas.empty() ? 0.0 : r.betas.back();
  e.rejection = r.swaps.rejection;
  e.swap_attempts = r.swaps.attempted;
  e.tau_predicted = r.swaps.tau_predicted;
  e.efficiency = r.efficiency;
  add_history(r, e);
  if (diagnostics.cold_energy_ess && diagnostics.cold_energy_ess->defined) {
    e.effective_samples = diagnostics.cold_energy_ess->ess;
  }
  if (beta_max) {
    e.predicted_excess_energy = beta_max->estimate.predicted_excess_energy;
    e.energy_scale = beta_max->estimate.energy_scale;
    e.estimated_beta_max = beta_max->estimated_beta_max;
  }
  return e;
}

}  // namespace hamon::cli
