// SPDX-License-Identifier: Apache-2.0
#include "hamon/core/analysis/detail/log_z_checks.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "hamon/core/util/text.hpp"

namespace hamon::log_z {

namespace {

// Figures in messages to three significant digits, as the health checks' diagnostics.
constexpr int kDigits = 3;

std::string sig(double value) {
  return format_significant(value, kDigits);
}

struct LogMeanExp {
  double value = 0.0;  // log mean exp(a)
  double ess = 0.0;    // (sum e^a)^2 / sum e^2a
};

// Shifted by the maximum, so that neither sum overflows.
LogMeanExp log_mean_exp(const std::vector<double>& a) {
  const double shift = *std::max_element(a.begin(), a.end());
  double sum = 0.0;
  double squares = 0.0;
  for (double v : a) {
    const double w = std::exp(v - shift);
    sum += w;
    squares += w * w;
  }
  return {shift + std::log(sum / static_cast<double>(a.size())), sum * sum / squares};
}

}  // namespace

PairRatios pair_ratios(const std::vector<double>& betas, const std::vector<double>& energies) {
  const std::size_t n_chains = betas.size();
  const std::size_t rows = energies.size() / n_chains;
  PairRatios out;
  std::vector<double> a(rows);
  for (std::size_t i = 0; i + 1 < n_chains; ++i) {
    const double step = betas[i + 1] - betas[i];
    for (std::size_t r = 0; r < rows; ++r) a[r] = -step * energies[r * n_chains + i];
    const LogMeanExp forward = log_mean_exp(a);
    for (std::size_t r = 0; r < rows; ++r) a[r] = step * energies[r * n_chains + i + 1];
    const LogMeanExp reverse = log_mean_exp(a);
    out.forward.push_back(forward.value);
    out.ess_forward.push_back(forward.ess);
    out.reverse.push_back(-reverse.value);
    out.ess_reverse.push_back(reverse.ess);
  }
  return out;
}

std::string pair_name(const std::vector<double>& betas, std::size_t i) {
  return sig(betas[i]) + " -> " + sig(betas[i + 1]);
}

std::vector<bool> unresolved_intervals(const std::vector<double>& betas,
                                       const std::vector<double>& means,
                                       const std::vector<double>& variances,
                                       const LogZErrorOptions& options,
                                       std::vector<std::string>& warnings) {
  std::vector<bool> out(betas.size() > 0 ? betas.size() - 1 : 0, false);
  for (std::size_t i = 0; i + 1 < betas.size(); ++i) {
    const double h = betas[i + 1] - betas[i];
    const double largest = std::max(variances[i], variances[i + 1]);
    const double smallest = std::min(variances[i], variances[i + 1]);
    const double change = std::abs(means[i + 1] - means[i]);
    const double bracket = h * change / 2.0;
    std::string reason;
    if (change > options.interior_peak_factor * h * largest) {
      reason = "<E> changes by " + sig(change) + ", more than " +
               sig(options.interior_peak_factor) +
               " x dbeta max Var(E) = " + sig(options.interior_peak_factor * h * largest) +
               ": Var(E) peaks inside the interval";
    } else if (largest > options.max_variance_ratio * smallest) {
      reason = "Var(E) changes from " + sig(variances[i]) + " to " + sig(variances[i + 1]) +
               ", by more than a factor " + sig(options.max_variance_ratio) +
               ": it is not smooth on the scale of the interval";
    } else {
      continue;
    }
    out[i] = true;
    if (bracket >= options.bracket_negligible) {
      warnings.push_back("log Z thermodynamic integration: interval beta " + pair_name(betas, i) +
                         " is too coarse for the quadrature: " + reason +
                         "; its error is the whole bracket of the left and right sums, +- " +
                         sig(bracket) + "; more chains there would narrow it");
    }
  }
  return out;
}

double integral(const std::vector<double>& betas, const std::vector<double>& means,
                const std::vector<double>& variances, const std::vector<bool>& unresolved) {
  double total = 0.0;
  for (std::size_t i = 0; i + 1 < betas.size(); ++i) {
    const double h = betas[i + 1] - betas[i];
    total += 0.5 * h * (means[i] + means[i + 1]);
    if (!unresolved[i]) total += h * h / 12.0 * (variances[i + 1] - variances[i]);
  }
  return -total;
}

double discretisation_error(const std::vector<double>& betas, const std::vector<double>& means,
                            const std::vector<double>& variances,
                            const std::vector<bool>& unresolved) {
  double total = 0.0;
  for (std::size_t i = 0; i + 1 < betas.size(); ++i) {
    const double h = betas[i + 1] - betas[i];
    total += unresolved[i] ? h * std::abs(means[i] - means[i + 1]) / 2.0
                           : h * h / 12.0 * std::abs(variances[i + 1] - variances[i]);
  }
  return total;
}

bool stepping_stone_trusted(const std::vector<double>& betas, const PairRatios& ratios,
                            const std::vector<double>& gap_errors, std::size_t n_batches,
                            double standard_error, const std::vector<double>& acceptance,
                            const LogZErrorOptions& options, std::vector<std::string>& warnings) {
  const double min_ess = options.min_weight_ess_per_batch * static_cast<double>(n_batches);
  bool trusted = true;
  for (std::size_t i = 0; i < ratios.forward.size(); ++i) {
    std::string reasons;
    auto add = [&reasons](const std::string& reason) {
      reasons += (reasons.empty() ? "" : "; ") + reason;
    };
    const double ess = std::min(ratios.ess_forward[i], ratios.ess_reverse[i]);
    if (ess < min_ess) {
      add("the weights exp(-dbeta E) are heavy-tailed: " + sig(ess) +
          " effective weights, fewer than " + sig(options.min_weight_ess_per_batch) + " x " +
          std::to_string(n_batches) + " batches");
    }
    // Only with enough batches for the gap's own error to mean something (fewer already
    // warn), and only a gap above the estimate's error: a smaller bias leaves it holding.
    const double gap = ratios.reverse[i] - ratios.forward[i];
    if (n_batches >= static_cast<std::size_t>(options.min_batches) &&
        std::abs(gap) > options.gap_sigmas * gap_errors[i] && std::abs(gap) > standard_error) {
      add("the log ratio from beta " + sig(betas[i]) + " (" + sig(ratios.forward[i]) +
          ") and from beta " + sig(betas[i + 1]) + " (" + sig(ratios.reverse[i]) + ") differ by " +
          sig(gap) +
          (gap_errors[i] > 0 ? ", " + sig(gap / gap_errors[i]) + " x its error"
                             : " in every batch alike"));
    }
    if (!acceptance.empty() && acceptance[i] < options.min_swap_acceptance) {
      add("swap acceptance " + sig(acceptance[i]) + " < " + sig(options.min_swap_acceptance));
    }
    if (reasons.empty()) continue;
    trusted = false;
    warnings.push_back("log Z stepping stone: pair beta " + pair_name(betas, i) +
                       " overlaps too little for its error to hold: " + reasons);
  }
  return trusted;
}

}  // namespace hamon::log_z
