// SPDX-License-Identifier: Apache-2.0
#include "run/search_summary.hpp"

#include <cstdio>
#include <string>

#include "config/yaml_values.hpp"

namespace hamon::cli {

namespace {

template <class T>
void emit_or_null(YAML::Emitter& out, const char* key, const std::optional<T>& value) {
  out << YAML::Key << key << YAML::Value;
  if (!value) {
    emit_null(out);
  } else if constexpr (std::is_floating_point_v<T>) {
    emit_float(out, *value);
  } else {
    out << *value;
  }
}

}  // namespace

void emit_beta_max_estimate(YAML::Emitter& out, const BetaMaxReport& report) {
  const BetaMaxEstimate& e = report.estimate;
  out << YAML::Key << "beta_max_estimate" << YAML::Value << YAML::BeginMap;
  emit_float_entry(out, "beta_max", e.beta_max);
  emit_float_entry(out, "predicted_excess_energy", e.predicted_excess_energy);
  emit_float_entry(out, "Lambda", e.Lambda);
  out << YAML::Key << "n_chains" << YAML::Value << e.n_chains;
  emit_float_entry(out, "energy_scale", e.energy_scale);
  emit_float_entry(out, "gap_tol", e.gap_tol);
  emit_float_entry(out, "estimated_beta_max", report.estimated_beta_max);
  out << YAML::Key << "method" << YAML::Value << report.method;
  out << YAML::EndMap;
}

void emit_search_diagnosis(YAML::Emitter& out, const SearchDiagnosis& d) {
  out << YAML::Key << "diagnosis" << YAML::Value << YAML::BeginMap;
  out << YAML::Key << "verdict" << YAML::Value << to_string(d.verdict);
  out << YAML::Key << "confidence" << YAML::Value << d.confidence;
  out << YAML::Key << "reasons" << YAML::Value << YAML::BeginSeq;
  for (const std::string& reason : d.reasons) out << YAML::DoubleQuoted << reason;
  out << YAML::EndSeq;
  out << YAML::Key << "recommended" << YAML::Value << YAML::Flow << YAML::BeginMap;
  emit_or_null(out, "extra_rounds", d.recommended.extra_rounds);
  emit_or_null(out, "n_chains", d.recommended.n_chains);
  emit_or_null(out, "explore_sweeps", d.recommended.explore_sweeps);
  emit_or_null(out, "beta_max", d.recommended.beta_max);
  out << YAML::EndMap;
  out << YAML::EndMap;
}

bool asked_for_search(const NrptSpec& nrpt) {
  return nrpt.until.enabled || nrpt.gap_tol.has_value();
}

SearchDiagnosis reported_diagnosis(SearchDiagnosis d, bool asked, bool continuous) {
  const SearchRecommendation& r = d.recommended;
  const bool advice = r.extra_rounds || r.n_chains || r.explore_sweeps || r.beta_max;
  if (!advice) return d;
  if (continuous) {
    d.recommended = {};
    d.reasons.push_back(
        "no advice: a continuous model has no discrete ground state, and the best energy is "
        "only the lowest E the run reached");
  } else if (!asked && d.confidence != "high") {
    d.recommended = {};
    d.reasons.push_back(
        "no advice: the run did not ask for a search (nrpt.until, beta_max: "
        "auto) and the verdict is not confident");
  }
  return d;
}

bool search_line_shown(const SearchDiagnosis& d, bool asked) {
  const SearchRecommendation& r = d.recommended;
  return asked || r.extra_rounds || r.n_chains || r.explore_sweeps || r.beta_max;
}

std::string search_diagnosis_line(const SearchDiagnosis& d) {
  std::string line = to_string(d.verdict) + " (" + d.confidence + ")";
  const SearchRecommendation& r = d.recommended;
  std::string advice;
  const auto add = [&advice](const std::string& what) {
    advice += (advice.empty() ? "" : ", ") + what;
  };
  if (r.extra_rounds) add(std::to_string(*r.extra_rounds) + " more rounds");
  if (r.n_chains) add(std::to_string(*r.n_chains) + " chains");
  if (r.explore_sweeps) add(std::to_string(*r.explore_sweeps) + " sweeps/round");
  if (r.beta_max) {
    char text[32];
    std::snprintf(text, sizeof text, "%.4g", *r.beta_max);
    add(std::string("beta_max ") + text);
  }
  // The words say the advice is about the lowest energy, which a run after thermal averages
  // may not be (reported_diagnosis keeps it for searches and confident verdicts only).
  if (!advice.empty()) line += "; for a lower energy, try " + advice;
  return line;
}

}  // namespace hamon::cli
