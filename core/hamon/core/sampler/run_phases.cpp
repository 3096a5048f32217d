// SPDX-License-Identifier: Apache-2.0
#include "hamon/core/sampler/run_phases.hpp"

#include <algorithm>

namespace hamon {

RunPhases run_phases(const NrptOptions& options) {
  RunPhases phases;
  phases.burn_in = options.burn_in;
  const auto n_chains = static_cast<std::int64_t>(ladder_of(options).size());
  if (!options.adapt_schedule || n_chains < 3) return phases;
  const std::int64_t updates =
      std::min<std::int64_t>(options.adapt_phases, options.burn_in / kMinAdaptationRounds - 1);
  for (std::int64_t p = 0; p < updates; ++p) {
    phases.ladder_updates.push_back(options.burn_in * (p + 1) / (updates + 1));
  }
  return phases;
}

}  // namespace hamon
