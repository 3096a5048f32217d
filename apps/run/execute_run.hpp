// SPDX-License-Identifier: Apache-2.0
#pragma once
// The run itself, after prepare_run has checked everything (Kokkos must be initialised).
//
// start_run (`hamon run`): creates DIR.partial/ with config.yaml (the resolved experiment)
// and model/ (the realized model, run/realized_model.hpp),
// tunes when nrpt.tune asks for it (hamon::autotune on the decision prepare_run made, so
// the device is resolved once for the whole flow), then samples with a hamon::Sampler whose
// traces stream into DIR.partial's .npy files, writing a checkpoint at round 0, at the
// configured cadence (output.checkpoint) and at the end. continue_run (`hamon resume`,
// `hamon extend`) picks up DIR.partial from its last good checkpoint. Either way, when the
// last round is done: diagnose (health report, log Z), write betas.npy and summary.yaml,
// rename DIR.partial to DIR.
//
// A stop signal (run/stop_signals.hpp) ends the current round, writes a checkpoint and
// throws RunStopped (exit status 3): the run directory stays DIR.partial, resumable. One
// that came before sampling (while the model was built) throws at once, leaving config.yaml
// alone, which `hamon resume` starts from the beginning; one that comes while tuning takes
// effect when tuning is done, after the round-0 checkpoint (which keeps the plan).

#include <chrono>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>

#include "hamon/core/analysis/diagnostics.hpp"
#include "hamon/core/sampler/nrpt.hpp"
#include "hamon/core/tuning/search_diagnosis.hpp"
#include "hamon/policies/autotune.hpp"
#include "hamon/policies/placement.hpp"
#include "run/exit_status.hpp"
#include "run/observables.hpp"
#include "run/prepare_run.hpp"

namespace hamon::cli {

/// The run stopped on a signal and is resumable; what() says how.
class RunStopped : public std::runtime_error {
 public:
  /// `status`: the exit status (3: resumable; 1 when it cannot be resumed).
  explicit RunStopped(const std::string& what, int status = kExitStopped)
      : std::runtime_error(what), status_(status) {}
  int status() const { return status_; }

 private:
  int status_;
};

struct RunOutcome {
  NrptResult result;
  Observables observables;
  RunDiagnostics diagnostics;
  SearchDiagnosis search;    // what limits the run as a ground-state search
  std::optional<Plan> plan;  // set when the run was tuned
  /// Where the run went: the decision prepare_run made (tuning used the same one).
  DeviceDecision decision;
  std::string execution_space;
  std::int32_t explore_sweeps = 1;  // as run (the plan's when tuned)
  std::string directory;
  std::string resumed_from;  // the checkpoint continue_run started from
  double total_s = 0.0;
  double sampling_s = 0.0;    // sampling in this command (tuning excluded)
  double checkpoint_s = 0.0;  // of which writing checkpoints
  std::string ended_by;       // nrpt.until: "stable" or "max_rounds" (empty without until)
};

/// Where start_run puts the run: a fresh DIR.partial, or the DIR.partial of a run that
/// stopped before sampling (is_unstarted_run: `hamon resume` starts it again from the
/// beginning, tuning included; config.yaml says everything the run needs).
enum class StartIn { new_directory, interrupted_directory };

/// `started`: when the command started (for timing.total_s). `progress`: draw the
/// progress display on stderr.
RunOutcome start_run(const PreparedRun& run, bool progress,
                     std::chrono::steady_clock::time_point started,
                     StartIn where = StartIn::new_directory);

/// How continue_run finds the run.
enum class ContinueHow { resume, extend };

/// `run` was prepared from DIR.partial/config.yaml (resume) or DIR/config.yaml (extend, with
/// nrpt.rounds already raised). Throws CheckpointError (bad input: exit 2) when no good
/// checkpoint fits the configuration, before anything is changed.
RunOutcome continue_run(const PreparedRun& run, ContinueHow how, bool progress,
                        std::chrono::steady_clock::time_point started);

}  // namespace hamon::cli
