// SPDX-License-Identifier: Apache-2.0
#include "hamon/core/analysis/log_partition.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <stdexcept>
#include <string>

#include "hamon/core/analysis/detail/log_z_checks.hpp"
#include "hamon/core/families/family_facts.hpp"
#include "hamon/core/model/reference_log_z.hpp"
#include "hamon/core/stats/ess.hpp"
#include "hamon/core/stats/statistics.hpp"
#include "hamon/core/util/enum_names.hpp"
#include "hamon/core/util/text.hpp"

namespace hamon {

// Errors in messages to three significant digits, as the health checks' diagnostics.
constexpr int kMessageDigits = 3;

namespace {

std::size_t rows_of(const std::vector<double>& betas, const std::vector<double>& energies) {
  const std::size_t n_chains = betas.size();
  if (n_chains == 0 || energies.size() % n_chains != 0) {
    throw std::invalid_argument("log Z: energies must hold n_rounds rows of " +
                                std::to_string(n_chains) + " chains, got " +
                                std::to_string(energies.size()) + " values");
  }
  return energies.size() / n_chains;
}

// The rows [first, last) of an n_rounds x n_chains matrix.
std::vector<double> row_slice(const std::vector<double>& energies, std::size_t n_chains,
                              std::size_t first, std::size_t last) {
  return std::vector<double>(energies.begin() + static_cast<std::ptrdiff_t>(first * n_chains),
                             energies.begin() + static_cast<std::ptrdiff_t>(last * n_chains));
}

struct ColumnMoments {
  std::vector<double> mean;
  std::vector<double> variance;  // over n (the plug-in estimate)
};

ColumnMoments column_moments(const std::vector<double>& energies, std::size_t n_chains) {
  ColumnMoments m{std::vector<double>(n_chains, 0.0), std::vector<double>(n_chains, 0.0)};
  const std::size_t rows = energies.size() / n_chains;
  for (std::size_t r = 0; r < rows; ++r) {
    for (std::size_t c = 0; c < n_chains; ++c) m.mean[c] += energies[r * n_chains + c];
  }
  for (double& v : m.mean) v /= static_cast<double>(rows);
  for (std::size_t r = 0; r < rows; ++r) {
    for (std::size_t c = 0; c < n_chains; ++c) {
      const double d = energies[r * n_chains + c] - m.mean[c];
      m.variance[c] += d * d;
    }
  }
  for (double& v : m.variance) v /= static_cast<double>(rows);
  return m;
}

double ti_of(const std::vector<double>& betas, const std::vector<double>& energies,
             const std::vector<bool>& unresolved) {
  const ColumnMoments m = column_moments(energies, betas.size());
  return log_z::integral(betas, m.mean, m.variance, unresolved);
}

// The largest integrated autocorrelation time over the chains' energy traces; chains
// whose trace is constant (or too short) do not count. nullopt when no chain has one.
std::optional<double> largest_energy_tau(const std::vector<double>& energies,
                                         std::size_t n_chains) {
  const std::size_t rows = energies.size() / n_chains;
  std::optional<double> largest;
  std::vector<double> trace(rows);
  for (std::size_t c = 0; c < n_chains; ++c) {
    for (std::size_t r = 0; r < rows; ++r) trace[r] = energies[r * n_chains + c];
    const EffectiveSampleSize ess = effective_sample_size(trace);
    if (ess.defined) largest = std::max(largest.value_or(0.0), ess.tau);
  }
  return largest;
}

std::string smaller_error_reason(const LogPartition& z) {
  const double ti = z.thermodynamic_integration.error();
  const double ss = z.stepping_stone.error();
  if (z.preferred == LogZMethod::thermodynamic_integration) {
    return "thermodynamic integration has the smaller total error (" +
           format_significant(ti, kMessageDigits) + " against " +
           format_significant(ss, kMessageDigits) + " for stepping stone)";
  }
  return "stepping stone has no discretisation error and the smaller total error (" +
         format_significant(ss, kMessageDigits) + " against " +
         format_significant(ti, kMessageDigits) + " for thermodynamic integration, of which " +
         format_significant(z.thermodynamic_integration.discretisation_error, kMessageDigits) +
         " from the quadrature)";
}

/// Why, between two estimates of the same standing (both trusted or neither).
std::string equal_standing_reason(const LogPartition& z) {
  return (z.thermodynamic_integration.trusted
              ? ""
              : "neither estimate can be trusted on this ladder (see the warnings); ") +
         smaller_error_reason(z);
}

/// Whether thermodynamic integration's total error may be compared: its discretisation
/// error is a bound (2-7x the real one on Ising ladders), so only where that bound is small
/// beside its statistical error (at most a third: the total is then within 6 % of the
/// statistical error, which batch means calibrate).
bool ti_error_is_calibrated(const LogZEstimate& ti) {
  return ti.discretisation_error <= ti.standard_error / 3.0;
}

// A trusted estimate over an untrusted one, whatever their errors: an error that does not
// hold is no reason to prefer anything. Between two of the same standing, the smaller error.
void choose_preferred(LogPartition& z) {
  const bool ti_trusted = z.thermodynamic_integration.trusted;
  const bool ss_trusted = z.stepping_stone.trusted;
  if (ti_trusted != ss_trusted) {
    z.preferred = ti_trusted ? LogZMethod::thermodynamic_integration : LogZMethod::stepping_stone;
    z.preferred_reason = std::string(ti_trusted ? "stepping stone" : "thermodynamic integration") +
                         " cannot be trusted on this ladder (see the warnings), so " +
                         (ti_trusted ? "thermodynamic integration" : "stepping stone") +
                         " whatever the errors say";
    return;
  }
  // Thermodynamic integration competes on its total error only where that is calibrated.
  const LogZEstimate& ti = z.thermodynamic_integration;
  if (ti_trusted && !ti_error_is_calibrated(ti)) {
    z.preferred = LogZMethod::stepping_stone;
    z.preferred_reason =
        "stepping stone: its error is statistical and calibrated, while thermodynamic "
        "integration's discretisation error (" +
        format_significant(ti.discretisation_error, kMessageDigits) +
        ") is a bound, not an estimate, and not small beside its statistical error (" +
        format_significant(ti.standard_error, kMessageDigits) + ")";
    return;
  }
  z.preferred = ti.error() < z.stepping_stone.error() ? LogZMethod::thermodynamic_integration
                                                      : LogZMethod::stepping_stone;
  z.preferred_reason = equal_standing_reason(z);
  if (!ti_trusted) {
    z.warnings.push_back(
        "log Z: neither estimate can be trusted on this ladder: the ladder is too coarse where "
        "the warnings above say; add chains there (or tune the ladder) and run again");
  }
}

// The batch-means error of per-batch estimates, with statistics.hpp's correction for
// batches whose values still correlate (consecutive batches of a run not much longer than
// the autocorrelation time): without it the log Z errors read 10-25 % small on short runs.
double standard_error(const std::vector<double>& values) {
  if (values.size() < 2) return 0.0;
  return batch_means(values, std::vector<std::int64_t>(values.size(), 1)).standard_error;
}

}  // namespace

double thermodynamic_integration(const std::vector<double>& betas,
                                 const std::vector<double>& mean_energies) {
  if (betas.size() != mean_energies.size()) {
    throw std::invalid_argument("thermodynamic_integration: one mean energy per beta needed");
  }
  double integral = 0.0;
  for (std::size_t i = 0; i + 1 < betas.size(); ++i) {
    integral += 0.5 * (betas[i + 1] - betas[i]) * (mean_energies[i] + mean_energies[i + 1]);
  }
  return -integral;
}

double thermodynamic_integration(const std::vector<double>& betas,
                                 const std::vector<double>& mean_energies,
                                 const std::vector<double>& energy_variances) {
  if (energy_variances.size() != betas.size()) {
    throw std::invalid_argument("thermodynamic_integration: one energy variance per beta needed");
  }
  double correction = 0.0;  // h^2 / 12 (f'_i - f'_{i+1}) with f' = -variance
  for (std::size_t i = 0; i + 1 < betas.size(); ++i) {
    const double h = betas[i + 1] - betas[i];
    correction += h * h / 12.0 * (energy_variances[i + 1] - energy_variances[i]);
  }
  return thermodynamic_integration(betas, mean_energies) - correction;
}

double LogZEstimate::error() const {
  const double own = std::hypot(standard_error, discretisation_error);
  return log_z0_error == 0.0 ? own : std::hypot(own, log_z0_error);
}

constexpr EnumNames<LogZMethod, 2> kLogZMethodNames{{
    {LogZMethod::thermodynamic_integration, "thermodynamic_integration"},
    {LogZMethod::stepping_stone, "stepping_stone"},
}};

const char* to_string(LogZMethod method) {
  return name_of(kLogZMethodNames, method);
}

double stepping_stone(const std::vector<double>& betas, const std::vector<double>& energies) {
  const std::size_t rows = rows_of(betas, energies);
  if (rows == 0) throw std::invalid_argument("stepping_stone: no energies");
  const std::size_t n_chains = betas.size();
  double total = 0.0;
  std::vector<double> a(rows);
  for (std::size_t i = 0; i + 1 < n_chains; ++i) {
    const double step = betas[i + 1] - betas[i];
    for (std::size_t r = 0; r < rows; ++r) a[r] = -step * energies[r * n_chains + i];
    const double shift = *std::max_element(a.begin(), a.end());
    double sum = 0.0;
    for (double v : a) sum += std::exp(v - shift);
    total += shift + std::log(sum / static_cast<double>(rows));
  }
  return total;
}

LogPartition log_partition(const std::vector<double>& betas, const std::vector<double>& energies,
                           double log_z0, const LogZErrorOptions& errors,
                           const std::vector<double>& swap_acceptance,
                           const NormalisingRange& range) {
  const std::size_t rows = rows_of(betas, energies);
  if (rows < 2) throw std::invalid_argument("log Z: at least 2 recorded rounds are needed");
  if (!swap_acceptance.empty() && swap_acceptance.size() + 1 != betas.size()) {
    throw std::invalid_argument("log Z: one swap acceptance per pair of neighbours needed");
  }
  const std::size_t n_chains = betas.size();
  LogPartition out;
  out.log_z0 = log_z0;
  const ColumnMoments moments = column_moments(energies, n_chains);
  const std::vector<bool> unresolved =
      log_z::unresolved_intervals(betas, moments.mean, moments.variance, errors, out.warnings);
  out.thermodynamic_integration.value =
      log_z0 + log_z::integral(betas, moments.mean, moments.variance, unresolved);
  out.thermodynamic_integration.discretisation_error =
      log_z::discretisation_error(betas, moments.mean, moments.variance, unresolved);
  const log_z::PathLimits limits{range, log_z::bridge_fractions(betas, range)};
  out.beta_limit = range.upper;
  out.notes = log_z::bridge_notes(betas, limits);
  const log_z::PairRatios ratios = log_z::pair_ratios(betas, energies, limits.bridge);
  double ss = 0.0;
  for (double r : ratios.used) ss += r;
  out.stepping_stone.value = log_z0 + ss;

  // Batches at least min_batch_taus x tau long, at most max_batches, at least 2 rows each.
  const std::optional<double> tau = largest_energy_tau(energies, n_chains);
  out.energy_tau = tau.value_or(0.0);
  const double min_length = std::max(1.0, errors.min_batch_taus * tau.value_or(1.0));
  const auto fitting = static_cast<std::size_t>(static_cast<double>(rows) / min_length);
  const std::size_t batches = std::max<std::size_t>(
      std::min({static_cast<std::size_t>(std::max(errors.max_batches, 2)), fitting, rows / 2}), 2);
  out.n_batches = static_cast<std::int64_t>(batches);
  out.batch_rounds = static_cast<std::int64_t>(rows / batches);
  if (!tau && rows >= 4) {
    out.warnings.push_back(
        "log Z errors: no chain's energy varies, so its autocorrelation time is unknown");
  } else if (!tau) {
    out.warnings.push_back("log Z errors: " + std::to_string(rows) +
                           " rounds are too few to estimate the energies' autocorrelation time");
  }
  if (batches < static_cast<std::size_t>(errors.min_batches)) {
    out.warnings.push_back(
        "log Z errors: the run is too short for honest error bars: " + std::to_string(rows) +
        " rounds make only " + std::to_string(batches) + " batches of " +
        std::to_string(out.batch_rounds) + " rounds, against the " +
        std::to_string(errors.min_batches) + " batches of " +
        format_significant(min_length, kMessageDigits) + " rounds (" +
        format_significant(errors.min_batch_taus, kMessageDigits) +
        " x the energy autocorrelation time " + format_significant(out.energy_tau, kMessageDigits) +
        ") wanted; run longer");
  }
  std::vector<double> ti_batches;
  std::vector<double> ss_batches;
  std::vector<std::vector<double>> gap_batches(n_chains - 1);
  for (std::size_t b = 0; b < batches; ++b) {
    const auto slice = row_slice(energies, n_chains, rows * b / batches, rows * (b + 1) / batches);
    ti_batches.push_back(ti_of(betas, slice, unresolved));
    const log_z::PairRatios batch = log_z::pair_ratios(betas, slice, limits.bridge);
    double total = 0.0;
    for (std::size_t i = 0; i + 1 < n_chains; ++i) {
      total += batch.used[i];
      gap_batches[i].push_back(batch.reverse[i] - batch.forward[i]);
    }
    ss_batches.push_back(total);
  }
  out.thermodynamic_integration.standard_error = standard_error(ti_batches);
  out.stepping_stone.standard_error = standard_error(ss_batches);
  std::vector<double> gap_errors;
  for (const auto& gaps : gap_batches) gap_errors.push_back(standard_error(gaps));
  out.stepping_stone.trusted = log_z::stepping_stone_trusted(
      betas, ratios, gap_errors, batches, out.stepping_stone.standard_error, swap_acceptance,
      limits, errors, out.warnings);
  choose_preferred(out);
  return out;
}

std::optional<LogPartition> log_partition(const SpinModel& model, const NrptResult& result,
                                          std::optional<double> reference_log_z0,
                                          const LogZErrorOptions& errors) {
  if (result.betas.empty() || result.energies.size() < 2 * result.betas.size()) {
    return std::nullopt;
  }
  // From beta = 0: uniform values where a variable takes finitely many (log Z(0) = N log q),
  // or on an annealing path the reference at the ladder's top (whose energies are E - E_ref:
  // NrptResult::annealed).
  const std::int32_t values = family_facts(model).values_per_variable;
  const bool from_zero = result.betas.front() == 0.0 && (result.annealed || values > 0);
  if (!from_zero && !reference_log_z0) return std::nullopt;
  double log_z0 = 0.0;
  ReferenceLogZ reference;  // exact, no error, unless a quadrature gives it
  if (!from_zero) {
    log_z0 = *reference_log_z0;
  } else if (result.annealed) {
    reference = reference_log_z_with_error(model, result.betas.back());
    log_z0 = reference.value;
  } else {
    log_z0 = static_cast<double>(model.n_free()) * std::log(static_cast<double>(values));
  }
  // A pair never attempted has acceptance 0 but says nothing about overlap: NaN fails no
  // comparison, so the acceptance check passes it by.
  std::vector<double> acceptance;
  const SwapStatistics& swaps = result.swaps;
  if (swaps.acceptance.size() + 1 == result.betas.size() &&
      swaps.attempted.size() == swaps.acceptance.size()) {
    for (std::size_t i = 0; i < swaps.acceptance.size(); ++i) {
      acceptance.push_back(swaps.attempted[i] > 0 ? swaps.acceptance[i]
                                                  : std::numeric_limits<double>::quiet_NaN());
    }
  }
  const NormalisingRange range = normalising_range(model, result.annealed, result.betas.back());
  LogPartition out =
      log_partition(result.betas, result.energies, log_z0, errors, acceptance, range);
  out.log_z0_exact = from_zero && reference.exact;
  if (reference.error > 0.0) {
    // The same error in both estimates: their order stands, the reason's figures change
    // (where the reason quotes the total errors).
    out.log_z0_error = reference.error;
    out.thermodynamic_integration.log_z0_error = reference.error;
    out.stepping_stone.log_z0_error = reference.error;
    const LogZEstimate& ti = out.thermodynamic_integration;
    if (ti.trusted == out.stepping_stone.trusted && (!ti.trusted || ti_error_is_calibrated(ti))) {
      out.preferred_reason = equal_standing_reason(out);
    }
  }
  return out;
}

}  // namespace hamon
