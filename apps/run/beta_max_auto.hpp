// SPDX-License-Identifier: Apache-2.0
#pragma once
// `nrpt.beta_max: auto`: beta_max estimated from the model's excitation costs
// (hamon::excitation_spectrum, hamon::estimate_beta_max) once the model is built and before
// the ladder is, so the ladder, the tuning and the resolved experiment all use the number.

#include <optional>
#include <string>

#include "config/experiment_config.hpp"
#include "hamon/core/model/spin_model.hpp"
#include "hamon/core/tuning/beta_max_estimate.hpp"

namespace hamon::cli {

/// The estimate and how its costs were read (ExcitationSpectrum::Method's name).
struct BetaMaxReport {
  BetaMaxEstimate estimate;         // at the run's beta_max
  double estimated_beta_max = 0.0;  // what the model asks for (estimate.beta_max with auto)
  std::string method;
};

/// With beta_max: auto, estimates beta_max and writes it into config.nrpt (beta_max_auto
/// cleared: config.yaml then holds the number, so resume and extend rebuild the same
/// ladder without estimating again). With gap_tol and a number (config.yaml of such a run),
/// describes that number by the same model. Without gap_tol: nullopt. A model with nothing
/// to estimate from, or an estimate not above beta_min, is a ConfigError at nrpt.beta_max.
std::optional<BetaMaxReport> resolve_beta_max(ExperimentConfig& config, const SpinModel& model);

}  // namespace hamon::cli
