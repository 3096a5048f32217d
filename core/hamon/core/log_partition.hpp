// SPDX-License-Identifier: Apache-2.0
#pragma once
// The log partition function log Z(beta) = log sum_x exp(-beta E(x)) (sum over the free
// configurations) at the coldest beta of a ladder, from the per-chain energies an NRPT run
// records (NrptResult::energies, ObserverOptions::energies = true). Host side.
//
//   Thermodynamic integration: d log Z / d beta = -<E>_beta, so
//     log Z(beta_last) = log Z(beta_0) - integral <E>_beta dbeta.
//   Since d<E>/dbeta = -Var_beta(E) exactly, every chain also gives the slope of the
//   integrand, and the integral is taken by the cubic Hermite rule on each interval:
//     h/2 (f_i + f_{i+1}) + h^2/12 (f'_i - f'_{i+1}),  f = <E>, f' = -Var(E),
//   the trapezoid rule plus its Euler-Maclaurin end correction (error O(h^5 f^(4)) per
//   interval instead of the trapezoid's O(h^3 f'')). Its discretisation error is
//   reported as the size of that correction, |Hermite - trapezoid|: the error the
//   trapezoid rule would have had, which bounds the higher-order rule's own error
//   (conservatively: on a fine ladder both vanish, on a coarse one it dominates).
//   Stepping stone: Z(beta_{i+1}) / Z(beta_i) = <exp(-(beta_{i+1} - beta_i) E)>_{beta_i},
//   estimated from chain i's samples and summed in logs; each log-mean-exp is computed
//   stably (shifted by its maximum). Consistent for any ladder (no discretisation
//   error); the log of a mean is slightly biased low for short runs (Jensen).
//   Which to prefer: the one with the smaller total error (statistical and
//   discretisation in quadrature); LogPartition::preferred says which, and why.
//
// log Z(beta_0) is known exactly when beta_0 = 0: every free configuration has weight 1, so
// log Z_0 = n_free log 2. Otherwise the caller supplies it (or gets the difference only).
//
// Standard errors: the measured rounds are cut into contiguous batches, each estimator is
// evaluated on every batch, and the error is the standard deviation of the batch values
// over sqrt(n_batches). Batch means are honest only when a batch is much longer than the
// integrated autocorrelation time tau of the energies, so the batch length is at least
// min_batch_taus x the largest tau over the chains (Geyer's estimator, ess.hpp): fewer
// batches than asked for when the run is short, and a warning when that leaves fewer than
// min_batches (the error itself is then uncertain), or when tau could not be estimated.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "hamon/core/nrpt.hpp"
#include "hamon/core/spin_model.hpp"

namespace hamon {

/// -integral of <E> over the ladder by the trapezoid rule: log Z(beta_last) - log Z(beta_0)
/// (the lower-order rule whose difference from the Hermite one is the discretisation error).
double thermodynamic_integration(const std::vector<double>& betas,
                                 const std::vector<double>& mean_energies);

/// sum_i log mean_s exp(-(beta_{i+1} - beta_i) E_i^(s)): log Z(beta_last) - log Z(beta_0).
/// `energies` is n_rounds x n_chains, row-major, indexed by temperature.
double stepping_stone(const std::vector<double>& betas, const std::vector<double>& energies);

/// -integral of <E> over the ladder by the cubic Hermite rule with slopes
/// d<E>/dbeta = -variances (see the top of this file).
double thermodynamic_integration(const std::vector<double>& betas,
                                 const std::vector<double>& mean_energies,
                                 const std::vector<double>& energy_variances);

struct LogZEstimate {
  double value = 0.0;                 // log Z(beta_last) (log Z(beta_0) included)
  double standard_error = 0.0;        // statistical, from batch means; 0 with < 2 batches
  double discretisation_error = 0.0;  // quadrature (TI); 0 for stepping stone
  /// Both parts in quadrature: what the value is uncertain by.
  double error() const;
};

enum class LogZMethod { thermodynamic_integration, stepping_stone };

/// "thermodynamic_integration", "stepping_stone".
const char* to_string(LogZMethod method);

struct LogPartition {
  double log_z0 = 0.0;        // log Z(beta_0) that the estimates start from
  bool log_z0_exact = false;  // true when it is n_free log q (beta_0 = 0; q = 2 for spins)
  LogZEstimate thermodynamic_integration;
  LogZEstimate stepping_stone;
  LogZMethod preferred = LogZMethod::stepping_stone;  // the smaller error()
  std::string preferred_reason;                       // one sentence for reports
  std::int64_t n_batches = 0;                         // batches the standard errors come from
  std::int64_t batch_rounds = 0;                      // rounds per batch (the last may be longer)
  double energy_tau = 0.0;            // largest integrated autocorrelation time over chains
  std::vector<std::string> warnings;  // e.g. the run is too short for honest errors
};

struct LogZErrorOptions {
  int max_batches = 32;          // batches when the run is long enough
  int min_batches = 8;           // fewer: warn that the error is itself uncertain
  double min_batch_taus = 10.0;  // batch length >= this x the largest energy tau
};

/// Both estimators with batch-means errors (see the top of this file). Throws
/// std::invalid_argument when `energies` is not a whole number of rows of betas.size()
/// entries or holds fewer than 2 rows.
LogPartition log_partition(const std::vector<double>& betas, const std::vector<double>& energies,
                           double log_z0, const LogZErrorOptions& errors = {});

/// From a run of `model`: log Z(beta_0) = n_free log 2 when the ladder starts at 0, else
/// `reference_log_z0`; nullopt when neither is available or the run recorded no energies.
std::optional<LogPartition> log_partition(const SpinModel& model, const NrptResult& result,
                                          std::optional<double> reference_log_z0 = std::nullopt,
                                          const LogZErrorOptions& errors = {});

}  // namespace hamon
