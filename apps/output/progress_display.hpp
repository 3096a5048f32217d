// SPDX-License-Identifier: Apache-2.0
#pragma once
// A one-line progress display on stderr, redrawn in place: rounds done, rate, the current
// Lambda and minimum pair acceptance, ETA (or a note, such as what is being tuned). Enabled
// only when stderr is a terminal and --quiet was not given, so job logs get nothing but
// errors.

#include <chrono>
#include <cstdint>
#include <string>

#include "hamon/core/sampler/nrpt.hpp"

namespace hamon::cli {

class ProgressDisplay {
 public:
  explicit ProgressDisplay(bool enabled);

  bool enabled() const { return enabled_; }

  /// How often the engine should report: about every 1/500 of the run (each report
  /// copies the swap counters to the host).
  static std::int64_t report_every(std::int64_t total_rounds);

  /// The NrptOptions::on_progress callback. Redraws at most ~10 times a second.
  void update(const Progress& progress);

  /// Draws `text` in place of the line (what happens before the rounds, e.g. tuning).
  void note(const std::string& text);

  /// Ends the line (call after the run, also on failure).
  void finish();

 private:
  using clock = std::chrono::steady_clock;
  bool enabled_;
  bool drawn_ = false;
  clock::time_point start_;
  clock::time_point last_draw_;
};

/// Whether stderr is a terminal.
bool stderr_is_terminal();

}  // namespace hamon::cli
