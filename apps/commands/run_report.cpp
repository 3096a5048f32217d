// SPDX-License-Identifier: Apache-2.0
#include "commands/run_report.hpp"

#include <cstdio>
#include <string>
#include <utility>
#include <variant>

#include "hamon/policies/placement.hpp"
#include "run/objective_model.hpp"
#include "run/search_summary.hpp"

namespace hamon::cli {

namespace {

std::string format(const char* pattern, double value) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, pattern, value);
  return buffer;
}

std::string model_line(const PreparedRun& run) {
  const SpinModel& m = *run.model;
  return kind_of(run.config.model) + ", " + std::to_string(m.n_nodes()) + " nodes (" +
         std::to_string(m.n_free()) + " free), " + std::to_string(m.n_edges()) + " edges, " +
         std::to_string(m.n_colours()) + " colours" +
         (m.is_potts() ? ", Potts q = " + std::to_string(m.n_states()) : "");
}

std::string device_line(const std::string& device, const DeviceDecision& decision) {
  return device + " -> " + to_string(decision.placement) + " (" + to_string(decision.reason) + ")";
}

/// "16 chains" or "auto chains (at most 128)".
std::string chains_text(const PreparedRun& run) {
  const NrptSpec& n = run.config.nrpt;
  if (n.tune.chains) return "auto chains (at most " + std::to_string(n.tune.max_chains) + ")";
  return std::to_string(run.options.betas.size()) + " chains";
}

std::string sweeps_text(const NrptSpec& n) {
  return (n.tune.explore_sweeps ? std::string("auto") : std::to_string(n.explore_sweeps)) +
         " sweeps/round";
}

std::string health_line(const HealthReport& health) {
  std::string text = to_string(health.overall);
  std::string flagged;
  for (const HealthCheck& check : health.checks) {
    if (check.status == HealthStatus::warn || check.status == HealthStatus::fail) {
      flagged += (flagged.empty() ? "" : ", ") + check.name + " " + to_string(check.status);
    }
  }
  return flagged.empty() ? text : text + " (" + flagged + ")";
}

std::string mean_text(const std::optional<MeanWithError>& value) {
  if (!value) return "not recorded";
  return format("%.6f", value->mean) + " +- " + format("%.6f", value->standard_error);
}

/// "beta_min 0.31, chains 23, ..." — what the run chose (nrpt.chosen has the reasons).
std::string chosen_text(const NrptSpec& n) {
  std::string text;
  for (const Choice& c : n.chosen) {
    const std::string key = c.key.rfind("nrpt.", 0) == 0 ? c.key.substr(5) : c.key;
    text += (text.empty() ? "" : ", ") + key + " " + c.value;
  }
  return text;
}

}  // namespace

