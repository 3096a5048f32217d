// SPDX-License-Identifier: Apache-2.0
#include "config/config_kind.hpp"

#include <optional>

#include "config/config_error.hpp"
#include "config/yaml_document.hpp"

namespace hamon::cli {

namespace {

/// Where the top-level `key` of `root` is written; nullopt when it is absent.
std::optional<Location> key_location(const YAML::Node& root, const std::string& name,
                                     const char* key) {
  if (!root.IsMap()) return std::nullopt;
  for (auto it = root.begin(); it != root.end(); ++it) {
    if (!it->first.IsScalar() || it->first.Scalar() != key) continue;
    return mark_location(name, it->first.Mark(), key);
  }
  return std::nullopt;
}

}  // namespace

ConfigKind config_kind(const YAML::Node& root) {
  return root.IsMap() && root["train"] ? ConfigKind::training : ConfigKind::experiment;
}

ConfigKind config_file_kind(const std::string& path) {
  return config_kind(load_yaml_document(read_config_file(path, "experiment file"), path));
}

void require_config_kind(const YAML::Node& root, const std::string& name, ConfigKind expected) {
  if (config_kind(root) == expected) return;
  if (expected == ConfigKind::experiment) {
    throw ConfigError(*key_location(root, name, "train"),
                      "this is a training file: `hamon train " + name +
                          "` trains it (`hamon run` samples an experiment file)");
  }
  // An experiment file says so by its nrpt section or its model at the top level.
  for (const char* key : {"nrpt", "model"}) {
    if (const auto at = key_location(root, name, key)) {
      throw ConfigError(*at, "this is an experiment file: `hamon run " + name +
                                 "` samples it (`hamon train` takes a training file, with "
                                 "a top-level train section)");
    }
  }
}

YAML::Node load_config_document(const std::string& text, const std::string& name,
                                ConfigKind expected, const std::string& empty) {
  YAML::Node root = load_yaml_document(text, name);
  if (root.IsNull()) throw ConfigError(Location{name, 1, 1, ""}, empty);
  require_config_kind(root, name, expected);
  return root;
}

}  // namespace hamon::cli
