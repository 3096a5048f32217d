// SPDX-License-Identifier: Apache-2.0
#pragma once
// The pieces of log_partition.hpp's estimates that look at one neighbouring pair of the
// ladder at a time: the two stepping-stone log ratios of a pair with their weights'
// effective sample sizes, the thermodynamic-integration intervals the cubic Hermite rule
// cannot be trusted on, and the overlap checks that decide whether the stepping-stone
// error holds. log_partition.hpp says why each check is there. Host side.

#include <string>
#include <vector>

#include "hamon/core/analysis/log_partition.hpp"

namespace hamon::log_z {

/// Per pair (i, i+1): log Z(beta_{i+1}) - log Z(beta_i) from chain i (forward,
/// log <exp(-h E)>_i) and from chain i+1 (reverse, -log <exp(+h E)>_{i+1}), and the
/// effective number of weights (sum w)^2 / sum w^2 behind each; `used` is the estimate the
/// stepping stone sums: the forward one, or where `bridge` (
/// bridge_fractions; empty: all 1) gives a fraction x < 1 the one through beta_i + x h,
/// log <exp(-x h E)>_i - log <exp(+(1 - x) h E)>_{i+1}, with the smaller ESS of its two
/// sides and the smaller Hill tail index of their weights (tail_used). `energies` is
/// n_rounds x n_chains, row-major, by temperature, n_rounds >= 1.
struct PairRatios {
  std::vector<double> forward;
  std::vector<double> reverse;
  std::vector<double> ess_forward;
  std::vector<double> ess_reverse;
  std::vector<double> used;
  std::vector<double> ess_used;
  std::vector<double> tail_used;
};
PairRatios pair_ratios(const std::vector<double>& betas, const std::vector<double>& energies,
                       const std::vector<double>& bridge = {});

/// "beta_i -> beta_{i+1}" as the warnings name a pair (3 significant digits).
std::string pair_name(const std::vector<double>& betas, std::size_t i);

/// Per interval: true where the Hermite rule is replaced by the trapezoid and its
/// bracket (unresolved); a warning for each one whose bracket is not negligible.
std::vector<bool> unresolved_intervals(const std::vector<double>& betas,
                                       const std::vector<double>& means,
                                       const std::vector<double>& variances,
                                       const LogZErrorOptions& options,
                                       std::vector<std::string>& warnings);

/// -integral of <E>: Hermite on resolved intervals, trapezoid on unresolved ones.
double integral(const std::vector<double>& betas, const std::vector<double>& means,
                const std::vector<double>& variances, const std::vector<bool>& unresolved);

/// sum over intervals of |h^2/12 (Var_{i+1} - Var_i)| (resolved) or h |f_i - f_{i+1}| / 2
/// (unresolved): per interval, so that nothing telescopes.
double discretisation_error(const std::vector<double>& betas, const std::vector<double>& means,
                            const std::vector<double>& variances,
                            const std::vector<bool>& unresolved);

/// Per pair (i, i+1), where between beta_i and beta_{i+1} stepping stone meets from both
/// sides, as the fraction x of the step taken forward from chain i (the rest backward from
/// chain i + 1): 1 (plain forward) where the forward weights have a finite fourth moment
/// (beta_i + 4 h inside the range), else the point that equalises the two sides' tail
/// indices, (upper - beta_i) / x h = (beta_{i+1} - lower) / (1 - x) h, so that both
/// weights have tail index (upper - beta_i + beta_{i+1} - lower) / h > 2: a finite variance
/// on any ladder whose chains all normalise.
std::vector<double> bridge_fractions(const std::vector<double>& betas,
                                     const NormalisingRange& range);

/// The tail index of the weights a pair uses with bridge fraction x: the moments they have.
double tail_index(const std::vector<double>& betas, std::size_t pair, double fraction,
                  const NormalisingRange& range);

/// What the model says about a pair's weights: where the path normalises and, per pair,
/// the bridge fraction stepping stone uses (model/normalising_range.hpp).
struct PathLimits {
  NormalisingRange range;
  std::vector<double> bridge;  // empty: every pair plain forward
};

/// Whether the stepping-stone error holds: every pair passes the weight-ESS, the tail (from
/// the model's range, else Hill's estimate from the weights), the forward-reverse and (when
/// `acceptance` is not empty) the swap-acceptance check. A warning per failing pair names it
/// and the reasons. `gap_errors` are the batch-means errors of reverse - forward per pair,
/// `standard_error` the estimate's own.
bool stepping_stone_trusted(const std::vector<double>& betas, const PairRatios& ratios,
                            const std::vector<double>& gap_errors, std::size_t n_batches,
                            double standard_error, const std::vector<double>& acceptance,
                            const PathLimits& limits, const LogZErrorOptions& options,
                            std::vector<std::string>& warnings);

/// One line per bridged pair: that the model stops normalising, where, and through which
/// beta the ratio was taken instead (LogPartition::notes).
std::vector<std::string> bridge_notes(const std::vector<double>& betas, const PathLimits& limits);

}  // namespace hamon::log_z
