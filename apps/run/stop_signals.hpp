// SPDX-License-Identifier: Apache-2.0
#pragma once
// SIGTERM, SIGINT and SIGUSR1 (which batch schedulers send before a time limit) ask a
// running `hamon run` / `resume` / `extend` to stop: the current round finishes, a
// checkpoint is written and the command exits with kExitStopped. SIGXFSZ is ignored, so a
// file-size limit turns into a write error (and a clear message), not a silent kill.

namespace hamon::cli {

/// Installs the handlers for the lifetime of the object (the earlier ones come back).
class StopSignals {
 public:
  StopSignals();
  ~StopSignals();
  StopSignals(const StopSignals&) = delete;
  StopSignals& operator=(const StopSignals&) = delete;

  /// True once a stop signal arrived.
  static bool requested();
  /// The signal's name ("SIGTERM", ...), or "" when none arrived.
  static const char* which();
};

}  // namespace hamon::cli
