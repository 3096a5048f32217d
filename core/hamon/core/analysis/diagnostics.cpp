// SPDX-License-Identifier: Apache-2.0
#include "hamon/core/analysis/diagnostics.hpp"

#include <cmath>
#include <cstdio>
#include <string>

#include "hamon/core/analysis/detail/node_error_checks.hpp"
#include "hamon/core/util/text.hpp"

namespace hamon {

// Values in messages to three significant digits.
constexpr int kMessageDigits = 3;

namespace {

// The batch-means error of the cold chain's energy against the one its effective sample
// size gives (sd / sqrt(ESS), Geyer): batches shorter than the autocorrelation time make
// the former too small. Skipped without both moments and energies. `ess` is the trace's,
// computed once by the caller (an FFT of the whole run: seconds for a long one).
HealthCheck energy_error_check(const SpinModel& model, const NrptResult& result,
                               const std::vector<double>& trace, const EffectiveSampleSize& ess,
                               const DiagnosticsOptions& options) {
  HealthCheck check{"error_bars", HealthStatus::skipped, 0.0, options.min_error_ratio, ""};
  const MeanWithError& batch = result.moments.energy_per_node;
  if (result.moments.n_samples == 0 || !ess.defined) {
    check.message = "needs moments and energies (or the cold energy is constant)";
    return check;
  }
  double mean = 0.0;
  for (double e : trace) mean += e;
  mean /= static_cast<double>(trace.size());
  double ss = 0.0;
  for (double e : trace) ss += (e - mean) * (e - mean);
  const double ess_error = std::sqrt(ss / static_cast<double>(trace.size() - 1) / ess.ess) /
                           static_cast<double>(model.n_nodes());
  check.value = ess_error > 0.0 ? batch.standard_error / ess_error : 1.0;
  const std::string text = "batch-means error of the cold energy / its ESS error (tau " +
                           format_significant(ess.tau, kMessageDigits) +
                           " rounds) = " + format_significant(check.value, kMessageDigits);
  if (check.value < options.min_error_ratio) {
    check.status = HealthStatus::warn;
    check.message = text + " < " + format_significant(options.min_error_ratio, kMessageDigits) +
                    ": batches shorter than the autocorrelation time, error bars too small; "
                    "run longer";
  } else {
    check.status = HealthStatus::pass;
    check.message = text;
  }
  return check;
}

// Adds a finding to the check: its message appended, the worse status kept.
void add_finding(HealthCheck& check, HealthStatus status, const std::string& message) {
  check.message = (check.message.empty() ? "" : check.message + "; ") + message;
  if (status == HealthStatus::fail || check.status != HealthStatus::fail) check.status = status;
}

// The energy's check, then the node means' (detail/node_error_checks.hpp): a node mean whose
// error bar says nothing fails the check, and so do batches with too few round trips in
// them, whatever the energy's says.
HealthCheck error_bar_check(const SpinModel& model, const NrptResult& result,
                            const std::vector<double>& trace, const EffectiveSampleSize& ess,
                            const DiagnosticsOptions& options) {
  HealthCheck check = energy_error_check(model, result, trace, ess, options);
  if (result.moments.n_samples == 0) return check;
  const node_errors::RoundTripVerdict trips = node_errors::judge_round_trips(model, result);
  if (trips.status == HealthStatus::warn || trips.status == HealthStatus::fail) {
    add_finding(check, trips.status, trips.message);
  }
  const node_errors::NodeErrorVerdict nodes = node_errors::judge_node_errors(model, result.moments);
  const std::string problem = node_errors::describe(nodes);
  if (!problem.empty()) add_finding(check, HealthStatus::fail, problem + "; run longer");
  return check;
}

}  // namespace

std::vector<double> energy_trace(const NrptResult& result, std::size_t chain) {
  const std::size_t n_chains = result.betas.size();
  if (n_chains == 0 || chain >= n_chains || result.energies.size() % n_chains != 0) return {};
  const std::size_t rows = result.energies.size() / n_chains;
  std::vector<double> trace(rows);
  for (std::size_t r = 0; r < rows; ++r) trace[r] = result.energies[r * n_chains + chain];
  return trace;
}

RunDiagnostics diagnose(const SpinModel& model, const NrptResult& result,
                        const DiagnosticsOptions& options) {
  RunDiagnostics out;
  out.health = health_report(model, result, options.thresholds);
  out.log_z = log_partition(model, result, options.reference_log_z0, options.log_z_errors);
  std::vector<double> trace;
  if (!result.betas.empty()) {
    trace = energy_trace(result, result.betas.size() - 1);
    if (!trace.empty()) out.cold_energy_ess = effective_sample_size(trace);
  }
  out.health.checks.push_back(error_bar_check(
      model, result, trace, out.cold_energy_ess.value_or(EffectiveSampleSize{}), options));
  const HealthStatus status = out.health.checks.back().status;
  if (status == HealthStatus::fail ||
      (status == HealthStatus::warn && out.health.overall != HealthStatus::fail)) {
    out.health.overall = status;
  }
  return out;
}

}  // namespace hamon
