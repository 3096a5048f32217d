// SPDX-License-Identifier: Apache-2.0
#pragma once
// The evidence diagnose_search judges a run by (hamon/core/tuning/search_diagnosis.hpp), read from
// what a run has: its swap statistics and round trips, the energies trace (when recorded:
// the best energy over all chains round by round, and the cold chain's energies), the cold
// chain's effective sample size, and the beta_max estimate when the run made one.

#include <cstdint>
#include <optional>

#include "hamon/core/analysis/diagnostics.hpp"
#include "hamon/core/sampler/nrpt.hpp"
#include "hamon/core/tuning/search_diagnosis.hpp"
#include "run/beta_max_auto.hpp"

namespace hamon::cli {

/// The best energy's history comes from NrptResult::energies (rows of measured rounds, by
/// temperature: a round improves it when its lowest energy over the chains is below every
/// earlier round's by more than 1e-9 |E|) and ends at the tracked best state (exact, over
/// every replica and burn-in, with the round trips counted when it was found; on the annealing
/// path, whose trace is E - E_ref, it is the whole history). The round
/// trips at the trace's earlier improvements are not counted; diagnose_search shares them
/// out evenly. `burn_in`: the rounds before measurement (the best state's round counts them).
SearchEvidence search_evidence(const NrptResult& result, std::int64_t burn_in,
                               std::int32_t explore_sweeps, const RunDiagnostics& diagnostics,
                               const std::optional<BetaMaxReport>& beta_max);

}  // namespace hamon::cli
