// SPDX-License-Identifier: Apache-2.0
#include "run/ensemble_health.hpp"

#include <algorithm>

namespace hamon::cli {

void EnsembleHealth::add(std::int64_t k, const YAML::Node& health) {
  ++instances;
  if (!health || !health.IsMap()) {
    ++unchecked;
    return;
  }
  const std::string overall_status = health["overall"] ? health["overall"].as<std::string>() : "";
  failed += overall_status == "fail" ? 1 : 0;
  warned += overall_status == "warn" ? 1 : 0;
  const YAML::Node list = health["checks"];
  if (!list || !list.IsMap()) return;
  for (const auto& entry : list) {
    const YAML::Node status_node = entry.second["status"];
    const std::string status = status_node ? status_node.as<std::string>() : "";
    if (status != "fail" && status != "warn") continue;
    const auto name = entry.first.as<std::string>();
    auto it =
        std::find_if(checks.begin(), checks.end(), [&](const Check& c) { return c.name == name; });
    if (it == checks.end()) it = checks.insert(checks.end(), Check{name, 0, 0, {}});
    (status == "fail" ? it->failed : it->warned) += 1;
    it->instances.push_back(k);
  }
}

std::string EnsembleHealth::overall() const {
  if (failed > 0) return "fail";
  return warned > 0 || unchecked > 0 ? "warn" : "pass";
}

void EnsembleHealth::emit(YAML::Emitter& out) const {
  out << YAML::Key << "health" << YAML::Value << YAML::BeginMap;
  out << YAML::Key << "overall" << YAML::Value << overall();
  out << YAML::Key << "failed" << YAML::Value << failed;
  out << YAML::Key << "warned" << YAML::Value << warned;
  out << YAML::Key << "unchecked" << YAML::Value << unchecked;
  out << YAML::Key << "checks" << YAML::Value << YAML::BeginMap;
  for (const Check& c : checks) {
    out << YAML::Key << c.name << YAML::Value << YAML::Flow << YAML::BeginMap;
    out << YAML::Key << "fail" << YAML::Value << c.failed;
    out << YAML::Key << "warn" << YAML::Value << c.warned;
    out << YAML::Key << "instances" << YAML::Value << YAML::Flow << c.instances;
    out << YAML::EndMap;
  }
  out << YAML::EndMap;
  // The averages below are over every instance, the failed ones included.
  out << YAML::Key << "averages_include_failed" << YAML::Value << failed;
  out << YAML::EndMap;
}

std::string EnsembleHealth::line() const {
  const std::string of = " of " + std::to_string(instances) + " instances";
  if (overall() == "pass") return "pass (every instance)";
  std::string text = overall() + ": ";
  if (failed > 0) text += std::to_string(failed) + of + " failed";
  if (warned > 0) text += (failed > 0 ? ", " : "") + std::to_string(warned) + of + " warned";
  if (unchecked > 0) {
    text += (failed + warned > 0 ? ", " : "") + std::to_string(unchecked) + of +
            " without a health check";
  }
  std::string flagged;
  for (const Check& c : checks) {
    flagged += (flagged.empty() ? "" : ", ") + c.name + " " +
               (c.failed > 0 ? std::to_string(c.failed) + " fail" : "") +
               (c.failed > 0 && c.warned > 0 ? " " : "") +
               (c.warned > 0 ? std::to_string(c.warned) + " warn" : "");
  }
  if (!flagged.empty()) text += " (" + flagged + ")";
  if (failed > 0) text += "; the disorder averages include the failed instances";
  return text;
}

}  // namespace hamon::cli
