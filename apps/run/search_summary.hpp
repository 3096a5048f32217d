// SPDX-License-Identifier: Apache-2.0
#pragma once
// summary.yaml's `search:` entries that judge a ground-state search: the beta_max estimate
// (when the run made one) and the diagnosis of what limits the search. Each writes one key
// and its value into the open `search` map.

#include <yaml-cpp/yaml.h>

#include "config/experiment_config.hpp"
#include "hamon/core/tuning/search_diagnosis.hpp"
#include "run/beta_max_auto.hpp"

namespace hamon::cli {

/// beta_max_estimate: {beta_max, predicted_excess_energy, Lambda, n_chains, energy_scale,
/// gap_tol, estimated_beta_max, method}
void emit_beta_max_estimate(YAML::Emitter& out, const BetaMaxReport& report);

/// diagnosis: {verdict, confidence, reasons, recommended: {extra_rounds, n_chains,
/// explore_sweeps, beta_max}} (a recommendation not made is null).
void emit_search_diagnosis(YAML::Emitter& out, const SearchDiagnosis& diagnosis);

/// Whether a run asked for a ground-state search: nrpt.until (stop once the best energy is
/// stable) or a beta_max estimate (gap_tol, set by beta_max: auto).
bool asked_for_search(const NrptSpec& nrpt);

/// The diagnosis as a run reports it: its advice (`recommended`) kept only where the run
/// asked for a search (`asked`: nrpt.until or a beta_max estimate) or the verdict is
/// confident ("high"), and never for a continuous model, which has no discrete ground state
/// to search for; a withheld advice leaves a reason saying why.
SearchDiagnosis reported_diagnosis(SearchDiagnosis diagnosis, bool asked, bool continuous);

/// Whether the run report prints the search line: for a run that asked for a search, or
/// with advice to give.
bool search_line_shown(const SearchDiagnosis& diagnosis, bool asked);

/// "beta_limited (high); for a lower energy, try beta_max 3.2" for the run report.
std::string search_diagnosis_line(const SearchDiagnosis& diagnosis);

}  // namespace hamon::cli
