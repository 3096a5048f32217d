// SPDX-License-Identifier: Apache-2.0
#pragma once
// The two kinds of configuration file, and the command that takes each: an experiment
// (`hamon run`, sampled) and a training file (`hamon train`, a top-level `train:`).
// Handing one to the other command's parser would complain about its keys one at a
// time; the kind is recognised first, and the error names the command that takes it.

#include <yaml-cpp/yaml.h>

#include <string>

namespace hamon::cli {

enum class ConfigKind { experiment, training };

/// The kind of a loaded document: a training file has a top-level `train`.
ConfigKind config_kind(const YAML::Node& root);

/// The kind of the file at `path` (read and loaded; ConfigError as a parser's when it
/// cannot be). `validate` takes either kind.
ConfigKind config_file_kind(const std::string& path);

/// A ConfigError at the top-level key that gives the kind away (train, or nrpt / model)
/// when `root` (from file `name`) is not of kind `expected`, naming the command for it.
void require_config_kind(const YAML::Node& root, const std::string& name, ConfigKind expected);

/// The document of `text` (file `name`) as a file of kind `expected`: a ConfigError at 1:1
/// saying `empty` when the document is empty, and as require_config_kind when it is of
/// the other kind.
YAML::Node load_config_document(const std::string& text, const std::string& name,
                                ConfigKind expected, const std::string& empty);

}  // namespace hamon::cli
