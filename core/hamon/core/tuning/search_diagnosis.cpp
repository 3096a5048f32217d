// SPDX-License-Identifier: Apache-2.0
#include "hamon/core/tuning/search_diagnosis.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "hamon/core/stats/statistics.hpp"
#include "hamon/core/tuning/tuning.hpp"

namespace hamon {

namespace {

std::string fixed(double value, int digits = 3) {
  char text[64];
  std::snprintf(text, sizeof text, "%.*g", digits, value);
  return text;
}

double sum_of(const std::vector<double>& values) {
  double s = 0.0;
  for (double v : values) s += v;
  return s;
}

std::int32_t chains_for(const std::vector<double>& rejection) {
  ChainTuningOptions unclamped;
  unclamped.max_chains = 1 << 30;
  return recommended_chains(sum_of(rejection), unclamped);
}

/// Round trips since the last improvement: counted when the history has them, else the
/// share of the total that the rounds since then would hold at an even rate.
double tail_round_trips(const SearchEvidence& e, const BestImprovement& last) {
  if (last.round_trips) {
    return static_cast<double>(e.total_round_trips - *last.round_trips);
  }
  const double tail_rounds = static_cast<double>(e.rounds - last.round - 1);
  return static_cast<double>(e.total_round_trips) * std::max(0.0, tail_rounds) /
         static_cast<double>(std::max<std::int64_t>(e.rounds, 1));
}

}  // namespace

std::string to_string(SearchVerdict verdict) {
  switch (verdict) {
    case SearchVerdict::mixing_limited:
      return "mixing_limited";
    case SearchVerdict::draw_limited:
      return "draw_limited";
    case SearchVerdict::beta_limited:
      return "beta_limited";
    case SearchVerdict::inconclusive:
      return "inconclusive";
  }
  return "inconclusive";
}

SearchDiagnosis diagnose_search(const SearchEvidence& e, const SearchThresholds& t) {
  SearchDiagnosis d;
  const auto verdict = [&](SearchVerdict v, const char* confidence, std::string reason) {
    d.verdict = v;
    d.confidence = confidence;
    d.reasons.push_back(std::move(reason));
    return d;
  };
  const bool ladder = e.n_chains > 1 && !e.rejection.empty();

  // 1. Structural: a pair that hardly ever swaps cuts the ladder in two.
  // Only pairs with enough attempts count: one round attempts half the pairs once.
  std::size_t worst = e.rejection.size();
  for (std::size_t k = 0; ladder && k < e.rejection.size(); ++k) {
    const bool measured =
        e.swap_attempts.size() != e.rejection.size() || e.swap_attempts[k] >= t.min_swap_attempts;
    if (measured && (worst == e.rejection.size() || e.rejection[k] > e.rejection[worst])) {
      worst = k;
    }
  }
  // A best energy found early and never improved on (x >= plateau_evidence) is what a
  // found optimum gives as well as a stuck basin: the ladder's fault is certain, its cost to
  // the search is not.
  const bool settled_early =
      e.rounds > 0 && !e.improvements.empty() &&
      std::log(static_cast<double>(e.rounds) /
               static_cast<double>(e.improvements.back().round + 1)) >= t.plateau_evidence;
  if (worst < e.rejection.size()) {
    if (e.rejection[worst] >= t.saturated_rejection) {
      d.recommended.n_chains =
          std::max(chains_for(e.rejection),
                   static_cast<std::int32_t>(std::ceil(1.5 * static_cast<double>(e.n_chains))));
      SearchDiagnosis saturated =
          verdict(SearchVerdict::mixing_limited, settled_early ? "medium" : "high",
                  "the ladder saturates: pair " + std::to_string(worst) + " rejects " +
                      fixed(100.0 * e.rejection[worst]) +
                      " % of swaps (>= " + fixed(100.0 * t.saturated_rejection) +
                      " %), so few states cross it; results at every beta are "
                      "untrustworthy until the ladder has more chains (or a tuned spacing)");
      if (settled_early) {
        saturated.reasons.push_back(
            "the best energy settled early and never moved: an optimum found at once looks "
            "the same as a basin the ladder cannot leave");
      }
      return saturated;
    }
  }
  if (e.rounds <= 0 || e.improvements.empty()) {
    return verdict(SearchVerdict::inconclusive, "low",
                   "the run kept no history of its best energy (record the energies)");
  }
  const BestImprovement& last = e.improvements.back();
  const double x = std::log(static_cast<double>(e.rounds) / static_cast<double>(last.round + 1));
  d.records_expected_since = x;
  // The last improvement is the tracked best's round where there is one (the trace's rounds
  // are measured rounds: shifted by the burn-in into the same numbering).
  const std::int64_t found = e.found_round.value_or(last.round + e.burn_in);
  const std::string since = "the best energy last improved in round " + std::to_string(found) +
                            " (found_round: from 0, of " + std::to_string(e.burn_in + e.rounds) +
                            (e.burn_in > 0 ? ", burn-in included)" : ")");
  // The predicted thermal floor relative to |E|; -1 when the run made no estimate.
  const double floor = e.predicted_excess_energy && e.energy_scale && *e.energy_scale > 0.0
                           ? *e.predicted_excess_energy / *e.energy_scale
                           : -1.0;
  const bool floor_high = floor > t.floor_alarm;

  // 2. Records still arriving.
  if (x < t.draw_evidence) {
    if (floor_high) {
      d.recommended.beta_max = e.estimated_beta_max;
      return verdict(SearchVerdict::beta_limited, "high",
                     since + ", but the predicted thermal floor at beta = " + fixed(e.beta_max, 4) +
                         " is " + fixed(100.0 * floor) +
                         " % of |E|: going colder beats running longer");
    }
    d.recommended.extra_rounds = 2 * e.rounds;
    return verdict(SearchVerdict::draw_limited, x < 0.5 ? "high" : "medium",
                   since + ": improvements are still arriving (ln(rounds / round) = " + fixed(x) +
                       " < " + fixed(t.draw_evidence) + "); run more rounds");
  }

  // 3. A silent tail: a plateau only if the ladder delivered states in it.
  const double expected_trips = e.tau_predicted * static_cast<double>(e.rounds);
  // Judged only once enough round trips were expected for a slow rate to mean something.
  const bool conveyor_judged = ladder && expected_trips >= t.min_expected_round_trips;
  const bool conveyor_dead = conveyor_judged && e.efficiency < t.min_efficiency;
  const double at_best = e.fraction_at_best.value_or(0.0);
  if (conveyor_dead && at_best < t.stuck_fraction) {
    if (population_std(e.rejection) <= t.equalised_rejection_std) {
      d.recommended.explore_sweeps = 2 * e.explore_sweeps;
    } else {
      d.recommended.n_chains = chains_for(e.rejection);
    }
    return verdict(SearchVerdict::mixing_limited, "high",
                   since + ", but round trips run at " + fixed(e.efficiency, 2) +
                       " of the ideal rate (< " + fixed(t.min_efficiency, 2) + ") and only " +
                       fixed(100.0 * at_best) +
                       " % of the cold chain's rounds since sit at the best energy: the "
                       "search is stuck in a basin");
  }
  if (ladder) {
    const double tail = tail_round_trips(e, last);
    if (tail < t.min_tail_round_trips) {
      d.recommended.extra_rounds = 2 * e.rounds;
      return verdict(SearchVerdict::inconclusive, "low",
                     since + ", and only " + fixed(tail) + " round trips came since (< " +
                         fixed(t.min_tail_round_trips) +
                         "): the silence is not yet a plateau; run more rounds");
    }
  } else if (!e.effective_samples || *e.effective_samples < t.min_effective_samples) {
    return verdict(SearchVerdict::inconclusive, "low",
                   since + ", but one chain gives " + fixed(e.effective_samples.value_or(0.0)) +
                       " effective samples (< " + fixed(t.min_effective_samples) +
                       "): too few to call a plateau");
  }

  // 4. Settled: only a colder beta_max can show a lower state, if there is one.
  // Settled is not evidence of a lower state: without the model's predicted floor the
  // verdict is "colder, if anything", never confident.
  const char* confidence = x >= t.plateau_evidence && floor_high ? "high"
                           : x >= 2.0                            ? "medium"
                                                                 : "low";
  std::string reason = since + " and has not moved since (ln(rounds / round) = " + fixed(x) + ")";
  if (floor_high) {
    d.recommended.beta_max = e.estimated_beta_max;
    reason += "; the predicted thermal floor at beta = " + fixed(e.beta_max, 4) + " is " +
              fixed(100.0 * floor) + " % of |E|";
  } else if (e.level_gap && *e.level_gap > 0.0 && e.fraction_at_best && at_best < 0.5) {
    // Two levels in Boltzmann balance: the beta at which the best level outweighs the next
    // one seen, kept within [1.5, 10] x the current beta.
    const double two_level =
        e.beta_max + std::log((1.0 - at_best) / std::max(at_best, 1e-12)) / *e.level_gap;
    d.recommended.beta_max = std::clamp(two_level, 1.5 * e.beta_max, 10.0 * e.beta_max);
    reason += "; the cold chain sits at the best energy " + fixed(100.0 * at_best) +
              " % of the time, so the equilibrium at this beta is above it";
  } else {
    reason += "; if a lower state exists, only a colder beta_max can reveal it";
  }
  d.verdict = SearchVerdict::beta_limited;
  d.confidence = confidence;
  d.reasons.push_back(reason);
  if (conveyor_dead) {
    d.reasons.push_back("round trips run at " + fixed(e.efficiency, 2) +
                        " of the ideal rate: expected when the cold end freezes, but more "
                        "chains or sweeps help if a lower state is suspected");
  } else if (!conveyor_judged && ladder) {
    d.reasons.push_back("too few round trips were expected to judge the conveyor (" +
                        fixed(expected_trips) + " < " + fixed(t.min_expected_round_trips) + ")");
  }
  return d;
}

}  // namespace hamon
