// SPDX-License-Identifier: Apache-2.0
#pragma once
// Diagnostics of an NRPT run in one call (what a run summary reports): the health
// report (plus the error_bars check, which needs both moments and energies), log Z by thermodynamic
// integration and stepping stone when the run recorded energies and log Z(beta_0) is known, and the
// effective sample size of the cold chain's energy trace. The pieces live in health.hpp,
// log_partition.hpp, ess.hpp and rhat.hpp.

#include <optional>

#include "hamon/core/analysis/health.hpp"
#include "hamon/core/analysis/log_partition.hpp"
#include "hamon/core/model/spin_model.hpp"
#include "hamon/core/sampler/nrpt.hpp"
#include "hamon/core/stats/ess.hpp"
#include "hamon/core/stats/rhat.hpp"

namespace hamon {

struct DiagnosticsOptions {
  HealthThresholds thresholds;
  /// log Z(beta_0) when the ladder does not start at 0 (with beta_0 = 0 it is exact).
  std::optional<double> reference_log_z0;
  LogZErrorOptions log_z_errors;
  /// error_bars check (it also fails where a free node's mean has error 0: it never
  /// changed, so its error is unknown): warn when the batch-means error of the cold chain's energy
  /// is below this fraction of the error its effective sample size gives (sd / sqrt(ESS)). The two
  /// estimate the same thing; batches shorter than the autocorrelation time make the first too
  /// small. 0.7: both are noisy (~15 % each with 32 batches and Geyer's window), so an honest run
  /// stays above it.
  double min_error_ratio = 0.7;
};

struct RunDiagnostics {
  HealthReport health;
  std::optional<LogPartition> log_z;                   // needs recorded energies
  std::optional<EffectiveSampleSize> cold_energy_ess;  // needs recorded energies
};

RunDiagnostics diagnose(const SpinModel& model, const NrptResult& result,
                        const DiagnosticsOptions& options = {});

/// The energy trace of chain `chain` (temperature index) from NrptResult::energies;
/// empty when the run recorded none.
std::vector<double> energy_trace(const NrptResult& result, std::size_t chain);

}  // namespace hamon
