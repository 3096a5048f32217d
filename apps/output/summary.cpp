#include "output/summary.hpp"

#include <Kokkos_Core.hpp>
#include <sstream>

#include "config/emit_experiment.hpp"
#include "hamon/version.hpp"
#include "output/decision_yaml.hpp"
#include "output/yaml_values.hpp"

namespace hamon::cli {

namespace {

void emit_mean(YAML::Emitter& out, const std::optional<MeanWithError>& value) {
  if (!value) {
    emit_null(out);
    return;
  }
  out << YAML::Flow << YAML::BeginMap << YAML::Key << "mean" << YAML::Value;
  emit_float(out, value->mean);
  out << YAML::Key << "stderr" << YAML::Value;
  emit_float(out, value->standard_error);
  out << YAML::EndMap;
}

void emit_optional_list(YAML::Emitter& out, const std::optional<std::vector<double>>& values) {
  if (values) {
    emit_float_list(out, *values);
  } else {
    emit_null(out);
  }
}

void emit_build(YAML::Emitter& out) {
  out << YAML::Key << "hamon" << YAML::Value << YAML::BeginMap;
  out << YAML::Key << "version" << YAML::Value << YAML::DoubleQuoted << hamon::version;
  out << YAML::Key << "build" << YAML::Value << YAML::BeginMap;
  out << YAML::Key << "kokkos" << YAML::Value << YAML::DoubleQuoted << kokkos_version();
  out << YAML::Key << "backends" << YAML::Value << YAML::Flow << build_backend_list();
  out << YAML::EndMap << YAML::EndMap;
}

void emit_nrpt(YAML::Emitter& out, const ExperimentConfig& config, const NrptResult& r) {
  out << YAML::Key << "nrpt" << YAML::Value << YAML::BeginMap;
  out << YAML::Key << "n_chains" << YAML::Value << r.betas.size();
  out << YAML::Key << "rounds" << YAML::Value << r.n_rounds;
  out << YAML::Key << "explore_sweeps" << YAML::Value << config.nrpt.explore_sweeps;
  out << YAML::Key << "betas" << YAML::Value;
  emit_float_list(out, r.betas);
  out << YAML::Key << "acceptance" << YAML::Value;
  emit_float_list(out, r.swaps.acceptance);
  out << YAML::Key << "Lambda" << YAML::Value;
  emit_float(out, r.swaps.Lambda);
  out << YAML::Key << "tau_predicted" << YAML::Value;
  emit_float(out, r.swaps.tau_predicted);
  out << YAML::Key << "tau_observed" << YAML::Value;
  emit_float(out, r.tau_observed);
  out << YAML::Key << "efficiency" << YAML::Value;
  emit_float(out, r.efficiency);
  out << YAML::Key << "round_trips" << YAML::Value << r.total_round_trips;
  out << YAML::EndMap;
}

void emit_observables(YAML::Emitter& out, const Observables& obs) {
  out << YAML::Key << "observables" << YAML::Value << YAML::BeginMap;
  out << YAML::Key << "energy_per_node" << YAML::Value;
  emit_mean(out, obs.energy_per_node);
  out << YAML::Key << "abs_magnetization_per_node" << YAML::Value;
  emit_mean(out, obs.abs_magnetization_per_node);
  out << YAML::Key << "n_samples" << YAML::Value << obs.n_samples;
  out << YAML::Key << "node_means" << YAML::Value;
  emit_optional_list(out, obs.node_means);
  out << YAML::Key << "node_means_stderr" << YAML::Value;
  emit_optional_list(out, obs.node_means_stderr);
  out << YAML::EndMap;
}

}  // namespace

std::string kokkos_version() {
  const int v = KOKKOS_VERSION;
  return std::to_string(v / 10000) + "." + std::to_string(v / 100 % 100) + "." +
         std::to_string(v % 100);
}

std::vector<std::string> build_backend_list() {
  std::vector<std::string> list;
  std::stringstream text(hamon::build_backends);
  std::string item;
  while (std::getline(text, item, ';')) {
    if (!item.empty()) list.push_back(item);
  }
  return list;
}

std::string summary_yaml(const SummaryInputs& in) {
  YAML::Emitter out;
  out << YAML::BeginMap;
  emit_build(out);
  out << YAML::Key << "config" << YAML::Value;
  emit_experiment(out, in.config);

  out << YAML::Key << "device" << YAML::Value << YAML::BeginMap;
  emit_decision_entries(out, in.decision);
  out << YAML::Key << "execution_space" << YAML::Value << in.execution_space;
  out << YAML::EndMap;

  out << YAML::Key << "model" << YAML::Value << YAML::BeginMap;
  out << YAML::Key << "n_nodes" << YAML::Value << in.model.n_nodes();
  out << YAML::Key << "n_free" << YAML::Value << in.model.n_free();
  out << YAML::Key << "n_edges" << YAML::Value << in.model.n_edges();
  out << YAML::Key << "n_colors" << YAML::Value << in.model.n_colours();
  out << YAML::EndMap;

  emit_nrpt(out, in.config, in.result);
  emit_observables(out, in.observables);

  out << YAML::Key << "timing" << YAML::Value << YAML::BeginMap;
  out << YAML::Key << "total_s" << YAML::Value;
  emit_float(out, in.timing.total_s);
  out << YAML::Key << "sampling_s" << YAML::Value;
  emit_float(out, in.timing.sampling_s);
  out << YAML::Key << "spin_updates_per_ns" << YAML::Value;
  emit_float(out, in.timing.sampling_s > 0.0
                      ? static_cast<double>(in.result.spin_updates) / (in.timing.sampling_s * 1e9)
                      : 0.0);
  out << YAML::EndMap;
  out << YAML::EndMap;
  return std::string(out.c_str()) + "\n";
}

}  // namespace hamon::cli
