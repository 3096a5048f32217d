// SPDX-License-Identifier: Apache-2.0
#pragma once
// A health report of an NRPT run: the checks of the reference library's
// report_nrpt_diagnostics, each with a status, the value it measured and a message, and
// an overall status (the worst one that was not skipped). Host side.
//
// Checks (thresholds in HealthThresholds: the reference defaults, but efficiency's):
//   swap_attempts       every pair attempted >= min_attempts times; when not, the checks
//                       that read rejection rates are skipped (too few data) — warn.
//   round_trip_rate     tau_observed >= tau_min, else the conveyor is stuck — fail.
//   efficiency          tau_observed / tau_predicted (the finite-ladder prediction, 1 for
//                       an ideal sampler on this ladder): < efficiency_fail fail,
//                       < efficiency_warn warn. The Python hamon divides by the
//                       fine-ladder limit 1 / (2 + 2 Lambda) instead, which reads 1.2..2.8
//                       times lower on real ladders (~1.8 at acceptance 0.5); its 0.2 and
//                       0.35 are recalibrated on runs with too few and enough exploration
//                       sweeps (docs/statistics.md, "Efficiency thresholds").
//   rejection_std       std of the per-pair rejection rates <= rejection_std_max, else the
//                       ladder is not equalised (inefficient, not wrong) — warn.
//   cold_chain_frozen   mean binary entropy (bits) of the cold chain's marginals over free
//                       nodes < frozen_entropy: the chain looks stuck — warn.
//   cold_chain_uniform  the same entropy > uniform_entropy: the target looks like the
//                       reference (too hot, or not equilibrated) — warn. Skipped for a
//                       spin-flip-symmetric model (no fields, no clamps), whose exact
//                       marginals are uniform.
// The marginals come from the moments observer when it ran, else from recorded cold-chain
// samples; with neither the two entropy checks are skipped. One chain: the swap checks
// are skipped.

#include <cstdint>
#include <string>
#include <vector>

#include "hamon/core/model/spin_model.hpp"
#include "hamon/core/sampler/nrpt.hpp"

namespace hamon {

enum class HealthStatus { pass, warn, fail, skipped };

/// "pass", "warn", "fail", "skipped".
std::string to_string(HealthStatus status);

struct HealthThresholds {
  double tau_min = 0.01;
  double efficiency_fail = 0.35;
  double efficiency_warn = 0.55;
  double rejection_std_max = 0.15;
  double frozen_entropy = 0.05;
  double uniform_entropy = 0.95;
  std::int64_t min_attempts = 50;
};

struct HealthCheck {
  std::string name;
  HealthStatus status = HealthStatus::skipped;
  double value = 0.0;      // what was measured (0 when skipped)
  double threshold = 0.0;  // the threshold it was compared with
  std::string message;
};

struct HealthReport {
  std::vector<HealthCheck> checks;
  HealthStatus overall = HealthStatus::skipped;  // worst non-skipped; skipped if all were

  /// The check called `name`, or nullptr.
  const HealthCheck* find(const std::string& name) const;
  /// One line per check: "<status> <name>: <message>", then "overall: <status>".
  std::string describe() const;
};

HealthReport health_report(const SpinModel& model, const NrptResult& result,
                           const HealthThresholds& thresholds = {});

}  // namespace hamon
