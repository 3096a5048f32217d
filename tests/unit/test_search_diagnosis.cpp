// SPDX-License-Identifier: Apache-2.0
// diagnose_search on evidence built to show each verdict, and at the rules' boundaries.
#include <gtest/gtest.h>

#include <cmath>

#include "hamon/core/tuning/search_diagnosis.hpp"

namespace {

using hamon::SearchVerdict;

/// A healthy 8-chain ladder that ran 10000 rounds with plenty of round trips, whose best
/// energy last improved in round `last` (0-based).
hamon::SearchEvidence healthy(std::int64_t last) {
  hamon::SearchEvidence e;
  e.rounds = 10000;
  e.n_chains = 8;
  e.explore_sweeps = 2;
  e.beta_max = 2.0;
  e.rejection = std::vector<double>(7, 0.4);
  e.tau_predicted = 0.05;
  e.efficiency = 0.6;
  e.total_round_trips = 300;
  e.improvements = {{3, std::nullopt}, {last, std::nullopt}};
  e.best_energy = -100.0;
  e.fraction_at_best = 0.7;
  e.level_gap = 2.0;
  return e;
}

TEST(SearchDiagnosis, saturated_pair_is_mixing_limited_from_075_on) {
  auto e = healthy(9000);
  e.rejection[3] = 0.7499;
  EXPECT_NE(hamon::diagnose_search(e).verdict, SearchVerdict::mixing_limited);
  e.rejection[3] = 0.75;
  e.swap_attempts = std::vector<std::int64_t>(7, 100);
  e.swap_attempts[3] = 9;  // too few attempts to call the pair saturated
  EXPECT_NE(hamon::diagnose_search(e).verdict, SearchVerdict::mixing_limited);
  e.swap_attempts[3] = 10;
  const auto d = hamon::diagnose_search(e);
  EXPECT_EQ(d.verdict, SearchVerdict::mixing_limited);
  EXPECT_EQ(d.confidence, "high");
  ASSERT_TRUE(d.recommended.n_chains);
  EXPECT_GE(*d.recommended.n_chains, 12);  // 1.5 x 8 at least
  EXPECT_NE(d.reasons.at(0).find("pair 3"), std::string::npos) << d.reasons[0];
}

TEST(SearchDiagnosis, recent_improvements_are_draw_limited_until_x_reaches_one) {
  // x = ln(10000 / (last + 1)): 3679 rounds gives x just under 1, 3678 just over.
  const auto recent = hamon::diagnose_search(healthy(3678));
  EXPECT_EQ(recent.verdict, SearchVerdict::draw_limited);
  EXPECT_LT(*recent.records_expected_since, 1.0);
  EXPECT_EQ(recent.recommended.extra_rounds, 20000);
  const auto settled = hamon::diagnose_search(healthy(3677));
  EXPECT_EQ(settled.verdict, SearchVerdict::beta_limited);
  EXPECT_GE(*settled.records_expected_since, 1.0);
  EXPECT_EQ(settled.confidence, "low");
  EXPECT_EQ(hamon::diagnose_search(healthy(9990)).confidence, "high");  // x < 0.5
}

TEST(SearchDiagnosis, a_high_predicted_floor_turns_draw_into_beta) {
  auto e = healthy(9900);
  e.predicted_excess_energy = 0.5;
  e.energy_scale = 100.0;  // floor 0.5 % of |E|: below the 1 % alarm
  e.estimated_beta_max = 5.0;
  EXPECT_EQ(hamon::diagnose_search(e).verdict, SearchVerdict::draw_limited);
  e.predicted_excess_energy = 1.5;  // 1.5 %
  const auto d = hamon::diagnose_search(e);
  EXPECT_EQ(d.verdict, SearchVerdict::beta_limited);
  EXPECT_EQ(d.recommended.beta_max, 5.0);
}

TEST(SearchDiagnosis, dead_conveyor_with_little_at_the_best_is_stuck) {
  auto e = healthy(100);
  e.efficiency = 0.05;  // 500 round trips expected, a third of them seen
  e.fraction_at_best = 0.1;
  auto d = hamon::diagnose_search(e);
  EXPECT_EQ(d.verdict, SearchVerdict::mixing_limited);
  EXPECT_EQ(d.recommended.explore_sweeps, 4);  // even ladder: more sweeps
  EXPECT_FALSE(d.recommended.n_chains);
  e.rejection = {0.1, 0.1, 0.7, 0.7, 0.1, 0.1, 0.1};  // uneven: more chains
  d = hamon::diagnose_search(e);
  EXPECT_EQ(d.verdict, SearchVerdict::mixing_limited);
  EXPECT_TRUE(d.recommended.n_chains);
  // With a quarter of the rounds at the best it is a frozen cold end, not a trap.
  e.fraction_at_best = 0.25;
  d = hamon::diagnose_search(e);
  EXPECT_EQ(d.verdict, SearchVerdict::beta_limited);
  EXPECT_EQ(d.reasons.size(), 2u);
  // Too few round trips expected to judge the conveyor: no mixing verdict either.
  e.fraction_at_best = 0.1;
  e.tau_predicted = 0.0039;  // 39 expected
  EXPECT_NE(hamon::diagnose_search(e).verdict, SearchVerdict::mixing_limited);
}

TEST(SearchDiagnosis, silence_without_round_trips_is_inconclusive) {
  auto e = healthy(2000);   // x = ln(10000 / 2001) = 1.6: past the draw gate
  e.total_round_trips = 3;  // ~2.4 since the last improvement at an even rate
  e.tau_predicted = 0.001;  // conveyor not judged
  auto d = hamon::diagnose_search(e);
  EXPECT_EQ(d.verdict, SearchVerdict::inconclusive);
  EXPECT_EQ(d.recommended.extra_rounds, 20000);
  // Counted round trips take precedence over the even-rate share.
  e.improvements.back().round_trips = 0;
  EXPECT_EQ(hamon::diagnose_search(e).verdict, SearchVerdict::beta_limited);  // 3 since
  e.improvements.back().round_trips = 1;
  EXPECT_EQ(hamon::diagnose_search(e).verdict, SearchVerdict::inconclusive);  // 2 since
}

TEST(SearchDiagnosis, settled_search_recommends_a_colder_beta_from_two_levels) {
  auto e = healthy(200);
  e.fraction_at_best = 0.2;
  e.level_gap = 1.0;
  const auto d = hamon::diagnose_search(e);
  EXPECT_EQ(d.verdict, SearchVerdict::beta_limited);
  // Settled long ago (x = 3.9), but a plateau is no evidence of a lower state: never
  // confident without the model's predicted floor.
  EXPECT_EQ(d.confidence, "medium");
  ASSERT_TRUE(d.recommended.beta_max);
  EXPECT_NEAR(*d.recommended.beta_max, 2.0 + std::log(4.0), 1e-12);
  // Clamped to [1.5, 10] x beta.
  e.level_gap = 100.0;
  EXPECT_EQ(*hamon::diagnose_search(e).recommended.beta_max, 3.0);
  // Mostly at the best already: no beta to recommend from the levels.
  e.fraction_at_best = 0.7;
  EXPECT_FALSE(hamon::diagnose_search(e).recommended.beta_max);
}

TEST(SearchDiagnosis, a_settled_search_is_confident_only_with_a_predicted_floor) {
  auto e = healthy(200);
  e.predicted_excess_energy = 5.0;  // 5 % of |E| = 100
  e.energy_scale = 100.0;
  e.estimated_beta_max = 4.5;
  const auto d = hamon::diagnose_search(e);
  EXPECT_EQ(d.verdict, SearchVerdict::beta_limited);
  EXPECT_EQ(d.confidence, "high");
  EXPECT_EQ(d.recommended.beta_max, 4.5);
}

TEST(SearchDiagnosis, a_saturated_ladder_after_an_early_optimum_is_not_confident) {
  // The best found in round 0 of 10000 and never improved: a saturated pair still gives
  // mixing_limited, but with medium confidence and a reason saying why.
  auto e = healthy(0);
  e.improvements = {{0, std::nullopt}};
  e.rejection[3] = 0.9;
  const auto d = hamon::diagnose_search(e);
  EXPECT_EQ(d.verdict, SearchVerdict::mixing_limited);
  EXPECT_EQ(d.confidence, "medium");
  ASSERT_EQ(d.reasons.size(), 2u);
  EXPECT_NE(d.reasons[0].find("pair 3"), std::string::npos) << d.reasons[0];
  EXPECT_NE(d.reasons[1].find("settled early"), std::string::npos) << d.reasons[1];
}

TEST(SearchDiagnosis, reasons_quote_the_round_the_best_was_found_in) {
  // One event, one number: the tracked best's found_round (burn-in included, from 0), not
  // the measured round + 1.
  auto e = healthy(200);
  e.burn_in = 500;
  e.found_round = 700;
  const auto d = hamon::diagnose_search(e);
  ASSERT_FALSE(d.reasons.empty());
  EXPECT_NE(d.reasons[0].find("in round 700 (found_round"), std::string::npos) << d.reasons[0];
  EXPECT_EQ(d.reasons[0].find("round 201"), std::string::npos) << d.reasons[0];
  e.found_round.reset();  // the trace's history alone: measured round + burn-in
  EXPECT_NE(hamon::diagnose_search(e).reasons[0].find("in round 700 ("), std::string::npos);
}

TEST(SearchDiagnosis, no_history_or_one_thin_chain_is_inconclusive) {
  auto e = healthy(100);
  e.improvements.clear();
  EXPECT_EQ(hamon::diagnose_search(e).verdict, SearchVerdict::inconclusive);
  hamon::SearchEvidence one;
  one.rounds = 1000;
  one.beta_max = 1.0;
  one.improvements = {{10, std::nullopt}};
  one.effective_samples = 29.0;
  EXPECT_EQ(hamon::diagnose_search(one).verdict, SearchVerdict::inconclusive);
  one.effective_samples = 30.0;
  EXPECT_EQ(hamon::diagnose_search(one).verdict, SearchVerdict::beta_limited);
}

TEST(SearchDiagnosis, verdict_names) {
  EXPECT_EQ(hamon::to_string(SearchVerdict::mixing_limited), "mixing_limited");
  EXPECT_EQ(hamon::to_string(SearchVerdict::draw_limited), "draw_limited");
  EXPECT_EQ(hamon::to_string(SearchVerdict::beta_limited), "beta_limited");
  EXPECT_EQ(hamon::to_string(SearchVerdict::inconclusive), "inconclusive");
}

}  // namespace
