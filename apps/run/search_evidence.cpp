// SPDX-License-Identifier: Apache-2.0
#include "run/search_evidence.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace hamon::cli {

namespace {

/// Improvements of the lowest energy over all chains, round by round, from the energies
/// trace (the measured rounds' chains of replica 0).
void add_trace_history(const NrptResult& r, std::size_t chains, double tolerance,
                       SearchEvidence& e) {
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
}

/// The tracked best state is exact where the trace is not: it covers burn-in and every
/// replica, and it records the round trips when it was found. Its round ends the history
/// (a later improvement of the trace is only the trace catching up with it).
void add_tracked_best(const NrptResult& r, std::int64_t burn_in, SearchEvidence& e) {
  if (r.best_round < 0) return;
  const BestImprovement last{
      std::max<std::int64_t>(0, r.best_round - burn_in),
      std::max<std::int64_t>(0, r.total_round_trips - r.round_trips_since_best)};
  while (!e.improvements.empty() && e.improvements.back().round >= last.round) {
    e.improvements.pop_back();
  }
  e.improvements.push_back(last);
  e.best_energy = r.best_energy;
  e.found_round = r.best_round;
}

/// The cold chain since the last improvement: how often it sits at the best energy, and the
/// smallest step above the best it visited.
void add_cold_chain(const NrptResult& r, std::size_t chains, double tolerance, SearchEvidence& e) {
  const std::int64_t from = e.improvements.back().round;
  if (from >= r.n_rounds || !e.best_energy) return;
  const double best = *e.best_energy;
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

void add_history(const NrptResult& r, std::int64_t burn_in, SearchEvidence& e) {
  const std::size_t chains = r.betas.size();
  // On the annealing path the trace holds the swap energy E - E_ref, which ranks states
  // otherwise than the tracked best's E: only the tracked best is evidence then.
  const bool traced = !r.annealed && chains > 0 && r.n_rounds > 0 &&
                      r.energies.size() == static_cast<std::size_t>(r.n_rounds) * chains;
  double scale = std::fabs(r.best_energy);
  if (traced) {
    for (double v : r.energies) scale = std::max(scale, std::fabs(v));
  }
  const double tolerance = 1e-9 * std::max(scale, 1.0);
  if (traced) add_trace_history(r, chains, tolerance, e);
  if (r.n_rounds > 0) add_tracked_best(r, burn_in, e);
  if (traced && !e.improvements.empty()) add_cold_chain(r, chains, tolerance, e);
}

}  // namespace

SearchEvidence search_evidence(const NrptResult& r, std::int64_t burn_in,
                               std::int32_t explore_sweeps, const RunDiagnostics& diagnostics,
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
  e.burn_in = burn_in;
  add_history(r, burn_in, e);
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
