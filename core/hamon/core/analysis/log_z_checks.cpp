// SPDX-License-Identifier: Apache-2.0
#include "hamon/core/analysis/detail/log_z_checks.hpp"

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <string>

#include "hamon/core/util/text.hpp"

namespace hamon::log_z {

namespace {

// Figures in messages to three significant digits, as the health checks' diagnostics.
constexpr int kDigits = 3;
// A forward weight needs a finite fourth moment for its batch-means error to be stable.
constexpr double kPlainForwardIndex = 4.0;

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

// Hill's estimate of the tail index of the weights exp(a) from their k = max(10, sqrt n)
// largest: k / sum_j (a_(j) - a_(k)). A power-law tail P(w > t) ~ t^-alpha has moments below
// alpha only; infinity when the top weights are equal (a bounded tail).
double hill_tail_index(std::vector<double> a) {
  const std::size_t n = a.size();
  const std::size_t k =
      std::min(n - 1, std::max<std::size_t>(10, static_cast<std::size_t>(std::sqrt(n))));
  if (k < 2) return std::numeric_limits<double>::infinity();
  std::nth_element(a.begin(), a.begin() + static_cast<std::ptrdiff_t>(k), a.end(),
                   std::greater<double>());
  const double threshold = a[k];
  double sum = 0.0;
  for (std::size_t j = 0; j < k; ++j) sum += a[j] - threshold;
  return sum > 0.0 ? static_cast<double>(k) / sum : std::numeric_limits<double>::infinity();
}

}  // namespace

PairRatios pair_ratios(const std::vector<double>& betas, const std::vector<double>& energies,
                       const std::vector<double>& bridge) {
  const std::size_t n_chains = betas.size();
  const std::size_t rows = energies.size() / n_chains;
  PairRatios out;
  std::vector<double> a(rows);
  auto weights = [&](std::size_t chain, double step) {
    for (std::size_t r = 0; r < rows; ++r) a[r] = step * energies[r * n_chains + chain];
  };
  for (std::size_t i = 0; i + 1 < n_chains; ++i) {
    const double step = betas[i + 1] - betas[i];
    weights(i, -step);
    const LogMeanExp forward = log_mean_exp(a);
    const double forward_tail = hill_tail_index(a);
    weights(i + 1, step);
    const LogMeanExp reverse = log_mean_exp(a);
    out.forward.push_back(forward.value);
    out.ess_forward.push_back(forward.ess);
    out.reverse.push_back(-reverse.value);
    out.ess_reverse.push_back(reverse.ess);
    const double x = bridge.empty() ? 1.0 : bridge[i];
    if (x == 1.0) {
      out.used.push_back(forward.value);
      out.ess_used.push_back(forward.ess);
      out.tail_used.push_back(forward_tail);
      continue;
    }
    // Through the point beta_i + x h: forward from chain i, backward from chain i + 1.
    double value = 0.0;
    double ess = std::numeric_limits<double>::infinity();
    double tail = std::numeric_limits<double>::infinity();
    if (x > 0.0) {
      weights(i, -x * step);
      const LogMeanExp part = log_mean_exp(a);
      value += part.value;
      ess = std::min(ess, part.ess);
      tail = std::min(tail, hill_tail_index(a));
    }
    weights(i + 1, (1.0 - x) * step);
    const LogMeanExp part = log_mean_exp(a);
    out.used.push_back(value - part.value);
    out.ess_used.push_back(std::min(ess, part.ess));
    out.tail_used.push_back(std::min(tail, hill_tail_index(a)));
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

std::vector<double> bridge_fractions(const std::vector<double>& betas,
                                     const NormalisingRange& range) {
  std::vector<double> out(betas.empty() ? 0 : betas.size() - 1, 1.0);
  for (std::size_t i = 0; i < out.size(); ++i) {
    const double h = betas[i + 1] - betas[i];
    if (!(h > 0.0) || betas[i] + kPlainForwardIndex * h < range.upper) continue;
    const double ahead = range.upper - betas[i];       // finite here
    const double behind = betas[i + 1] - range.lower;  // may be infinite: then all backward
    out[i] = std::isfinite(behind) ? ahead / (ahead + behind) : 0.0;
  }
  return out;
}

double tail_index(const std::vector<double>& betas, std::size_t pair, double fraction,
                  const NormalisingRange& range) {
  const double h = betas[pair + 1] - betas[pair];
  const double forward = fraction > 0.0 ? (range.upper - betas[pair]) / (fraction * h)
                                        : std::numeric_limits<double>::infinity();
  const double backward = fraction < 1.0 ? (betas[pair + 1] - range.lower) / ((1.0 - fraction) * h)
                                         : std::numeric_limits<double>::infinity();
  return std::min(forward, backward);
}

bool stepping_stone_trusted(const std::vector<double>& betas, const PairRatios& ratios,
                            const std::vector<double>& gap_errors, std::size_t n_batches,
                            double standard_error, const std::vector<double>& acceptance,
                            const PathLimits& limits, const LogZErrorOptions& options,
                            std::vector<std::string>& warnings) {
  const double min_ess = options.min_weight_ess_per_batch * static_cast<double>(n_batches);
  bool trusted = true;
  for (std::size_t i = 0; i < ratios.forward.size(); ++i) {
    std::string reasons;
    auto add = [&reasons](const std::string& reason) {
      reasons += (reasons.empty() ? "" : "; ") + reason;
    };
    const double x = limits.bridge.empty() ? 1.0 : limits.bridge[i];
    const double ess =
        x == 1.0 ? std::min(ratios.ess_forward[i], ratios.ess_reverse[i]) : ratios.ess_used[i];
    if (ess < min_ess) {
      add("the weights exp(-dbeta E) are heavy-tailed: " + sig(ess) +
          " effective weights, fewer than " + sig(options.min_weight_ess_per_batch) + " x " +
          std::to_string(n_batches) + " batches");
    }
    // From the model: a tail index below 4 leaves the weights' variance, and with it the
    // batch-means error, without a finite variance of its own.
    const double model_tail = tail_index(betas, i, x, limits.range);
    if (model_tail < options.min_model_tail_index) {
      add("beta " + sig(betas[i + 1]) + " lies so close to " + sig(limits.range.upper) +
          ", where the model stops normalising, that the weights have moments below " +
          sig(model_tail) + " only");
    } else if (ratios.tail_used[i] < options.min_weight_tail_index) {
      // From the weights alone (any model): Hill's estimate of their tail index.
      add("the largest weights fall off like a power law of index " + sig(ratios.tail_used[i]) +
          " (Hill), below " + sig(options.min_weight_tail_index) +
          ": the weights may have no finite variance");
    }
    // Only with enough batches for the gap's own error to mean something (fewer already
    // warn), and only a gap above the estimate's error: a smaller bias leaves it holding.
    // Not for a bridged pair (its one-sided ratios are what has no finite variance), nor
    // where the reverse weights' variance is infinite (beta_{i+1} - 2 h outside the range).
    const double gap = ratios.reverse[i] - ratios.forward[i];
    const bool reverse_finite = betas[i + 1] - 2.0 * (betas[i + 1] - betas[i]) > limits.range.lower;
    if (x == 1.0 && reverse_finite && n_batches >= static_cast<std::size_t>(options.min_batches) &&
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

std::vector<std::string> bridge_notes(const std::vector<double>& betas, const PathLimits& limits) {
  std::vector<std::string> notes;
  for (std::size_t i = 0; i < limits.bridge.size(); ++i) {
    const double x = limits.bridge[i];
    if (x == 1.0) continue;
    const double h = betas[i + 1] - betas[i];
    notes.push_back("log Z stepping stone: pair beta " + pair_name(betas, i) +
                    ": the model stops normalising at beta " + sig(limits.range.upper) +
                    ", so the forward weights exp(-dbeta E) would have " +
                    (betas[i] + 2.0 * h >= limits.range.upper ? "no finite variance"
                                                              : "no finite fourth moment") +
                    " (beta " + sig(betas[i]) + " + " +
                    (betas[i] + 2.0 * h >= limits.range.upper ? "2" : "4") +
                    " dbeta is beyond it); the ratio is taken through beta " +
                    sig(betas[i] + x * h) + " from both chains instead");
  }
  return notes;
}

}  // namespace hamon::log_z
