// SPDX-License-Identifier: Apache-2.0
#pragma once
// The forms of value every model kind reads (model_values.cpp): a distribution, a list of
// numbers (a scalar, inline, or {file: PATH}), and a file named by the experiment.
// Internal to apps/config.

#include <yaml-cpp/yaml.h>

#include <cstdint>
#include <string>

#include "config/experiment_config.hpp"
#include "config/yaml_reader.hpp"

namespace hamon::cli::detail {

/// A number (a constant) or {distribution: constant | pm_one | gaussian, ...}.
ValueDistribution parse_distribution(YamlReader& reader, const YAML::Node& node,
                                     const std::string& path);

/// A scalar, an inline list (with `nested_rows`, rows of lists are flattened) or
/// {file: PATH}.
ValuesSpec parse_values(YamlReader& reader, const YAML::Node& node, const std::string& path,
                        const std::string& base_dir, bool nested_rows);

/// An inline list must have `expected` values (`what` says why in the message).
void check_count(const YamlReader& reader, const ValuesSpec& values, const std::string& path,
                 std::int64_t expected, const std::string& what);

/// The file `node` names (at `path`), resolved against `base_dir`; an error when it is not
/// a regular file. `what` names the kind of file in the message ("" or "graph file ").
std::string existing_file(YamlReader& reader, const YAML::Node& node, const std::string& path,
                          const std::string& base_dir, const std::string& what);

}  // namespace hamon::cli::detail
