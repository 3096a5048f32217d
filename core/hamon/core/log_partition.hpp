#pragma once
// The log partition function log Z(beta) = log sum_x exp(-beta E(x)) (sum over the free
// configurations) at the coldest beta of a ladder, from the per-chain energies an NRPT run
// records (NrptResult::energies, ObserverOptions::energies = true). Host side.
//
//   Thermodynamic integration: d log Z / d beta = -<E>_beta, so
//     log Z(beta_last) = log Z(beta_0) - integral <E>_beta dbeta,
//   the integral by the trapezoid rule over the ladder of per-chain mean energies. Biased
//   by the discretisation, O(max dbeta^2 * |d<E>/dbeta|'), exact in the limit of a fine
//   ladder.
//   Stepping stone: Z(beta_{i+1}) / Z(beta_i) = <exp(-(beta_{i+1} - beta_i) E)>_{beta_i},
//   estimated from chain i's samples and summed in logs; each log-mean-exp is computed
//   stably (shifted by its maximum). Consistent for any ladder; the log of a mean is
//   slightly biased low for short runs (Jensen).
//
// log Z(beta_0) is known exactly when beta_0 = 0: every free configuration has weight 1, so
// log Z_0 = n_free log 2. Otherwise the caller supplies it (or gets the difference only).
//
// Standard errors: the measured rounds are cut into contiguous batches, each estimator is
// evaluated on every batch, and the error is the standard deviation of the batch values
// over sqrt(n_batches) (batch means; the batches must be longer than the autocorrelation
// time of the energies for it to be honest).

#include <cstdint>
#include <optional>
#include <vector>

#include "hamon/core/nrpt.hpp"
#include "hamon/core/spin_model.hpp"

namespace hamon {

/// -integral of <E> over the ladder by the trapezoid rule: log Z(beta_last) - log Z(beta_0).
double thermodynamic_integration(const std::vector<double>& betas,
                                 const std::vector<double>& mean_energies);

/// sum_i log mean_s exp(-(beta_{i+1} - beta_i) E_i^(s)): log Z(beta_last) - log Z(beta_0).
/// `energies` is n_rounds x n_chains, row-major, indexed by temperature.
double stepping_stone(const std::vector<double>& betas, const std::vector<double>& energies);

struct LogZEstimate {
  double value = 0.0;           // log Z(beta_last) (log Z(beta_0) included)
  double standard_error = 0.0;  // from batch means; 0 with fewer than 2 batches
};

struct LogPartition {
  double log_z0 = 0.0;        // log Z(beta_0) that the estimates start from
  bool log_z0_exact = false;  // true when it is n_free log 2 (beta_0 = 0)
  LogZEstimate thermodynamic_integration;
  LogZEstimate stepping_stone;
};

/// Both estimators with batch-means errors (n_batches contiguous batches, fewer when the
/// run is shorter than 2 rounds per batch). Throws std::invalid_argument when `energies`
/// is not a whole number of rows of betas.size() entries or holds fewer than 2 rows.
LogPartition log_partition(const std::vector<double>& betas, const std::vector<double>& energies,
                           double log_z0, int n_batches = 32);

/// From a run of `model`: log Z(beta_0) = n_free log 2 when the ladder starts at 0, else
/// `reference_log_z0`; nullopt when neither is available or the run recorded no energies.
std::optional<LogPartition> log_partition(const SpinModel& model, const NrptResult& result,
                                          std::optional<double> reference_log_z0 = std::nullopt,
                                          int n_batches = 32);

}  // namespace hamon
