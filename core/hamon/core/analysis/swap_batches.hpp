// SPDX-License-Identifier: Apache-2.0
#pragma once
// Swap counters per batch of rounds, recovered exactly from a run's index process
// (ObserverOptions::index_process = true), so that one run can be read as consecutive
// batches (tune_schedule pools 50-round batches until Lambda is stable). Host side.
//
// Measured round k is global round burn_in + k and attempts the pairs (i, i+1) with
// i = (burn_in + k) mod 2, i + 2, ... (DEO). A pair swapped in round k exactly when the
// machine at chain i after the round is the one that was at chain i+1 before it. The
// permutation before measured round 0 is not recorded, so round 0's acceptances are the
// run's totals (NrptResult::swaps) minus those of the other rounds.

#include <cstdint>
#include <vector>

#include "hamon/core/sampler/nrpt.hpp"

namespace hamon {

struct SwapCounts {
  std::vector<std::int64_t> attempted;  // per pair
  std::vector<std::int64_t> accepted;
  std::int64_t rounds = 0;
};

/// Counters of the consecutive batches of `batch_rounds` measured rounds (the last batch
/// may be shorter). Throws std::invalid_argument when the run did not record its index
/// process or batch_rounds < 1. With several replicas the index process is replica 0's,
/// and so are the batches: its swaps after the first measured round (whose outcome only
/// the pooled counters know, mixed with the other replicas').
std::vector<SwapCounts> swap_counts_by_batch(const NrptResult& result, std::int64_t burn_in,
                                             std::int64_t batch_rounds);

/// a += b (same number of pairs).
void accumulate(SwapCounts& a, const SwapCounts& b);

}  // namespace hamon
