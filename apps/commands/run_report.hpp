// SPDX-License-Identifier: Apache-2.0
#pragma once
// What `run` and `demo` print on stdout when a run is complete: where the results are and
// the headline numbers (the summary has everything).

#include <ostream>

#include "run/execute_ensemble.hpp"
#include "run/execute_run.hpp"
#include "run/prepare_run.hpp"

namespace hamon::cli {

/// One paragraph; `detailed` adds the ladder and per-pair acceptance (the demo).
void print_run_report(std::ostream& out, const PreparedRun& run, const RunOutcome& outcome,
                      bool detailed);

/// An ensemble's few lines: where it is and how many instances ran.
void print_ensemble_report(std::ostream& out, const EnsembleOutcome& outcome);

/// One line for `validate`: what would run, and where.
void print_validation_report(std::ostream& out, const PreparedRun& run);

}  // namespace hamon::cli
