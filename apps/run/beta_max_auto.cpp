// SPDX-License-Identifier: Apache-2.0
#include "run/beta_max_auto.hpp"

#include <stdexcept>

#include "hamon/core/model/excitation_costs.hpp"
#include "hamon/core/util/text.hpp"

namespace hamon::cli {

std::optional<BetaMaxReport> resolve_beta_max(ExperimentConfig& config, const SpinModel& model) {
  NrptSpec& spec = config.nrpt;
  if (!spec.gap_tol) return std::nullopt;
  const ExcitationSpectrum spectrum = excitation_spectrum(model);
  BetaMaxReport report;
  report.method = to_string(spectrum.method);
  try {
    const BetaMaxEstimate asked =
        estimate_beta_max(spectrum.costs, spectrum.energy_scale, *spec.gap_tol);
    report.estimated_beta_max = asked.beta_max;
    report.estimate = spec.beta_max_auto ? asked
                                         : describe_beta_max(spectrum.costs, spectrum.energy_scale,
                                                             *spec.gap_tol, spec.beta_max);
  } catch (const std::invalid_argument& e) {
    config.fail(spec.beta_max_auto ? "nrpt.beta_max" : "nrpt.gap_tol", e.what());
  }
  if (spec.beta_max_auto) {
    if (!(report.estimate.beta_max > spec.beta_min)) {
      config.fail("nrpt.beta_max", "beta_max: auto estimates " +
                                       format_value(report.estimate.beta_max) +
                                       ", not above beta_min (" + format_value(spec.beta_min) +
                                       "); lower beta_min or give beta_max as a number");
    }
    spec.beta_max = report.estimate.beta_max;
    spec.beta_max_auto = false;
  }
  return report;
}

}  // namespace hamon::cli
