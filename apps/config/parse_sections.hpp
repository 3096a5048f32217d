// SPDX-License-Identifier: Apache-2.0
#pragma once
// The sections of an experiment file, each read by its own function (parse_*.cpp).
// Internal to apps/config.

#include <yaml-cpp/yaml.h>

#include <map>
#include <string>

#include "config/experiment_config.hpp"
#include "config/yaml_reader.hpp"

namespace hamon::cli::detail {

ModelSpec parse_model(YamlReader& reader, const YAML::Node& node, const std::string& base_dir);
/// `model: PATH`: the model section of the YAML file at PATH (resolved against
/// `base_dir`), read with that file's locations; its relative paths start from its directory.
ModelSpec parse_model_file(YamlReader& reader, const YAML::Node& node, const std::string& base_dir,
                           std::map<std::string, Location>& locations);
NrptSpec parse_nrpt(YamlReader& reader, const YAML::Node& node);
OutputSpec parse_output(YamlReader& reader, const YAML::Node& node);

}  // namespace hamon::cli::detail
