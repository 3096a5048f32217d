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
/// effective number of weights (sum w)^2 / sum w^2 behind each. `energies` is
/// n_rounds x n_chains, row-major, by temperature, n_rounds >= 1.
struct PairRatios {
  std::vector<double> forward;
  std::vector<double> reverse;
  std::vector<double> ess_forward;
  std::vector<double> ess_reverse;
};
PairRatios pair_ratios(const std::vector<double>& betas, const std::vector<double>& energies);

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

/// Whether the stepping-stone error holds: every pair passes the weight-ESS, the
/// forward-reverse and (when `acceptance` is not empty) the swap-acceptance check. A
/// warning per failing pair names it and the reasons. `gap_errors` are the batch-means
/// errors of reverse - forward per pair, `standard_error` the estimate's own.
bool stepping_stone_trusted(const std::vector<double>& betas, const PairRatios& ratios,
                            const std::vector<double>& gap_errors, std::size_t n_batches,
                            double standard_error, const std::vector<double>& acceptance,
                            const LogZErrorOptions& options, std::vector<std::string>& warnings);

}  // namespace hamon::log_z
