#include "hamon/core/diagnostics.hpp"

namespace hamon {

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
  if (!result.betas.empty()) {
    const auto trace = energy_trace(result, result.betas.size() - 1);
    if (!trace.empty()) out.cold_energy_ess = effective_sample_size(trace);
  }
  return out;
}

}  // namespace hamon
