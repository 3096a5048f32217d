// SPDX-License-Identifier: Apache-2.0
#pragma once
// SIGTERM, SIGINT and SIGUSR1 (which batch schedulers send before a time limit) ask a
// command that changes a run directory (`hamon run`, `resume`, `extend`, `train`, `demo`)
// to stop: whatever it is doing (reading files, tuning, sampling, training) ends at the
// next point where the run directory can be left resumable, a checkpoint is written and
// the command exits with kExitStopped. The handlers are installed before the command does
// any work, so no stop signal finds the default action (death, and a directory that cannot
// be resumed). After the first one SIGTERM and SIGINT get their default action back: a
// second Ctrl-C ends the process at once, for a user who will not wait for the checkpoint.
// SIGXFSZ is ignored, so a file-size limit turns into a write error (and a clear message),
// not a silent kill.

namespace hamon::cli {

/// Installs the handlers for the lifetime of the object (the earlier ones come back).
class StopSignals {
 public:
  /// `announce`: the first stop signal writes one line on stderr saying that the command
  /// is stopping (one process of a job over ranks says it).
  explicit StopSignals(bool announce);
  ~StopSignals();
  StopSignals(const StopSignals&) = delete;
  StopSignals& operator=(const StopSignals&) = delete;

  /// True once a stop signal arrived.
  static bool requested();
  /// The signal's name ("SIGTERM", ...), or "" when none arrived.
  static const char* which();
};

}  // namespace hamon::cli
