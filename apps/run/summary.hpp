// SPDX-License-Identifier: Apache-2.0
#pragma once
// summary.yaml: what ran (hamon version and build, the resolved config, the device
// decision, the model's size, the tuning when it ran) and what came out (ladder statistics,
// observables, the health report, log Z, timing).
// The schema is documented in examples/README.md and checked by tests/cli/check_run.py.

#include <yaml-cpp/yaml.h>

#include <string>

#include "config/experiment_config.hpp"
#include "hamon/core/analysis/diagnostics.hpp"
#include "hamon/core/model/spin_model.hpp"
#include "hamon/core/sampler/nrpt.hpp"
#include "hamon/core/tuning/search_diagnosis.hpp"
#include "hamon/policies/autotune.hpp"
#include "hamon/policies/placement.hpp"
#include "run/beta_max_auto.hpp"
#include "run/observables.hpp"

namespace hamon::cli {

struct Timing {
  double total_s = 0.0;       // the whole command, up to writing the summary
  double sampling_s = 0.0;    // the NRPT call (burn-in and measured rounds)
  double checkpoint_s = 0.0;  // of which writing checkpoints
};

struct SummaryInputs {
  const ExperimentConfig& config;
  const SpinModel& model;
  const DeviceDecision& decision;  // the one the run (and its tuning) used
  const std::string& execution_space;
  const NrptResult& result;
  std::int32_t explore_sweeps;  // as run
  const Observables& observables;
  const RunDiagnostics& diagnostics;
  const Plan* plan;  // the tuned plan, or nullptr when the run was not tuned
  const std::optional<BetaMaxReport>& beta_max;  // with nrpt.gap_tol
  const SearchDiagnosis& search;
  Timing timing;
  std::string ended_by;  // what ended a run of nrpt.until (empty: a run of fixed length)
};

std::string summary_yaml(const SummaryInputs& in);

/// The summary's first block, `hamon: {version, build}`, of a sampling and of a training
/// run alike: what marks a run directory as hamon's (output/run_files.hpp).
void emit_hamon_block(YAML::Emitter& out);

/// "3.4.1" from KOKKOS_VERSION.
std::string kokkos_version();

/// hamon::build_backends split into a list ("SERIAL;OPENMP" -> {SERIAL, OPENMP}).
std::vector<std::string> build_backend_list();

}  // namespace hamon::cli
