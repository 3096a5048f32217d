// SPDX-License-Identifier: Apache-2.0
#include "run/magnetization_output.hpp"

#include <string>
#include <vector>

#include "config/yaml_values.hpp"

namespace hamon::cli {

void emit_magnetization(YAML::Emitter& out, const MagnetizationStatistics& s, bool potts) {
  if (s.betas.empty()) return;
  // An estimate per temperature, then its standard errors under KEY_stderr.
  auto with_stderr = [&](const std::string& key, const std::vector<double>& values,
                         const std::vector<double>& stderrs) {
    out << YAML::Key << key << YAML::Value;
    emit_float_list(out, values);
    out << YAML::Key << key + "_stderr" << YAML::Value;
    emit_float_list(out, stderrs);
  };
  out << YAML::Key << "magnetization" << YAML::Value << YAML::BeginMap;
  // Which m the moments are of: spins m = sum_i s_i / N; Potts the order parameter
  // (q max_s n_s / N - 1) / (q - 1), never negative.
  out << YAML::Key << "definition" << YAML::Value
      << (potts ? "potts_order_parameter" : "spin_mean");
  out << YAML::Key << "n_rounds" << YAML::Value << s.n_rounds;
  out << YAML::Key << "replicas" << YAML::Value << s.replicas;
  out << YAML::Key << "betas" << YAML::Value;
  emit_float_list(out, s.betas);
  with_stderr("m", s.m, s.m_stderr);
  with_stderr("abs_m", s.abs_m, s.abs_m_stderr);
  with_stderr("m2", s.m2, s.m2_stderr);
  with_stderr("m4", s.m4, s.m4_stderr);
  with_stderr("binder", s.binder, s.binder_stderr);
  with_stderr("chi", s.chi, s.chi_stderr);
  with_stderr("chi_m2", s.chi_m2, s.chi_m2_stderr);
  out << YAML::EndMap;
}

}  // namespace hamon::cli
