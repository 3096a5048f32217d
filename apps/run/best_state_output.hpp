// SPDX-License-Identifier: Apache-2.0
#pragma once
// The run's best state in its outputs: summary.yaml's `search:` entries that say what the
// search found, and best_state.npy (the best configuration of every machine and round, its
// variables as samples.npy stores them: int8 +-1 spins, uint8 Potts states, float64 values
// of continuous models).

#include <yaml-cpp/yaml.h>

#include <ostream>
#include <string>

#include "hamon/core/sampler/nrpt.hpp"

namespace hamon::cli {

/// best_energy, found_round, found_beta, round_trips_since_improvement[, ended_by], into the
/// open `search` map. `ended_by` is empty for a run of a fixed length.
void emit_best_entries(YAML::Emitter& out, const NrptResult& r, const std::string& ended_by);

/// best_state.npy: the n_nodes variables of r.best_state (continuous: best_real_state), one
/// row.
void write_best_state(std::ostream& out, const NrptResult& r, const SpinModel& model);

}  // namespace hamon::cli
