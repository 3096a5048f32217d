// SPDX-License-Identifier: Apache-2.0
#include "run/beta_max_auto.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <vector>

#include "config/parse_experiment.hpp"
#include "hamon/core/model/excitation_costs.hpp"
#include "hamon/core/tuning/tuning.hpp"
#include "hamon/core/util/text.hpp"

namespace hamon::cli {

namespace {

/// `chains` left out beside beta_max: auto: the count recommended_chains gives for the
/// barrier the estimate predicts between the ladder's ends (Lambda(beta_max) -
/// Lambda(beta_min): the part of it below beta_min has no chains to cross), the same rule
/// the estimate's n_chains and the diagnosis's advice use.
void choose_chains(NrptSpec& spec, const std::vector<double>& costs) {
  const double Lambda = defect_barrier(costs, spec.beta_max) - defect_barrier(costs, spec.beta_min);
  ChainTuningOptions rule;
  rule.min_chains = spec.tune.betas ? 3 : 2;  // betas: auto moves interior betas
  rule.max_chains = kMaxChains;
  spec.chains = recommended_chains(Lambda, rule);
  spec.chains_from_estimate = false;
  spec.chosen.push_back(
      {"nrpt.chains", std::to_string(spec.chains),
       "the model of beta_max: auto's estimate predicts a barrier Lambda = " +
           format_value(Lambda) + " between beta_min and beta_max; ceil(Lambda * " +
           format_value(1.0 + rule.safety) + " / " + format_value(1.0 - rule.target_acceptance) +
           ") + 1 chains give each pair a swap acceptance of about " +
           format_value(rule.target_acceptance)});
}

/// The median over nodes of what x holds, or 0 when it holds nothing.
double median_of(std::vector<double> x) {
  if (x.empty()) return 0.0;
  const auto middle = x.begin() + static_cast<std::ptrdiff_t>(x.size() / 2);
  std::nth_element(x.begin(), middle, x.end());
  return *middle;
}

/// The typical cost of a flip in a random state: 2 sqrt(sum_j J_ij^2 + h_i^2) (twice the
/// local field's spread over random neighbours), the median over free nodes that have one.
double random_flip_cost(const SpinModel& model) {
  std::vector<double> costs;
  const auto& offsets = model.row_offsets();
  for (std::int64_t i = 0; i < model.n_nodes(); ++i) {
    if (model.clamped()[static_cast<std::size_t>(i)] != 0) continue;
    const double h = model.fields()[static_cast<std::size_t>(i)];
    double spread = h * h;
    for (auto e = offsets[static_cast<std::size_t>(i)];
         e < offsets[static_cast<std::size_t>(i) + 1]; ++e) {
      const double J = model.couplings()[static_cast<std::size_t>(e)];
      spread += J * J;
    }
    if (spread > 0.0) costs.push_back(2.0 * std::sqrt(spread));
  }
  return median_of(std::move(costs));
}

/// goal: ground_state without beta_min: the hot end at 1 / (the typical cost of a flip in a
/// random state), where such a flip is taken with probability about 1/e: the hot chain
/// forgets its state within a few sweeps, and no chains are spent on hotter, featureless
/// betas. On unit Gaussian couplings of a square lattice: 1 / (2 sqrt(4)) = 0.25. (A Potts
/// model's general couplings have no J: then 1 / the median excitation cost of the
/// estimate's model.) At most beta_max / 4, so the ladder spans a factor of 4 or more.
void choose_beta_min(ExperimentConfig& config, const SpinModel& model,
                     const std::vector<double>& costs) {
  NrptSpec& spec = config.nrpt;
  double cost = random_flip_cost(model);
  std::string what =
      "the typical cost of a flip in a random state (2 sqrt(sum_j J_ij^2 + h_i^2), "
      "median over nodes: ";
  if (!(cost > 0.0)) {
    std::vector<double> positive;
    for (double c : costs) {
      if (std::isfinite(c) && c > 0.0) positive.push_back(c);
    }
    cost = median_of(std::move(positive));
    what = "the median excitation cost of the estimate's model (";
  }
  if (!(cost > 0.0) || !(spec.beta_max > 0.0)) {
    config.fail("nrpt.goal",
                "goal: ground_state chooses beta_min from the model's couplings, "
                "but it has none (or beta_max is 0): give nrpt.beta_min");
  }
  spec.beta_min = std::min(1.0 / cost, spec.beta_max / 4.0);
  spec.beta_min_auto = false;
  spec.chosen.push_back({"nrpt.beta_min", format_value(spec.beta_min),
                         "goal: ground_state: 1 / " + what + format_value(cost) +
                             "), where such a flip is taken with probability about 1/e, so the "
                             "hot chain forgets its state in a few sweeps; at most beta_max / 4"});
}

/// beta_max: auto's estimate (written into spec.beta_max), or the description of a given
/// beta_max with gap_tol.
BetaMaxReport estimate(ExperimentConfig& config, const ExcitationSpectrum& spectrum) {
  NrptSpec& spec = config.nrpt;
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
    // A beta_max the goal chose records the number it became.
    for (Choice& c : spec.chosen) {
      if (c.key == "nrpt.beta_max") c.value = format_value(spec.beta_max);
    }
  }
  return report;
}

}  // namespace

std::optional<BetaMaxReport> resolve_beta_max(ExperimentConfig& config, const SpinModel& model) {
  NrptSpec& spec = config.nrpt;
  if (!spec.gap_tol && !spec.beta_min_auto && !spec.chains_from_estimate) return std::nullopt;
  const ExcitationSpectrum spectrum = excitation_spectrum(model);
  std::optional<BetaMaxReport> report;
  if (spec.gap_tol) report = estimate(config, spectrum);
  if (spec.beta_min_auto) choose_beta_min(config, model, spectrum.costs);
  if (spec.chains_from_estimate) choose_chains(spec, spectrum.costs);
  return report;
}

}  // namespace hamon::cli
