// SPDX-License-Identifier: Apache-2.0
#pragma once
// The sections of an experiment file, each read by its own function (parse_*.cpp).
// Internal to apps/config.

#include <yaml-cpp/yaml.h>

#include <string>

#include "config/experiment_config.hpp"
#include "config/yaml_reader.hpp"

namespace hamon::cli::detail {

ModelSpec parse_model(YamlReader& reader, const YAML::Node& node, const std::string& base_dir);
NrptSpec parse_nrpt(YamlReader& reader, const YAML::Node& node);
OutputSpec parse_output(YamlReader& reader, const YAML::Node& node);

}  // namespace hamon::cli::detail
