#include "commands/run_report.hpp"

#include <cstdio>
#include <string>

#include "hamon/policies/placement.hpp"

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
         std::to_string(m.n_colours()) + " colours";
}

std::string device_line(const PreparedRun& run) {
  return run.config.device + " -> " + to_string(run.decision.placement) + " (" +
         to_string(run.decision.reason) + ")";
}

std::string mean_text(const std::optional<MeanWithError>& value) {
  if (!value) return "not recorded";
  return format("%.6f", value->mean) + " +- " + format("%.6f", value->standard_error);
}

}  // namespace

void print_run_report(std::ostream& out, const PreparedRun& run, const RunOutcome& outcome,
                      bool detailed) {
  const NrptResult& r = outcome.result;
  out << "hamon: results in " << outcome.directory
      << "/ (summary.yaml, betas.npy, energies.npy, index_process.npy, samples.npy)\n";
  out << "  model        " << model_line(run) << "\n";
  out << "  device       " << device_line(run) << ", ran on " << outcome.execution_space << "\n";
  out << "  chains       " << r.betas.size() << ", " << r.n_rounds << " rounds (+"
      << run.config.nrpt.burn_in << " burn-in), " << run.config.nrpt.explore_sweeps
      << " sweeps/round\n";
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
  out << "  |m|/node     " << mean_text(outcome.observables.abs_magnetization_per_node) << "\n";
  out << "  time         " << format("%.3f", outcome.total_s) << " s (sampling "
      << format("%.3f", outcome.sampling_s) << " s)\n";
}

void print_validation_report(std::ostream& out, const PreparedRun& run) {
  const NrptSpec& n = run.config.nrpt;
  out << run.config.file << ": ok\n";
  out << "  model    " << model_line(run) << "\n";
  out << "  nrpt     " << run.options.betas.size() << " chains, " << n.rounds << " rounds (+"
      << n.burn_in << " burn-in), " << n.explore_sweeps << " sweeps/round\n";
  out << "  device   " << device_line(run) << "\n";
  out << "  output   " << run.config.output.dir << "\n";
}

}  // namespace hamon::cli
