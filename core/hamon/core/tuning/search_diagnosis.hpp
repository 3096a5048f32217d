// SPDX-License-Identifier: Apache-2.0
#pragma once
// What limits a ground-state search, judged after a run (host code): the ladder's mixing,
// the number of rounds, or beta_max; and which knob to turn.
//
// The evidence is the history of the best energy (when it last improved, in rounds and in
// round trips), the ladder's swap statistics and, when the run estimated beta_max, the
// independent-defect prediction of the thermal floor at the beta used
// (beta_max_estimate.hpp). The rules, in order:
//
// 1. A saturated ladder (some pair rejects >= 75 % of >= 10 attempted swaps) is
//    mixing-limited outright:
//    no state crosses that pair, and Lambda is capped by the chain count, not measured.
// 2. No best-energy history: inconclusive.
// 3. Recent improvements, x = ln(rounds / (last improvement round + 1)) < 1 (fewer than one
//    record expected since the last one if the search had settled): draw-limited, run
//    more rounds; unless the predicted thermal floor at beta_max is above 1 % of |E|, then
//    beta-limited (going colder beats going longer).
// 4. A measured dead conveyor (round-trip efficiency < 0.15 once >= 40 round trips were
//    expected) with less than a quarter of the cold chain's rounds at the best energy:
//    mixing-limited (stuck in a basin). Otherwise, fewer than 3 round trips since the last
//    improvement: inconclusive (the silence is not yet a plateau).
// 5. Otherwise the best energy has settled: beta-limited, with a colder beta_max to try
//    when the run gives a reason for one.
//
// Confidence "high" needs evidence against the best energy found: records still arriving,
// the predicted floor, a stuck basin, a saturated ladder while the best still moved. A
// plateau without the predicted floor is at most "medium" (it is what a found optimum gives),
// and so is a saturated ladder once the best settled early. The reasons quote the round of
// the last improvement as the summary's found_round (from 0, burn-in included).

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace hamon {

enum class SearchVerdict { mixing_limited, draw_limited, beta_limited, inconclusive };

/// "mixing_limited", "draw_limited", "beta_limited", "inconclusive".
std::string to_string(SearchVerdict verdict);

/// One improvement of the best energy: the measured round (0-based) it was found in, and
/// the round trips completed up to that round when the run counted them.
struct BestImprovement {
  std::int64_t round = 0;
  std::optional<std::int64_t> round_trips;
};

struct SearchEvidence {
  std::int64_t rounds = 0;  // measured rounds
  std::int64_t total_round_trips = 0;
  std::int32_t n_chains = 1;
  std::int32_t explore_sweeps = 1;
  double beta_max = 0.0;          // the coldest beta of the ladder
  std::vector<double> rejection;  // per neighbouring pair
  /// Swaps attempted per pair (empty: every pair counts as measured).
  std::vector<std::int64_t> swap_attempts;
  double tau_predicted = 0.0;  // ideal round trips per round on this ladder
  double efficiency = 0.0;     // observed / predicted round-trip rate
  /// The best energy's improvements, in round order; empty when the run kept no history.
  std::vector<BestImprovement> improvements;
  std::optional<double> best_energy;
  /// The rounds before measurement, and the round the tracked best state was found in
  /// (from 0, burn-in included: the summary's found_round). The reasons quote rounds in
  /// this numbering, so that a run reports one number for one event.
  std::int64_t burn_in = 0;
  std::optional<std::int64_t> found_round;
  /// Of the cold chain's rounds since the last improvement, the fraction at the best
  /// energy, and the smallest energy step above it that the cold chain visited.
  std::optional<double> fraction_at_best;
  std::optional<double> level_gap;
  std::optional<double> effective_samples;  // of the cold chain's energy (one-chain runs)
  /// From the beta_max estimate: the predicted excess energy at beta_max, |E|, and the
  /// beta the estimate asks for.
  std::optional<double> predicted_excess_energy;
  std::optional<double> energy_scale;
  std::optional<double> estimated_beta_max;
};

struct SearchThresholds {
  double saturated_rejection = 0.75;       // the tuners' barrier_identified bound ...
  std::int64_t min_swap_attempts = 10;     // ... on pairs with at least this many attempts
  double draw_evidence = 1.0;              // x below this: records still arriving
  double plateau_evidence = 3.0;           // x at or above this: a confident plateau
  double floor_alarm = 1e-2;               // predicted excess / |E| above this: beta-limited
  double min_efficiency = 0.15;            // the tuners' conveyor_alive bound ...
  double min_expected_round_trips = 40.0;  // ... judged once this many were expected
  double stuck_fraction = 0.25;            // a dead conveyor with less at the best: stuck
  double min_tail_round_trips = 3.0;       // round trips since the last improvement
  double min_effective_samples = 30.0;
  double equalised_rejection_std = 0.15;  // a dead conveyor on an even ladder: more sweeps
};

struct SearchRecommendation {
  std::optional<std::int64_t> extra_rounds;
  std::optional<std::int32_t> n_chains;
  std::optional<std::int32_t> explore_sweeps;
  std::optional<double> beta_max;
};

struct SearchDiagnosis {
  SearchVerdict verdict = SearchVerdict::inconclusive;
  std::string confidence = "low";  // "low", "medium", "high"
  std::vector<std::string> reasons;
  SearchRecommendation recommended;
  /// ln(rounds / (last improvement round + 1)); nullopt without a history.
  std::optional<double> records_expected_since;
};

SearchDiagnosis diagnose_search(const SearchEvidence& evidence,
                                const SearchThresholds& thresholds = {});

}  // namespace hamon
