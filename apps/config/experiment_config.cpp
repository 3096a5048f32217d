// SPDX-License-Identifier: Apache-2.0
#include "config/experiment_config.hpp"

namespace hamon::cli {

std::string kind_of(const ModelSpec& model) {
  switch (model.index()) {
    case 0:
      return "lattice";
    case 1:
      return "graph";
    case 2:
      return "rbm";
    case 3:
      return to_string(std::get<ContinuousSpec>(model).kind);
    default:
      return kind_name(std::get<ObjectiveSpec>(model).terms.format);
  }
}

Location ExperimentConfig::where(const std::string& key) const {
  return locate(locations, key, Location{file, 0, 0, ""});
}

void ExperimentConfig::fail(const std::string& key, const std::string& message) const {
  throw ConfigError(where(key), message);
}

}  // namespace hamon::cli
