// SPDX-License-Identifier: Apache-2.0
#include "run/overlap_output.hpp"

#include <cstddef>
#include <string>
#include <vector>

#include "config/yaml_values.hpp"
#include "output/npy.hpp"

namespace hamon::cli {

void emit_overlap(YAML::Emitter& out, const OverlapStatistics& s) {
  if (s.empty()) return;
  auto list = [&](const std::string& key, const std::vector<double>& values) {
    out << YAML::Key << key << YAML::Value;
    emit_float_list(out, values);
  };
  // An estimate per temperature, then its standard errors under KEY_stderr.
  auto with_stderr = [&](const std::string& key, const std::vector<double>& values,
                         const std::vector<double>& stderrs) {
    list(key, values);
    list(key + "_stderr", stderrs);
  };
  out << YAML::Key << "overlap" << YAML::Value << YAML::BeginMap;
  out << YAML::Key << "n_rounds" << YAML::Value << s.n_rounds;
  out << YAML::Key << "replica_pairs" << YAML::Value << s.n_pairs;
  list("betas", s.betas);
  with_stderr("q2", s.q2, s.q2_stderr);
  with_stderr("q4", s.q4, s.q4_stderr);
  with_stderr("abs_q", s.abs_q, s.abs_q_stderr);
  with_stderr("binder", s.binder, s.binder_stderr);
  list("chi_sg", s.chi_sg);
  with_stderr("link_overlap", s.link_overlap, s.link_overlap_stderr);
  if (!s.xi.empty()) {
    with_stderr("chi_kmin", s.chi_k, s.chi_k_stderr);
    list("xi", s.xi);
  }
  out << YAML::EndMap;
}

void write_overlap_histograms(std::ostream& out, const OverlapStatistics& s) {
  const auto bins = static_cast<std::size_t>(s.histogram_bins);
  write_npy(out, s.histograms, {bins > 0 ? s.histograms.size() / bins : 0, bins});
}

}  // namespace hamon::cli