void print_run_report(std::ostream& out, const PreparedRun& run, const RunOutcome& outcome,
                      bool detailed) {
  const NrptResult& r = outcome.result;
  const auto* problem = std::get_if<ObjectiveSpec>(&run.config.model);
  out << "hamon: results in " << outcome.directory
      << "/ (summary.yaml, betas.npy, energies.npy, index_process.npy, samples.npy, "
         "best_state.npy"
      << (problem != nullptr ? ", best_assignment.npy" : "") << ")\n";
  out << "  model        " << model_line(run) << "\n";
  out << "  device       " << device_line(run.config.device, outcome.decision) << ", ran on "
      << outcome.execution_space << "\n";
  if (outcome.plan) {
    const Plan& plan = *outcome.plan;
    out << "  tuning       " << format("%.2f", plan.seconds) << " s"
        << (plan.cache_hit ? " (from the tuning cache)" : "") << "\n";
  }
  if (const auto& b = run.beta_max) {
    out << "  beta_max     " << format("%.6g", r.betas.back()) << " (model estimate "
        << format("%.6g", b->estimated_beta_max) << ": predicted excess energy "
        << format("%.4g", b->estimate.predicted_excess_energy) << ", Lambda "
        << format("%.3g", b->estimate.Lambda) << ", " << b->estimate.n_chains << " chains)\n";
  }
  if (!run.config.nrpt.chosen.empty()) {
    out << "  chosen       " << chosen_text(run.config.nrpt)
        << " (why: nrpt.chosen in config.yaml)\n";
  }
  out << "  chains       " << r.betas.size() << ", " << r.n_rounds << " rounds (+"
      << run.config.nrpt.burn_in << " burn-in), " << outcome.explore_sweeps << " sweeps/round\n";
  if (detailed) {
    out << "  betas       ";
    for (double b : r.betas) out << format(" %.4f", b);
    out << "\n  acceptance  ";
    for (double a : r.swaps.acceptance) out << format(" %.3f", a);
    out << "\n";
  }
  out << "  Lambda       " << format("%.4f", r.swaps.Lambda) << ", round trips "
      << r.total_round_trips << " (efficiency " << format("%.3f", r.efficiency) << ")\n";
  out << "  energy/node  " << mean_text(outcome.observables.energy_per_node) << "\n";
  if (r.best_round >= 0) {
    out << "  best energy  " << format("%.6f", r.best_energy) << " (round " << r.best_round
        << ", beta " << format("%.4f", r.best_beta) << "; " << r.round_trips_since_best
        << " round trips since" << (outcome.ended_by.empty() ? "" : ", ended " + outcome.ended_by)
        << ")\n";
  }
  if (r.best_round >= 0 && problem != nullptr &&
      static_cast<std::int64_t>(r.best_state.size()) == problem->terms.n) {
    out << "  best " << objective_line(problem->terms, r.best_state) << "\n";
  }
  out << (outcome.observables.potts > 0 ? "  Potts order  " : "  |m|/node     ")
      << mean_text(outcome.observables.abs_magnetization_per_node) << "\n";
  out << "  health       " << health_line(outcome.diagnostics.health) << "\n";
  if (const auto& z = outcome.diagnostics.log_z) {
    const LogZEstimate& ti = z->thermodynamic_integration;
    // An untrusted estimate says so beside its error, which does not hold.
    auto distrust = [](const LogZEstimate& e) { return e.trusted ? "" : ", UNTRUSTED"; };
    out << "  log Z        " << format("%.4f", z->stepping_stone.value) << " +- "
        << format("%.4f", z->stepping_stone.error()) << " (stepping stone"
        << distrust(z->stepping_stone) << "), " << format("%.4f", ti.value) << " +- "
        << format("%.4f", ti.error()) << " (TI: " << format("%.4f", ti.standard_error)
        << " statistical, " << format("%.4f", ti.discretisation_error) << " quadrature"
        << distrust(ti) << ")\n";
    out << "               prefer " << to_string(z->preferred) << ": " << z->preferred_reason
        << "\n";
    for (const std::string& warning : z->warnings) out << "  warning      " << warning << "\n";
  }
  if (search_line_shown(outcome.search, asked_for_search(run.config.nrpt))) {
    out << "  search       " << search_diagnosis_line(outcome.search) << "\n";
  }
  out << "  time         " << format("%.3f", outcome.total_s) << " s (sampling "
      << format("%.3f", outcome.sampling_s) << " s)\n";
}

void print_validation_report(std::ostream& out, const PreparedRun& run) {
  const NrptSpec& n = run.config.nrpt;
  out << run.config.file << ": ok\n";
  out << "  model    " << model_line(run) << "\n";
  out << "  nrpt     " << chains_text(run) << ", " << n.rounds << " rounds (+" << n.burn_in
      << " burn-in), " << sweeps_text(n) << "\n";
  if (n.tune.any()) {
    std::string tuned;
    for (const auto& [on, what] :
         {std::pair{n.tune.chains, "chains"}, std::pair{n.tune.betas, "betas"},
          std::pair{n.tune.explore_sweeps, "explore_sweeps"}}) {
      if (on) tuned += (tuned.empty() ? "" : ", ") + std::string(what);
    }
    out << "  tuning   " << tuned << " (tune_rounds " << n.tune.rounds << ")\n";
  }
  if (const auto& b = run.beta_max) {
    out << "  beta_max " << format("%.6g", n.beta_max) << " (model estimate "
        << format("%.6g", b->estimated_beta_max) << " at gap_tol " << format("%g", *n.gap_tol)
        << ", " << b->method << "; predicted Lambda " << format("%.3g", b->estimate.Lambda) << ", "
        << b->estimate.n_chains << " chains)\n";
  }
  if (!n.chosen.empty()) out << "  chosen   " << chosen_text(n) << "\n";
  out << "  device   " << device_line(run.config.device, run.decision) << "\n";
  if (run.config.instances > 1) {
    // The model line is the file's own draw: every instance has its graph and size.
    out << "  ensemble " << run.config.instances
        << (run.config.instance_files.empty() ? " disorder instances"
                                              : " instances, one graph file each")
        << ", each a run directory in instances/k\n";
  }
  out << "  output   " << run.config.output.dir << "\n";
}

void print_ensemble_report(std::ostream& out, const EnsembleOutcome& outcome) {
  out << "hamon: ensemble of " << outcome.instances << " instances in " << outcome.directory;
  if (outcome.already_done > 0) out << " (" << outcome.already_done << " finished earlier)";
  if (outcome.idle_ranks > 0) {
    out << "\n  " << outcome.idle_ranks << (outcome.idle_ranks == 1 ? " rank" : " ranks")
        << " ran nothing: replicas keep a ladder in one process, one instance per rank";
  }
  out << "\n  health   " << outcome.health.line();
  out << "\n  disorder averages: " << outcome.directory << "/summary.yaml (ensemble:)\n";
}

}  // namespace hamon::cli
