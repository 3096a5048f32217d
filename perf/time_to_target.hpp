// SPDX-License-Identifier: Apache-2.0
#pragma once
// The statistics of a time-to-target measurement (time_to_target.cpp): per seed, whether
// the run reached the target within the round cap, and after how many rounds and seconds;
// over seeds, the success probability, the median and mean, and the time to solution with
// 99 % confidence as the Ising-machine literature defines it (e.g. Ronnow et al., Science
// 345, 420 (2014); Hamerly et al., Sci. Adv. 5, eaau0823 (2019)):
//
//   TTS(99 %) = t_run * R,   R = ln(1 - 0.99) / ln(1 - p_s),
//
// the time of R independent runs of length t_run, each succeeding with probability p_s,
// so that at least one succeeds with probability 0.99. R is taken as 1 when p_s >= 0.99
// (one run is needed at least) and is infinite when p_s = 0.

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

namespace hamon_perf {

struct SeedRun {
  bool hit = false;
  std::int64_t rounds = 0;   // rounds until the target (hit), else the rounds run
  double seconds = 0.0;      // seconds until the target (hit), else the seconds run
  double lowest = 0.0;       // the lowest energy any chain visited
  double seconds_run = 0.0;  // the whole run's wall time
  std::int64_t rounds_run = 0;
};

/// R of the formula above.
inline double repetitions_99(double p) {
  if (p >= 0.99) return 1.0;
  if (p <= 0.0) return std::numeric_limits<double>::infinity();
  return std::log(1.0 - 0.99) / std::log1p(-p);
}

struct TargetSummary {
  int seeds = 0;
  int hits = 0;
  double p = 0.0;  // hits / seeds
  // Over every seed, a miss counting as infinitely long: infinite when half or more missed.
  double median_rounds = 0.0;
  double median_seconds = 0.0;
  // Over the seeds that hit (NaN when none did).
  double mean_rounds = 0.0;
  double mean_seconds = 0.0;
  double seconds_per_round = 0.0;  // all seeds' seconds over all their rounds
  // TTS(99 %) with t_run = the round cap (in rounds, and in seconds at seconds_per_round).
  double tts_cap_rounds = 0.0;
  double tts_cap_seconds = 0.0;
  // TTS(99 %) at the best run length r* <= cap: min over r of r R(p(r)), p(r) = the share
  // of seeds that hit within r rounds (r runs over the seeds' hit rounds).
  std::int64_t best_run_rounds = 0;
  double tts_best_rounds = 0.0;
  double tts_best_seconds = 0.0;
};

inline double median_of(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  if (n == 0) return std::numeric_limits<double>::quiet_NaN();
  return n % 2 == 1 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

inline TargetSummary summarise(const std::vector<SeedRun>& runs, std::int64_t cap) {
  constexpr double kInf = std::numeric_limits<double>::infinity();
  TargetSummary s;
  s.seeds = static_cast<int>(runs.size());
  std::vector<double> rounds, seconds;
  std::vector<std::int64_t> hit_rounds;
  double sum_rounds = 0.0, sum_seconds = 0.0, all_seconds = 0.0, all_rounds = 0.0;
  for (const SeedRun& r : runs) {
    all_seconds += r.seconds_run;
    all_rounds += static_cast<double>(r.rounds_run);
    rounds.push_back(r.hit ? static_cast<double>(r.rounds) : kInf);
    seconds.push_back(r.hit ? r.seconds : kInf);
    if (!r.hit) continue;
    ++s.hits;
    sum_rounds += static_cast<double>(r.rounds);
    sum_seconds += r.seconds;
    hit_rounds.push_back(r.rounds);
  }
  s.p = s.seeds > 0 ? static_cast<double>(s.hits) / s.seeds : 0.0;
  s.median_rounds = median_of(rounds);
  s.median_seconds = median_of(seconds);
  s.mean_rounds = s.hits > 0 ? sum_rounds / s.hits : std::numeric_limits<double>::quiet_NaN();
  s.mean_seconds = s.hits > 0 ? sum_seconds / s.hits : std::numeric_limits<double>::quiet_NaN();
  s.seconds_per_round = all_rounds > 0.0 ? all_seconds / all_rounds : 0.0;
  s.tts_cap_rounds = static_cast<double>(cap) * repetitions_99(s.p);
  s.tts_cap_seconds = s.tts_cap_rounds * s.seconds_per_round;
  s.tts_best_rounds = kInf;
  std::sort(hit_rounds.begin(), hit_rounds.end());
  for (std::size_t k = 0; k < hit_rounds.size(); ++k) {
    if (k + 1 < hit_rounds.size() && hit_rounds[k + 1] == hit_rounds[k]) continue;
    const double p = static_cast<double>(k + 1) / s.seeds;
    const double tts = static_cast<double>(hit_rounds[k]) * repetitions_99(p);
    if (tts < s.tts_best_rounds) {
      s.tts_best_rounds = tts;
      s.best_run_rounds = hit_rounds[k];
    }
  }
  s.tts_best_seconds = s.tts_best_rounds * s.seconds_per_round;
  return s;
}

}  // namespace hamon_perf
