// SPDX-License-Identifier: Apache-2.0
#pragma once
// Everything `hamon run` does before it creates anything, and all that `hamon validate`
// does: parse and check the file, apply the command-line overrides, build the model,
// make the NRPT options (and the autotune options when tuning is asked for), resolve the
// device once (a GPU asked for where none is fails here), and check the output directory.
// Any failure is a ConfigError (bad input). Nothing is tuned here.

#include <optional>
#include <string>

#include "config/experiment_config.hpp"
#include "hamon/core/model/spin_model.hpp"
#include "hamon/core/sampler/nrpt.hpp"
#include "hamon/policies/autotune.hpp"
#include "hamon/policies/device_spec.hpp"
#include "hamon/policies/placement.hpp"
#include "run/beta_max_auto.hpp"

namespace hamon::cli {

/// What may already be at the output directory.
enum class OutputPolicy {
  refuse_non_empty,  // an existing non-empty directory is an error
  replace_run,       // --overwrite: replace an earlier hamon run (one with summary.yaml)
  continue_run,      // resume / extend: the run directory is the run's own
};

struct PreparedRun {
  ExperimentConfig config;
  std::optional<SpinModel> model;  // always set after prepare_run
  /// Without tuning, the run's options. With tuning, the production run's base (burn-in,
  /// rounds, observers): the ladder and explore_sweeps are provisional until the plan.
  NrptOptions options;
  std::optional<AutotuneOptions> tuning;  // set when nrpt.tune asks for tuning
  /// With nrpt.gap_tol (beta_max: auto, or its resolved number): the estimate, already in
  /// config.nrpt.beta_max.
  std::optional<BetaMaxReport> beta_max;
  DeviceSpec device;  // config.device, parsed
  /// The device decision: for the run's options, or with tuning exactly the one autotune
  /// makes (the flow's largest work score: max_chains x free nodes when the chain count is
  /// tuned), so `validate` reports where a tuned run will go.
  DeviceDecision decision;
  OutputPolicy output_policy = OutputPolicy::refuse_non_empty;
};

/// From a file, or (demo) from text with a display name.
PreparedRun prepare_run(const std::string& config_path, const Overrides& overrides,
                        OutputPolicy policy);
/// From an experiment already parsed and resolved (an ensemble's instance).
PreparedRun prepare_run_from_config(ExperimentConfig config, OutputPolicy policy);
PreparedRun prepare_run_from_text(const std::string& text, const std::string& name,
                                  const Overrides& overrides, OutputPolicy policy);

}  // namespace hamon::cli
