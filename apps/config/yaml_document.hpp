// SPDX-License-Identifier: Apache-2.0
#pragma once
// Reading a YAML configuration file (an experiment, a training run): the file's text, its
// document with located errors, and the directory its relative paths start from.
#include <yaml-cpp/yaml.h>

#include <string>

#include "config/config_error.hpp"

namespace hamon::cli {

/// The text of `path`; ConfigError at `path` when it is missing, a directory or unreadable
/// (`what` names the kind of file in the message).
std::string read_config_file(const std::string& path, const std::string& what);

/// The document of `text` (from file `name`). Invalid YAML is a ConfigError at the
/// error's line and column (an unclosed '[' or '{': at its opener).
YAML::Node load_yaml_document(const std::string& text, const std::string& name);

/// Where `mark` (a yaml-cpp position in file `name`) points, 1-based, named `key`; line
/// and column 0 when yaml-cpp does not know.
Location mark_location(const std::string& name, const YAML::Mark& mark, const std::string& key);

/// The error for a document of file `name` that yaml-cpp loaded but fails to walk (`e`),
/// at the place `e` names.
ConfigError unreadable_document(const std::string& name, const YAML::Exception& e);

/// The directory relative paths in `path` start from ("." for a bare file name).
std::string config_base_dir(const std::string& path);

/// `path` as written, or joined to `base_dir` when relative.
std::string resolve_path(const std::string& base_dir, const std::string& path);

}  // namespace hamon::cli
