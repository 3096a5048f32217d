#pragma once
// The run itself, after prepare_run has checked everything: tune when nrpt.tune asks for
// it (hamon::autotune, which resolves the device once for the whole flow and uses the
// tuning cache), sample in the space the decision names (Kokkos must be initialised),
// diagnose the result (health report, log Z), then write the run directory through a
// staging directory (output/run_directory.hpp): betas.npy, energies.npy,
// index_process.npy, samples.npy, and summary.yaml last.

#include <chrono>
#include <optional>
#include <string>

#include "hamon/core/diagnostics.hpp"
#include "hamon/core/nrpt.hpp"
#include "hamon/policies/autotune.hpp"
#include "hamon/policies/placement.hpp"
#include "run/observables.hpp"
#include "run/prepare_run.hpp"

namespace hamon::cli {

struct RunOutcome {
  NrptResult result;
  Observables observables;
  RunDiagnostics diagnostics;
  std::optional<Plan> plan;  // set when the run was tuned
  /// Where the run went: run.decision, or with tuning the plan's (the one autotune
  /// resolved and every run of the flow used; the same rule as run.decision).
  DeviceDecision decision;
  std::string execution_space;
  std::int32_t explore_sweeps = 1;  // as run (the plan's when tuned)
  std::string directory;
  double total_s = 0.0;
  double sampling_s = 0.0;  // the production run (tuning excluded)
};

/// `started`: when the command started (for timing.total_s). `progress`: draw the
/// progress display on stderr.
RunOutcome execute_run(const PreparedRun& run, bool progress,
                       std::chrono::steady_clock::time_point started);

}  // namespace hamon::cli
