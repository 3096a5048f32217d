// SPDX-License-Identifier: Apache-2.0
#pragma once
// The sections of an experiment file, each read by its own function (parse_*.cpp).
// Internal to apps/config.

#include <yaml-cpp/yaml.h>

#include <map>
#include <string>
#include <vector>

#include "config/experiment_config.hpp"
#include "config/yaml_reader.hpp"

namespace hamon::cli::detail {

/// `instance_file`, when not empty, is the graph file of the ensemble's first instance
/// (instances.files): the model section then gives the kind only.
ModelSpec parse_model(YamlReader& reader, const YAML::Node& node, const std::string& base_dir,
                      const std::string& instance_file = "");
/// `model: PATH`: the model section of the YAML file at PATH (resolved against
/// `base_dir`), read with that file's locations; its relative paths start from its directory.
ModelSpec parse_model_file(YamlReader& reader, const YAML::Node& node, const std::string& base_dir,
                           std::map<std::string, Location>& locations);
/// `instances: {files: [...] | PATTERN, count: K}` (parse_instances.cpp): the instances'
/// graph files, resolved, each an existing file.
std::vector<std::string> parse_instance_files(YamlReader& reader, const YAML::Node& node,
                                              const std::string& base_dir);
NrptSpec parse_nrpt(YamlReader& reader, const YAML::Node& node);
OutputSpec parse_output(YamlReader& reader, const YAML::Node& node);

}  // namespace hamon::cli::detail
