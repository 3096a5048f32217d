// SPDX-License-Identifier: Apache-2.0
#pragma once
// Everything between "the sampler exists" and "the run directory is committed": the rounds
// with their due saves and stops, then the run directory's last files (betas, summary) and
// the commit. Shared by a new run and a continued one (execute_run.cpp).

#include <chrono>
#include <cstdint>
#include <map>
#include <optional>
#include <string>

#include "hamon/core/sampler/nrpt.hpp"
#include "hamon/core/sampler/sampler.hpp"
#include "hamon/policies/autotune.hpp"
#include "output/npy_stream.hpp"
#include "output/progress_display.hpp"
#include "output/run_directory.hpp"
#include "run/execute_run.hpp"

namespace hamon::cli {

using RunClock = std::chrono::steady_clock;

double seconds_since(RunClock::time_point start);

/// Ends the progress line however the run ends.
struct FinishOnExit {
  ProgressDisplay& display;
  ~FinishOnExit() { display.finish(); }
};

/// The production run: its options, its plan when tuned, the sampler's identity.
struct Production {
  NrptOptions options;
  std::optional<Plan> plan;
  std::map<std::string, std::string> attachments;
};

/// Everything between "the sampler exists" and "the run directory is committed". In a job
/// over ranks every rank drives its sampler (the sampler's calls are collective); only
/// rank 0 has the run directory (`dir`, null elsewhere) and shows progress.
class Driver {
 public:
  Driver(const PreparedRun& run, RunDirectory* dir, Production production, bool progress);
  Driver(const Driver&) = delete;
  Driver& operator=(const Driver&) = delete;

  /// The production options (with the progress display attached).
  const NrptOptions& options() const { return production_.options; }

  /// Runs the rounds left, saving when due and stopping on a signal, then finishes the run.
  /// `Value`: the variables' storage (std::int8_t, or double for continuous models).
  template <class Value>
  RunOutcome drive(SamplerBaseOf<Value>& sampler, RunTraceFiles* traces,
                   RunClock::time_point started, RunOutcome outcome);

  /// Collective over ranks (the state gathers to rank 0, which writes it).
  template <class Value>
  void save(SamplerBaseOf<Value>& sampler);

 private:
  template <class Value>
  [[noreturn]] void stop(SamplerBaseOf<Value>& sampler, const std::string& signal);
  template <class Value>
  RunOutcome finish(SamplerBaseOf<Value>& sampler, RunTraceFiles* traces,
                    RunClock::time_point started, RunOutcome outcome);
  /// nrpt.until: the rounds (burn-in included) of the first chunk to run from `rounds_done`;
  /// without until, the run's end.
  std::int64_t first_target(std::int64_t rounds_done) const;
  /// nrpt.until at a chunk boundary: "stable", "max_rounds", or "" to run another chunk.
  template <class Value>
  std::string until_verdict(SamplerBaseOf<Value>& sampler) const;

  const PreparedRun& run_;
  RunDirectory* dir_;
  Production production_;
  ProgressDisplay display_;
  double checkpoint_s_ = 0.0;
  std::int64_t saved_round_ = -1;  // the round of the last checkpoint this process wrote
};

}  // namespace hamon::cli
