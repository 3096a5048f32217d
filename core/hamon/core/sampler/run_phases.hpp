// SPDX-License-Identifier: Apache-2.0
#pragma once
// The phases of an NRPT run, as round numbers (host side, from the options alone):
//   [0, burn_in)   burn-in. With adapt_schedule it holds P adaptation segments, each
//                  ended by a ladder update on that segment's swap counters, then one
//                  settling segment on the final ladder (no update), so measurement never
//                  starts right after the ladder moved;
//   [burn_in, ..)  measurement: counters reset at its start, observers on.
// P = min(adapt_phases, burn_in / kMinAdaptationRounds - 1): every segment holds at least
// kMinAdaptationRounds rounds (shorter ones estimate rejection rates too noisily to move a
// ladder), and there is no adaptation at all when burn_in < 2 kMinAdaptationRounds or the
// ladder has fewer than 3 chains.

#include <cstdint>
#include <vector>

#include "hamon/core/sampler/nrpt.hpp"

namespace hamon {

inline constexpr std::int64_t kMinAdaptationRounds = 50;

struct RunPhases {
  std::int64_t burn_in = 0;
  /// After these rounds (rounds_done values, ascending, all < burn_in) the ladder is
  /// updated.
  std::vector<std::int64_t> ladder_updates;
};

RunPhases run_phases(const NrptOptions& options);

}  // namespace hamon
