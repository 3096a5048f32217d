// SPDX-License-Identifier: Apache-2.0
#include "run/decision_yaml.hpp"

#include "config/yaml_values.hpp"

namespace hamon::cli {

void emit_decision_entries(YAML::Emitter& out, const DeviceDecision& decision) {
  out << YAML::Key << "spec" << YAML::Value << to_string(decision.spec);
  out << YAML::Key << "placement" << YAML::Value << to_string(decision.placement);
  out << YAML::Key << "reason" << YAML::Value << to_string(decision.reason);
  out << YAML::Key << "score" << YAML::Value;
  if (decision.score) {
    out << *decision.score;
  } else {
    emit_null(out);
  }
  out << YAML::Key << "threshold" << YAML::Value;
  emit_optional_float(
      out, decision.threshold ? std::optional<double>(decision.threshold->value) : std::nullopt);
  if (decision.threshold) {
    out << YAML::Key << "threshold_source" << YAML::Value << to_string(decision.threshold->source);
  }
  if (decision.host_tier) {
    out << YAML::Key << "host_tier" << YAML::Value << YAML::Flow << YAML::BeginMap;
    out << YAML::Key << "rule" << YAML::Value << to_string(decision.host_tier->rule);
    if (decision.host_tier->threshold) {
      emit_float_entry(out, "threshold", decision.host_tier->threshold->value);
      out << YAML::Key << "threshold_source" << YAML::Value
          << to_string(decision.host_tier->threshold->source);
    }
    if (decision.host_tier->threads) {
      out << YAML::Key << "threads" << YAML::Value << *decision.host_tier->threads;
    }
    out << YAML::EndMap;
  }
}

}  // namespace hamon::cli
