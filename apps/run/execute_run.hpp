#pragma once
// The run itself, after prepare_run has checked everything: sample in the space the
// decision names (Kokkos must be initialised), then write the run directory through a
// staging directory (output/run_directory.hpp): betas.npy, energies.npy,
// index_process.npy, samples.npy, and summary.yaml last.

#include <chrono>
#include <string>

#include "hamon/core/nrpt.hpp"
#include "run/observables.hpp"
#include "run/prepare_run.hpp"

namespace hamon::cli {

struct RunOutcome {
  NrptResult result;
  Observables observables;
  std::string execution_space;
  std::string directory;
  double total_s = 0.0;
  double sampling_s = 0.0;
};

/// `started`: when the command started (for timing.total_s). `progress`: draw the
/// progress display on stderr.
RunOutcome execute_run(const PreparedRun& run, bool progress,
                       std::chrono::steady_clock::time_point started);

}  // namespace hamon::cli
