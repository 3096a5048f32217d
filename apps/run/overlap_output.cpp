// SPDX-License-Identifier: Apache-2.0
#include "run/overlap_output.hpp"

#include <cstddef>
#include <vector>

#include "config/yaml_values.hpp"
#include "output/npy.hpp"

namespace hamon::cli {

void emit_overlap(YAML::Emitter& out, const OverlapStatistics& s) {
  if (s.empty()) return;
  auto list = [&](const char* key, const std::vector<double>& values) {
    out << YAML::Key << key << YAML::Value;
    emit_float_list(out, values);
  };
  out << YAML::Key << "overlap" << YAML::Value << YAML::BeginMap;
  out << YAML::Key << "n_rounds" << YAML::Value << s.n_rounds;
  out << YAML::Key << "replica_pairs" << YAML::Value << s.n_pairs;
  list("betas", s.betas);
  list("q2", s.q2);
  list("q2_stderr", s.q2_stderr);
  list("q4", s.q4);
  list("q4_stderr", s.q4_stderr);
  list("abs_q", s.abs_q);
  list("abs_q_stderr", s.abs_q_stderr);
  list("binder", s.binder);
  list("binder_stderr", s.binder_stderr);
  list("chi_sg", s.chi_sg);
  list("link_overlap", s.link_overlap);
  list("link_overlap_stderr", s.link_overlap_stderr);
  if (!s.xi.empty()) {
    list("chi_kmin", s.chi_k);
    list("chi_kmin_stderr", s.chi_k_stderr);
    list("xi", s.xi);
  }
  out << YAML::EndMap;
}

void write_overlap_histograms(std::ostream& out, const OverlapStatistics& s) {
  const auto bins = static_cast<std::size_t>(s.histogram_bins);
  write_npy(out, s.histograms, {bins > 0 ? s.histograms.size() / bins : 0, bins});
}

}  // namespace hamon::cli
