// SPDX-License-Identifier: Apache-2.0
// The phases of a run (hamon/core/sampler/run_phases.hpp): adaptation segments of at least
// kMinAdaptationRounds rounds, then a settling segment before measurement.
#include <gtest/gtest.h>

#include "hamon/core/sampler/run_phases.hpp"

namespace {

hamon::NrptOptions adapted(std::int64_t burn_in, std::int32_t phases, std::int32_t chains = 8) {
  hamon::NrptOptions o;
  o.n_chains = chains;
  o.burn_in = burn_in;
  o.adapt_schedule = true;
  o.adapt_phases = phases;
  return o;
}

TEST(RunPhases, segments_split_burn_in_and_leave_a_settling_segment) {
  const auto p = hamon::run_phases(adapted(1000, 5));
  EXPECT_EQ(p.burn_in, 1000);
  EXPECT_EQ(p.ladder_updates, (std::vector<std::int64_t>{166, 333, 500, 666, 833}));
  // The last update is followed by 167 rounds on the final ladder.
}

TEST(RunPhases, short_burn_in_gets_fewer_phases_never_short_ones) {
  // 5 phases asked; 300 rounds hold 300 / 50 - 1 = 5 updates (6 segments of 50).
  EXPECT_EQ(hamon::run_phases(adapted(300, 5)).ladder_updates,
            (std::vector<std::int64_t>{50, 100, 150, 200, 250}));
  // 120 rounds: one update (two segments of 60), not five of 20.
  EXPECT_EQ(hamon::run_phases(adapted(120, 5)).ladder_updates, (std::vector<std::int64_t>{60}));
  // Under 100 rounds: no adaptation at all.
  EXPECT_TRUE(hamon::run_phases(adapted(99, 5)).ladder_updates.empty());
  for (std::int64_t burn_in : {100, 137, 250, 999, 5000}) {
    const auto p = hamon::run_phases(adapted(burn_in, 9));
    std::int64_t previous = 0;
    for (std::int64_t update : p.ladder_updates) {
      EXPECT_GE(update - previous, hamon::kMinAdaptationRounds) << burn_in;
      previous = update;
    }
    EXPECT_GE(burn_in - previous, hamon::kMinAdaptationRounds) << "settling, " << burn_in;
  }
}

TEST(RunPhases, no_adaptation_without_a_ladder_to_move) {
  EXPECT_TRUE(hamon::run_phases(adapted(1000, 5, 2)).ladder_updates.empty());
  auto off = adapted(1000, 5);
  off.adapt_schedule = false;
  EXPECT_TRUE(hamon::run_phases(off).ladder_updates.empty());
}

}  // namespace
