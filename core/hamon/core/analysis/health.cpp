// SPDX-License-Identifier: Apache-2.0
#include "hamon/core/analysis/health.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <optional>
#include <utility>

#include "hamon/core/families/family_facts.hpp"
#include "hamon/core/util/enum_names.hpp"
#include "hamon/core/util/text.hpp"

namespace hamon {

// Values in the health messages to four significant digits (summary.yaml keeps them).
constexpr int kMessageDigits = 4;

namespace {

HealthCheck make_check(std::string name, HealthStatus status, double value, double threshold,
                       std::string message) {
  return HealthCheck{std::move(name), status, value, threshold, std::move(message)};
}

HealthCheck skipped(std::string name, std::string why) {
  return make_check(std::move(name), HealthStatus::skipped, 0.0, 0.0, std::move(why));
}

/// Entropy of a categorical distribution in units of log q (1 for the uniform one).
double normalised_entropy(const std::vector<double>& p) {
  double h = 0.0;
  for (double v : p) {
    if (v > 0.0) h -= v * std::log2(v);
  }
  return h / std::log2(static_cast<double>(p.size()));
}

// Mean marginal entropy (in units of log q, the family's values) over the free nodes the
// run observed, or nullopt.
std::optional<double> cold_marginal_entropy(const SpinModel& model, const FamilyFacts& family,
                                            const NrptResult& result) {
  const auto& clamped = model.clamped();
  const auto q = static_cast<std::size_t>(family.values_per_variable);
  double sum = 0.0;
  std::int64_t count = 0;
  if (result.moments.n_samples > 0 &&
      result.moments.node_means.size() ==
          static_cast<std::size_t>(family.mean_columns) * clamped.size()) {
    for (std::size_t i = 0; i < clamped.size(); ++i) {
      if (clamped[i] != 0) continue;
      sum += normalised_entropy(
          family.marginal(result.moments.node_means, i, family.values_per_variable));
      ++count;
    }
  } else if (result.n_samples > 0 && !result.sample_nodes.empty()) {
    const std::size_t width = result.sample_nodes.size();
    std::vector<double> p(q);
    for (std::size_t k = 0; k < width; ++k) {
      if (clamped[static_cast<std::size_t>(result.sample_nodes[k])] != 0) continue;
      std::fill(p.begin(), p.end(), 0.0);
      for (std::int64_t s = 0; s < result.n_samples; ++s) {
        const std::int8_t value = result.samples[static_cast<std::size_t>(s) * width + k];
        p[static_cast<std::size_t>(family.value_index(value))] += 1.0;
      }
      for (double& v : p) v /= static_cast<double>(result.n_samples);
      sum += normalised_entropy(p);
      ++count;
    }
  }
  if (count == 0) return std::nullopt;
  return sum / static_cast<double>(count);
}

/// Uniform marginals are exact: no fields and no clamps (Potts: and couplings of the Potts
/// form, which every permutation of the states keeps).
bool spin_flip_symmetric(const SpinModel& model) {
  const auto zero = [](const std::vector<double>& values) {
    return std::all_of(values.begin(), values.end(), [](double h) { return h == 0.0; });
  };
  return zero(model.fields()) && zero(model.state_fields()) && model.csr_matrices().empty() &&
         model.n_free() == model.n_nodes();
}

HealthStatus worse(HealthStatus a, HealthStatus b) {
  auto rank = [](HealthStatus s) {
    switch (s) {
      case HealthStatus::skipped:
        return 0;
      case HealthStatus::pass:
        return 1;
      case HealthStatus::warn:
        return 2;
      case HealthStatus::fail:
        return 3;
    }
    return 0;
  };
  return rank(a) >= rank(b) ? a : b;
}

std::vector<HealthCheck> swap_checks(const NrptResult& result, const HealthThresholds& t) {
  const SwapStatistics& s = result.swaps;
  std::vector<HealthCheck> checks;
  const char* names[] = {"swap_attempts", "round_trip_rate", "efficiency", "rejection_std"};
  if (s.attempted.empty()) {
    for (const char* name : names) checks.push_back(skipped(name, "one chain: no swaps"));
    return checks;
  }
  const std::int64_t min_attempts = *std::min_element(s.attempted.begin(), s.attempted.end());
  const auto min_d = static_cast<double>(min_attempts);
  const auto required = static_cast<double>(t.min_attempts);
  if (min_attempts < t.min_attempts) {
    checks.push_back(make_check(names[0], HealthStatus::warn, min_d, required,
                                "a pair was attempted only " + std::to_string(min_attempts) +
                                    " times (< " + std::to_string(t.min_attempts) +
                                    "): run longer to judge the ladder"));
    for (int k = 1; k < 4; ++k) checks.push_back(skipped(names[k], "too few swap attempts"));
    return checks;
  }
  checks.push_back(
      make_check(names[0], HealthStatus::pass, min_d, required,
                 "every pair attempted >= " + std::to_string(t.min_attempts) + " times"));

  const double tau = result.tau_observed;
  checks.push_back(
      tau < t.tau_min
          ? make_check(names[1], HealthStatus::fail, tau, t.tau_min,
                       "round trips per round " + format_significant(tau, kMessageDigits) + " < " +
                           format_significant(t.tau_min, kMessageDigits) +
                           ": the conveyor is stuck (too few chains, or a "
                           "barrier the ladder does not resolve)")
          : make_check(names[1], HealthStatus::pass, tau, t.tau_min,
                       "round trips per round " + format_significant(tau, kMessageDigits)));

  const double eff = result.efficiency;
  const std::string eff_text =
      "tau_observed / tau_predicted = " + format_significant(eff, kMessageDigits);
  if (eff < t.efficiency_fail) {
    checks.push_back(make_check(names[2], HealthStatus::fail, eff, t.efficiency_fail,
                                eff_text + " < " +
                                    format_significant(t.efficiency_fail, kMessageDigits) +
                                    ": far below the optimal round-trip rate"));
  } else if (eff < t.efficiency_warn) {
    checks.push_back(make_check(names[2], HealthStatus::warn, eff, t.efficiency_warn,
                                eff_text + " < " +
                                    format_significant(t.efficiency_warn, kMessageDigits) +
                                    ": the chains decorrelate too slowly between swaps "
                                    "(more exploration sweeps may help)"));
  } else {
    checks.push_back(make_check(names[2], HealthStatus::pass, eff, t.efficiency_warn, eff_text));
  }

  double mean = 0.0;
  for (double r : s.rejection) mean += r;
  mean /= static_cast<double>(s.rejection.size());
  double ss = 0.0;
  for (double r : s.rejection) ss += (r - mean) * (r - mean);
  const double std_dev = std::sqrt(ss / static_cast<double>(s.rejection.size()));
  checks.push_back(
      std_dev > t.rejection_std_max
          ? make_check(names[3], HealthStatus::warn, std_dev, t.rejection_std_max,
                       "std of rejection rates " + format_significant(std_dev, kMessageDigits) +
                           " > " + format_significant(t.rejection_std_max, kMessageDigits) +
                           ": the ladder is not equalised (tune the schedule)")
          : make_check(names[3], HealthStatus::pass, std_dev, t.rejection_std_max,
                       "std of rejection rates " + format_significant(std_dev, kMessageDigits)));
  return checks;
}

std::vector<HealthCheck> marginal_checks(const SpinModel& model, const NrptResult& result,
                                         const HealthThresholds& t) {
  std::vector<HealthCheck> checks;
  const FamilyFacts family = family_facts(model);
  if (family.values_per_variable == 0) {  // a real value has no marginal entropy in bits
    const char* why = "the marginal-entropy checks are for discrete variables";
    checks.push_back(skipped("cold_chain_frozen", why));
    checks.push_back(skipped("cold_chain_uniform", why));
    return checks;
  }
  const auto entropy = cold_marginal_entropy(model, family, result);
  if (!entropy) {
    const char* why = "no cold-chain marginals recorded (enable moments or samples)";
    checks.push_back(skipped("cold_chain_frozen", why));
    checks.push_back(skipped("cold_chain_uniform", why));
    return checks;
  }
  const std::string text = "mean marginal entropy of the cold chain " +
                           format_significant(*entropy, kMessageDigits) + family.entropy_unit;
  checks.push_back(
      *entropy < t.frozen_entropy
          ? make_check("cold_chain_frozen", HealthStatus::warn, *entropy, t.frozen_entropy,
                       text + " < " + format_significant(t.frozen_entropy, kMessageDigits) +
                           ": the cold chain looks frozen in one configuration")
          : make_check("cold_chain_frozen", HealthStatus::pass, *entropy, t.frozen_entropy, text));
  if (spin_flip_symmetric(model)) {
    checks.push_back(skipped("cold_chain_uniform",
                             "spin-flip-symmetric model (no fields, no clamps): uniform "
                             "marginals are exact"));
  } else {
    checks.push_back(
        *entropy > t.uniform_entropy
            ? make_check("cold_chain_uniform", HealthStatus::warn, *entropy, t.uniform_entropy,
                         text + " > " + format_significant(t.uniform_entropy, kMessageDigits) +
                             ": the cold chain looks like the uniform reference")
            : make_check("cold_chain_uniform", HealthStatus::pass, *entropy, t.uniform_entropy,
                         text));
  }
  return checks;
}

}  // namespace

constexpr EnumNames<HealthStatus, 4> kHealthStatusNames{{
    {HealthStatus::pass, "pass"},
    {HealthStatus::warn, "warn"},
    {HealthStatus::fail, "fail"},
    {HealthStatus::skipped, "skipped"},
}};

std::string to_string(HealthStatus status) {
  return name_of(kHealthStatusNames, status);
}

const HealthCheck* HealthReport::find(const std::string& name) const {
  for (const HealthCheck& c : checks) {
    if (c.name == name) return &c;
  }
  return nullptr;
}

std::string HealthReport::describe() const {
  std::string out;
  for (const HealthCheck& c : checks) {
    out += to_string(c.status) + " " + c.name + ": " + c.message + "\n";
  }
  out += "overall: " + to_string(overall) + "\n";
  return out;
}

HealthReport health_report(const SpinModel& model, const NrptResult& result,
                           const HealthThresholds& thresholds) {
  HealthReport report;
  report.checks = swap_checks(result, thresholds);
  for (HealthCheck& c : marginal_checks(model, result, thresholds)) {
    report.checks.push_back(std::move(c));
  }
  for (const HealthCheck& c : report.checks) report.overall = worse(report.overall, c.status);
  return report;
}

}  // namespace hamon
