// SPDX-License-Identifier: Apache-2.0
#include "run/summary.hpp"

#include <Kokkos_Core.hpp>
#include <cmath>
#include <cstdint>
#include <sstream>
#include <vector>

#include "config/emit_experiment.hpp"
#include "config/yaml_values.hpp"
#include "hamon/version.hpp"
#include "run/best_state_output.hpp"
#include "run/decision_yaml.hpp"
#include "run/magnetization_output.hpp"
#include "run/objective_model.hpp"
#include "run/overlap_output.hpp"
#include "run/search_summary.hpp"

namespace hamon::cli {

namespace {

void emit_mean(YAML::Emitter& out, const std::optional<MeanWithError>& value) {
  if (!value) {
    emit_null(out);
    return;
  }
  emit_mean_and_stderr(out, value->mean, value->standard_error);
}

void emit_optional_list(YAML::Emitter& out, const std::optional<std::vector<double>>& values) {
  if (values) {
    emit_float_list(out, *values);
  } else {
    emit_null(out);
  }
}

void emit_optional_bool(YAML::Emitter& out, const std::optional<bool>& value) {
  if (value) {
    out << *value;
  } else {
    emit_null(out);
  }
}

void emit_tuning(YAML::Emitter& out, const TuneSpec& tune, const Plan& plan) {
  out << YAML::Key << "tuning" << YAML::Value << YAML::BeginMap;
  std::vector<std::string> tuned;
  if (tune.chains) tuned.emplace_back("chains");
  if (tune.betas) tuned.emplace_back("betas");
  if (tune.explore_sweeps) tuned.emplace_back("explore_sweeps");
  out << YAML::Key << "tuned" << YAML::Value << YAML::Flow << tuned;
  out << YAML::Key << "plan" << YAML::Value << YAML::BeginMap;
  out << YAML::Key << "n_chains" << YAML::Value << plan.n_chains;
  out << YAML::Key << "betas" << YAML::Value;
  emit_float_list(out, plan.betas);
  out << YAML::Key << "explore_sweeps" << YAML::Value << plan.n_expl;
  out << YAML::EndMap;
  emit_float_entry(out, "seconds", plan.seconds);
  out << YAML::Key << "cache_hit" << YAML::Value << plan.cache_hit;
  out << YAML::Key << "cache_entry" << YAML::Value;
  if (plan.cache_entry.empty()) {
    emit_null(out);
  } else {
    out << plan.cache_entry;
  }
  emit_float_entry(out, "tuned_seconds", plan.tuning.tuned_seconds);
  emit_float_entry(out, "Lambda", plan.tuning.Lambda);
  out << YAML::Key << "barrier_identified" << YAML::Value;
  emit_optional_bool(out, plan.tuning.barrier_identified);
  out << YAML::Key << "conveyor_alive" << YAML::Value;
  emit_optional_bool(out, plan.tuning.conveyor_alive);
  out << YAML::EndMap;
}

void emit_health(YAML::Emitter& out, const RunDiagnostics& d) {
  out << YAML::Key << "health" << YAML::Value << YAML::BeginMap;
  out << YAML::Key << "overall" << YAML::Value << to_string(d.health.overall);
  out << YAML::Key << "checks" << YAML::Value << YAML::BeginMap;
  for (const HealthCheck& check : d.health.checks) {
    out << YAML::Key << check.name << YAML::Value << YAML::Flow << YAML::BeginMap;
    out << YAML::Key << "status" << YAML::Value << to_string(check.status);
    emit_float_entry(out, "value", check.value);
    emit_float_entry(out, "threshold", check.threshold);
    out << YAML::Key << "message" << YAML::Value << YAML::DoubleQuoted << check.message;
    out << YAML::EndMap;
  }
  out << YAML::EndMap;
  out << YAML::Key << "cold_energy_ess" << YAML::Value;
  if (d.cold_energy_ess && d.cold_energy_ess->defined) {
    out << YAML::Flow << YAML::BeginMap;
    emit_float_entry(out, "ess", d.cold_energy_ess->ess);
    emit_float_entry(out, "tau", d.cold_energy_ess->tau);
    out << YAML::EndMap;
  } else {
    emit_null(out);
  }
  out << YAML::EndMap;
}

void emit_estimate(YAML::Emitter& out, const char* key, const LogZEstimate& estimate) {
  out << YAML::Key << key << YAML::Value << YAML::Flow << YAML::BeginMap;
  emit_float_entry(out, "value", estimate.value);
  emit_float_entry(out, "stderr", estimate.standard_error);
  emit_float_entry(out, "discretisation_error", estimate.discretisation_error);
  emit_float_entry(out, "error", estimate.error());
  out << YAML::Key << "trusted" << YAML::Value << estimate.trusted;
  out << YAML::EndMap;
}

void emit_log_z(YAML::Emitter& out, const LogPartition& z, const NrptResult& r) {
  out << YAML::Key << "log_z" << YAML::Value << YAML::BeginMap;
  emit_float_entry(out, "beta", r.betas.back());
  emit_float_entry(out, "log_z0", z.log_z0);
  out << YAML::Key << "log_z0_exact" << YAML::Value << z.log_z0_exact;
  emit_float_entry(out, "log_z0_error", z.log_z0_error);
  emit_estimate(out, "thermodynamic_integration", z.thermodynamic_integration);
  emit_estimate(out, "stepping_stone", z.stepping_stone);
  out << YAML::Key << "preferred" << YAML::Value << to_string(z.preferred);
  out << YAML::Key << "preferred_reason" << YAML::Value << YAML::DoubleQuoted << z.preferred_reason;
  out << YAML::Key << "batches" << YAML::Value << YAML::Flow << YAML::BeginMap;
  out << YAML::Key << "count" << YAML::Value << z.n_batches;
  out << YAML::Key << "rounds" << YAML::Value << z.batch_rounds;
  emit_float_entry(out, "energy_tau", z.energy_tau);
  out << YAML::EndMap;
  out << YAML::Key << "warnings" << YAML::Value << YAML::Flow << z.warnings;
  // Where a Gaussian path stops normalising, and the pairs stepping stone bridged for it.
  if (std::isfinite(z.beta_limit)) emit_float_entry(out, "beta_limit", z.beta_limit);
  out << YAML::Key << "notes" << YAML::Value << YAML::Flow << z.notes;
  out << YAML::EndMap;
}

void emit_nrpt(YAML::Emitter& out, const NrptResult& r, std::int32_t explore_sweeps) {
  out << YAML::Key << "nrpt" << YAML::Value << YAML::BeginMap;
  out << YAML::Key << "n_chains" << YAML::Value << r.betas.size();
  out << YAML::Key << "rounds" << YAML::Value << r.n_rounds;
  out << YAML::Key << "explore_sweeps" << YAML::Value << explore_sweeps;
  out << YAML::Key << "betas" << YAML::Value;
  emit_float_list(out, r.betas);
  out << YAML::Key << "acceptance" << YAML::Value;
  emit_float_list(out, r.swaps.acceptance);
  emit_float_entry(out, "Lambda", r.swaps.Lambda);
  emit_float_entry(out, "tau_predicted", r.swaps.tau_predicted);
  emit_float_entry(out, "tau_predicted_fine_ladder", r.swaps.tau_predicted_fine_ladder);
  emit_float_entry(out, "tau_observed", r.tau_observed);
  emit_float_entry(out, "efficiency", r.efficiency);
  out << YAML::Key << "round_trips" << YAML::Value << r.total_round_trips;
  // Several replicas: their count and each one's round trips (the ladder's statistics above
  // are pooled over them, tau_observed is per replica).
  const std::size_t n = r.betas.size();
  if (n > 0 && r.round_trips.size() > n) {
    std::vector<std::int64_t> per_replica(r.round_trips.size() / n, 0);
    for (std::size_t m = 0; m < r.round_trips.size(); ++m) per_replica[m / n] += r.round_trips[m];
    out << YAML::Key << "replicas" << YAML::Value << per_replica.size();
    out << YAML::Key << "round_trips_per_replica" << YAML::Value << YAML::Flow << per_replica;
  }
  out << YAML::EndMap;
}

/// Per-node values of a Potts model (nodes x q, node-major) as one list of q per node.
void emit_optional_rows(YAML::Emitter& out, const std::optional<std::vector<double>>& values,
                        int q) {
  if (values) {
    emit_float_rows(out, *values, q, false);
  } else {
    emit_null(out);
  }
}

void emit_observables(YAML::Emitter& out, const Observables& obs) {
  out << YAML::Key << "observables" << YAML::Value << YAML::BeginMap;
  out << YAML::Key << "energy_per_node" << YAML::Value;
  emit_mean(out, obs.energy_per_node);
  if (obs.potts > 0) {
    // The Potts order parameter (q max_s n_s / N - 1) / (q - 1) of the state counts n_s
    // (Moments::abs_magnetization_per_node of a Potts model) and P(x_i = s) per node.
    out << YAML::Key << "potts_order_parameter" << YAML::Value;
    emit_mean(out, obs.abs_magnetization_per_node);
    out << YAML::Key << "n_samples" << YAML::Value << obs.n_samples;
    out << YAML::Key << "node_marginals" << YAML::Value;
    emit_optional_rows(out, obs.node_means, obs.potts);
    out << YAML::Key << "node_marginals_stderr" << YAML::Value;
    emit_optional_rows(out, obs.node_means_stderr, obs.potts);
    out << YAML::EndMap;
    return;
  }
  // Continuous models: |sum_i x_i| / N, <x_i> and Var(x_i).
  out << YAML::Key << (obs.continuous ? "abs_mean_per_node" : "abs_magnetization_per_node")
      << YAML::Value;
  emit_mean(out, obs.abs_magnetization_per_node);
  out << YAML::Key << "n_samples" << YAML::Value << obs.n_samples;
  out << YAML::Key << "node_means" << YAML::Value;
  emit_optional_list(out, obs.node_means);
  out << YAML::Key << "node_means_stderr" << YAML::Value;
  emit_optional_list(out, obs.node_means_stderr);
  if (obs.continuous) {
    out << YAML::Key << "node_variances" << YAML::Value;
    emit_optional_list(out, obs.node_variances);
    out << YAML::Key << "node_variances_stderr" << YAML::Value;
    emit_optional_list(out, obs.node_variances_stderr);
  }
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

void emit_hamon_block(YAML::Emitter& out) {
  out << YAML::Key << "hamon" << YAML::Value << YAML::BeginMap;
  out << YAML::Key << "version" << YAML::Value << YAML::DoubleQuoted << hamon::version;
  out << YAML::Key << "build" << YAML::Value << YAML::BeginMap;
  out << YAML::Key << "kokkos" << YAML::Value << YAML::DoubleQuoted << kokkos_version();
  out << YAML::Key << "backends" << YAML::Value << YAML::Flow << build_backend_list();
  out << YAML::EndMap << YAML::EndMap;
}

std::string summary_yaml(const SummaryInputs& in) {
  YAML::Emitter out;
  out << YAML::BeginMap;
  emit_hamon_block(out);
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
  if (in.model.is_potts()) out << YAML::Key << "n_states" << YAML::Value << in.model.n_states();
  if (in.model.is_continuous()) {
    out << YAML::Key << "variables" << YAML::Value << to_string(in.model.continuous_kind());
  }
  if (in.model.is_continuous() || in.result.annealed) {
    out << YAML::Key << "annealed" << YAML::Value << in.result.annealed;
  }
  out << YAML::EndMap;

  if (in.plan) emit_tuning(out, in.config.nrpt.tune, *in.plan);
  emit_nrpt(out, in.result, in.explore_sweeps);
  out << YAML::Key << "search" << YAML::Value << YAML::BeginMap;
  emit_best_entries(out, in.result, in.ended_by);
  const auto* problem = std::get_if<ObjectiveSpec>(&in.config.model);
  if (problem != nullptr &&
      static_cast<std::int64_t>(in.result.best_state.size()) == problem->terms.n) {
    emit_objective_entries(out, problem->terms, in.result.best_state);
  }
  if (in.beta_max) emit_beta_max_estimate(out, *in.beta_max);
  emit_search_diagnosis(out, in.search);
  out << YAML::EndMap;
  emit_observables(out, in.observables);
  emit_overlap(out, in.result.overlaps);
  if (in.result.overlaps.empty() && in.config.replicas >= 2) {
    // Say why the section a run with replicas has is missing: a continuous model's values
    // never agree exactly, so it has no overlap to count; otherwise the run was over ranks,
    // where a pair's replicas may sit apart (docs/overlaps.md).
    out << YAML::Key << "overlap_skipped" << YAML::Value << YAML::DoubleQuoted
        << (in.model.is_continuous()
                ? "replica overlaps count agreeing discrete values (spins, Potts states); a "
                  "continuous model's replicas run as independent ladders, with no overlap"
                : "replica overlaps need one process (this run was spread over MPI ranks); "
                  "an ensemble (instances: K) keeps each instance in one rank");
  }
  emit_magnetization(out, in.result.magnetization, in.model.is_potts());
  if (in.result.magnetization.betas.empty() && in.config.output.magnetization &&
      !in.model.is_continuous()) {
    // As for the overlaps: a chain's machine moves between ranks (docs/magnetization.md).
    out << YAML::Key << "magnetization_skipped" << YAML::Value << YAML::DoubleQuoted
        << "the magnetisation per temperature needs one process (this run was spread over "
           "MPI ranks); the cold chain's abs_magnetization_per_node is in observables";
  }
  emit_health(out, in.diagnostics);
  if (in.diagnostics.log_z) emit_log_z(out, *in.diagnostics.log_z, in.result);

  out << YAML::Key << "timing" << YAML::Value << YAML::BeginMap;
  emit_float_entry(out, "total_s", in.timing.total_s);
  emit_float_entry(out, "sampling_s", in.timing.sampling_s);
  emit_float_entry(out, "checkpoint_s", in.timing.checkpoint_s);
  emit_float_entry(out, "spin_updates_per_ns",
                   in.timing.sampling_s > 0.0
                       ? static_cast<double>(in.result.spin_updates) / (in.timing.sampling_s * 1e9)
                       : 0.0);
  out << YAML::EndMap;
  out << YAML::EndMap;
  return std::string(out.c_str()) + "\n";
}

}  // namespace hamon::cli
