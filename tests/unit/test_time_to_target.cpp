// SPDX-License-Identifier: Apache-2.0
// The statistics of perf/time_to_target (perf/time_to_target.hpp): TTS(99 %) and the
// summary over seeds, on runs made up so that every number is known.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "../../perf/time_to_target.hpp"

namespace {

using hamon_perf::SeedRun;

SeedRun hit(std::int64_t rounds) {
  return {true, rounds, rounds * 1e-3, -1.0, rounds * 1e-3, rounds};
}
SeedRun miss(std::int64_t cap) {
  return {false, cap, cap * 1e-3, 0.5, cap * 1e-3, cap};
}

TEST(TimeToTarget, repetitions_for_99_percent) {
  EXPECT_NEAR(hamon_perf::repetitions_99(0.5), std::log(0.01) / std::log(0.5), 1e-12);  // 6.64
  EXPECT_EQ(hamon_perf::repetitions_99(0.995), 1.0);  // one run at least
  EXPECT_TRUE(std::isinf(hamon_perf::repetitions_99(0.0)));
}

TEST(TimeToTarget, summary_over_seeds) {
  // Hits at 100, 300 and 200 rounds, one miss at the cap of 1000; 1 ms per round.
  const auto s = hamon_perf::summarise({hit(100), miss(1000), hit(300), hit(200)}, 1000);
  EXPECT_EQ(s.hits, 3);
  EXPECT_DOUBLE_EQ(s.p, 0.75);
  EXPECT_DOUBLE_EQ(s.median_rounds, 250.0);  // of 100, 200, 300, infinity
  EXPECT_DOUBLE_EQ(s.mean_rounds, 200.0);
  EXPECT_NEAR(s.seconds_per_round, 1e-3, 1e-15);
  EXPECT_NEAR(s.tts_cap_rounds, 1000.0 * std::log(0.01) / std::log(0.25), 1e-9);
  EXPECT_NEAR(s.tts_cap_seconds, s.tts_cap_rounds * 1e-3, 1e-9);
  // r = 100: p = 1/4, 16.0 runs -> 1601 rounds; 200: p = 1/2, 6.64 -> 1329; 300: p = 3/4,
  // 3.32 -> 997: the best run length is 300.
  EXPECT_EQ(s.best_run_rounds, 300);
  EXPECT_NEAR(s.tts_best_rounds, 300.0 * std::log(0.01) / std::log(0.25), 1e-9);
  // Half or more missed: the median is beyond the cap.
  EXPECT_TRUE(std::isinf(hamon_perf::summarise({hit(10), miss(50)}, 50).median_rounds));
  EXPECT_TRUE(std::isinf(hamon_perf::summarise({miss(50), miss(50)}, 50).tts_cap_seconds));
}

}  // namespace
