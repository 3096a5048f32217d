// SPDX-License-Identifier: Apache-2.0
#pragma once
// An ensemble (`instances: K`, K > 1): K disorder realisations (run/instance_config.hpp)
// run in turn, each a complete run directory DIR.partial/instances/k made by the single
// run's own code (start_run, continue_run), then the ensemble's tables and summary.yaml
// (run/ensemble_summary.hpp), then DIR.partial renamed to DIR.
//
// Resumable like one run: a stop signal ends the current instance resumable (its own
// instances/k.partial) and exits with kExitStopped; `hamon resume DIR` keeps the finished
// instances, continues the interrupted one from its checkpoint and runs the rest, with the
// bytes of an uninterrupted ensemble. Any failure leaves DIR as it was (DIR.partial holds
// the work so far).
//
// Under mpirun the ranks split into G = min(ranks, K) groups (rank r in group r mod G,
// MpiJob::split), group g running instances g, g + G, ... whole, as the current job
// (MpiJob::Scope): a group of one rank takes the one-process path, a larger one spreads an
// instance's ladder over its ranks. With replicas (overlaps, Houdayer moves) a ladder's
// replicas must share a process: every group is then one rank, and ranks beyond the K-th
// wait. The groups meet again only when all are done; rank 0 writes the ensemble's files.
// Each instance's bytes are rank-count independent, so the ensemble's are.

#include <chrono>

#include "run/ensemble_health.hpp"
#include "run/prepare_run.hpp"

namespace hamon::cli {

struct EnsembleOutcome {
  std::string directory;
  std::int32_t instances = 0;
  std::int32_t already_done = 0;  // finished before this command (a resume)
  std::int32_t idle_ranks = 0;    // ranks that ran nothing (replicas need whole ladders)
  EnsembleHealth health;          // the instances' (rank 0's; empty elsewhere)
};

/// `ensemble`: prepared from the experiment (a new run) or from DIR.partial/config.yaml
/// (`resume`). Kokkos must be initialised.
EnsembleOutcome run_ensemble(const PreparedRun& ensemble, bool resume, bool progress,
                             std::chrono::steady_clock::time_point started);

}  // namespace hamon::cli
