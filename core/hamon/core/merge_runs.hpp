#pragma once
// Pooling two NRPT runs on the same ladder into one result (what Plan::extend returns).
// The engine cannot resume a run, so an extension is a further independent run on the same
// ladder (its own burn-in, its own seed); its counted rounds are pooled with the earlier
// ones: swap counters, round trips and restarts add up, per-round traces (energies,
// samples, index process) are concatenated, moments are combined by sample-weighted means
// (standard errors combined as independent), the final state is the later run's.

#include "hamon/core/nrpt.hpp"

namespace hamon {

/// `earlier` followed by `later`. Throws std::invalid_argument when the ladders differ or
/// the two runs recorded different observers.
NrptResult merge_runs(const NrptResult& earlier, const NrptResult& later);

}  // namespace hamon
