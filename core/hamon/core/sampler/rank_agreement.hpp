// SPDX-License-Identifier: Apache-2.0
#pragma once
// Every rank of a run reads its own copy of the experiment and of the checkpoint it resumes.
// A rank that read another (a file edited while the job started, a stale copy on one node's
// disk) would sample other bits, or wait in a collective the others never make. So before
// the first round the ranks compare fingerprints of what they read (one all_gather) and all
// stop together with an error that names the ranks that differ from rank 0.

#include <cstdint>
#include <string>
#include <vector>

#include "hamon/core/sampler/machine_exchange.hpp"
#include "hamon/core/state/sampler_state.hpp"

namespace hamon {

/// One input that every rank must hold alike: what it is ("model", "checkpoint": the
/// message says "in the <what>"), and its fingerprint on this rank.
struct RankInput {
  std::string what;
  std::uint64_t fingerprint = 0;
};

/// "" when every rank's fingerprints are rank 0's; else one clause per input that differs,
/// e.g. "ranks 1 and 3 differ from rank 0 in the model; rank 2 in the options".
/// `per_rank[r]`: rank r's fingerprints, one per entry of `what`.
std::string rank_differences(const std::vector<std::string>& what,
                             const std::vector<std::vector<std::uint64_t>>& per_rank);

/// Collective (one all_gather): returns when every rank holds rank 0's `inputs`, else
/// throws std::invalid_argument, with the same message on every rank, naming the ranks
/// that differ and in what. Every rank must pass inputs of the same names. Without an
/// exchange (one process) there is nothing to compare.
void require_same_on_every_rank(MachineExchange* exchange, const std::vector<RankInput>& inputs);

/// A fingerprint of every field of `state` (its field list: the round, the ladder, every
/// machine's spins and records, moments and traces).
std::uint64_t state_fingerprint(const SamplerState& state);
/// The same for a continuous model's state.
std::uint64_t state_fingerprint(const SamplerStateOf<double>& state);

}  // namespace hamon
