// SPDX-License-Identifier: Apache-2.0
#pragma once
// ExperimentConfig -> YAML in the input's own shape, every default filled in and every
// override applied, model files as absolute paths: the "resolved config" a run records.
// It is itself a valid experiment file (tests/cli checks that it validates).

#include <yaml-cpp/yaml.h>

#include <string>

#include "config/experiment_config.hpp"

namespace hamon::cli {

/// Emits the config as one mapping value.
void emit_experiment(YAML::Emitter& out, const ExperimentConfig& config);

/// The config as a YAML document (config.yaml's bytes).
std::string resolved_config(const ExperimentConfig& config);

}  // namespace hamon::cli
