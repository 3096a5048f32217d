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
//   interval instead of the trapezoid's O(h^3 f'')). Its discretisation error is the size
//   of that correction taken per interval, sum_i |h^2/12 (Var_{i+1} - Var_i)|: the error
//   the trapezoid rule would have had on each interval, which bounds the higher-order
//   rule's own error where Var(E) is smooth on the scale h. Summed with signs (one
//   |Hermite - trapezoid| over the ladder) it would telescope on a uniform ladder to
//   h^2/12 |Var_last - Var_0| and read ~0 exactly where it matters, when Var(E) peaks
//   between the ends (a critical region, a first-order transition).
//   An interval is unresolved when the cubic cannot be trusted there: when Var(E)
//   changes across it by more than a factor max_variance_ratio (the end-point correction
//   assumes it smooth on the scale h), or when <E> changes across it by more than
//   interior_peak_factor x the change the larger end variance allows (|f_{i+1} - f_i| >
//   factor x h max Var: by the mean value theorem Var(E) then peaks inside the interval,
//   unseen by either end). Not the overlap of the neighbours' energy distributions
//   (h sigma_E): that is what stepping stone needs, while the quadrature needs Var(E)
//   smooth, and in a large system Var(E) varies on a beta scale of order 1 while
//   sigma_E grows like sqrt(N) (a high-temperature ladder may have h sigma_E > 2 and an
//   <E> that is nearly linear across every interval). On
//   such an interval the estimate falls back to the trapezoid and its error to the
//   interval's bracket: <E> decreases with beta (its slope is -Var), so the exact
//   integral lies between the left and right sums h f_i and h f_{i+1}, and the
//   trapezoid, their midpoint, is off by at most h |f_i - f_{i+1}| / 2. A bound, not an
//   estimate: the error then holds however the variance peaks, and a warning names the
//   interval (brackets below bracket_negligible are not worth one).
//   Stepping stone: Z(beta_{i+1}) / Z(beta_i) = <exp(-(beta_{i+1} - beta_i) E)>_{beta_i},
//   estimated from chain i's samples and summed in logs; each log-mean-exp is computed
//   stably (shifted by its maximum). Consistent for any ladder (no discretisation
//   error); the log of a mean is biased low (Jensen), by a lot when the weights
//   w = exp(-h E) are heavy-tailed, i.e. when the neighbours barely overlap: the mean is
//   then carried by rare low-energy samples a run of n rounds does not see (for Gaussian
//   energies the weights are log-normal and need n >> exp(h^2 Var E)), every batch misses
//   them alike, and the batch-means error is far too small. Three checks per pair, any
//   of which marks the estimate untrusted (LogZEstimate::trusted) with a warning naming
//   the pair (beta_i -> beta_{i+1}) and the reason:
//     - weight ESS: (sum w)^2 / sum w^2 over chain i's rounds, and over chain i+1's
//       reverse weights exp(+h E): fewer than min_weight_ess_per_batch x n_batches
//       effective weights leave each batch's log-mean-exp to one or two samples, and the
//       batches' spread no longer measures the error (a sample ESS also overstates the
//       true one when the tail is unsampled, so the bound is a floor, not a target);
//     - forward against reverse: -log <exp(+h E)>_{beta_{i+1}} estimates the same log
//       ratio from chain i+1 and is biased high (Jensen again), so the exact value lies
//       between the two in expectation; a gap beyond gap_sigmas of its batch-means errors
//       and above the estimate's own standard error is bias the error bar does not hold
//       (checked with at least min_batches batches: with fewer the gap's error is itself
//       too uncertain, and the run already draws a warning);
//     - swap acceptance (when the run's is given) below min_swap_acceptance: the pair's
//       energy distributions hardly overlap, whatever the sampled weights look like.
//   Which to prefer: an estimate that is trusted over one that is not. Between two trusted
//   ones, thermodynamic integration competes on its total error (statistical and
//   discretisation in quadrature) only where its discretisation error, a bound, is at most
//   a third of its statistical error; otherwise stepping stone, whose error is statistical.
//   Between two untrusted ones the smaller total error. LogPartition::preferred says
//   which, and why; when neither is trusted the reason and a warning say so.
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
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "hamon/core/model/normalising_range.hpp"
#include "hamon/core/model/spin_model.hpp"
#include "hamon/core/sampler/nrpt.hpp"

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
  double log_z0_error = 0.0;          // LogPartition::log_z0_error, carried into error()
  /// False when a check (see the top of this file) says the error does not hold; the
  /// warnings say which pairs and why. Only stepping stone has such checks today:
  /// thermodynamic integration replaces the quadrature error by a bound (the bracket)
  /// wherever it could fail, so its error holds. Neither flag covers a run too short for
  /// batch means: that has its own warning, for both.
  bool trusted = true;
  /// Every part in quadrature: what the value is uncertain by.
  double error() const;
};

enum class LogZMethod { thermodynamic_integration, stepping_stone };

/// "thermodynamic_integration", "stepping_stone".
const char* to_string(LogZMethod method);

struct LogPartition {
  double log_z0 = 0.0;        // log Z(beta_0) that the estimates start from
  bool log_z0_exact = false;  // true when it is n_free log q (beta_0 = 0; q = 2 for spins)
                              // or, on an annealing path, the reference's exact log Z (not
                              // a double well's: a quadrature, reference_log_z_with_error)
  double log_z0_error = 0.0;  // log_z0's own error (the quadrature's); in each error()
  LogZEstimate thermodynamic_integration;
  LogZEstimate stepping_stone;
  LogZMethod preferred = LogZMethod::stepping_stone;  // trusted first, then the smaller error()
  std::string preferred_reason;                       // one sentence for reports
  std::int64_t n_batches = 0;                         // batches the standard errors come from
  std::int64_t batch_rounds = 0;                      // rounds per batch (the last may be longer)
  double energy_tau = 0.0;            // largest integrated autocorrelation time over chains
  std::vector<std::string> warnings;  // e.g. the run is too short for honest errors
  /// Where the path stops normalising (+inf when it does not: every non-Gaussian model);
  /// stepping stone bridges the pairs whose forward weights would reach it (notes).
  double beta_limit = std::numeric_limits<double>::infinity();
  std::vector<std::string> notes;  // what was done differently, and why (not a defect)
};

struct LogZErrorOptions {
  int max_batches = 32;          // batches when the run is long enough
  int min_batches = 8;           // fewer: warn that the error is itself uncertain
  double min_batch_taus = 10.0;  // batch length >= this x the largest energy tau
  // The overlap and quadrature checks (see the top of this file).
  double max_variance_ratio = 4.0;        // Var(E) ratio across a TI interval above: unresolved
  double interior_peak_factor = 2.0;      // |f_{i+1} - f_i| / (h max Var) above: unresolved
  double bracket_negligible = 0.01;       // unresolved brackets narrower: no warning
  double min_weight_ess_per_batch = 2.0;  // stepping-stone weight ESS / n_batches below
  double gap_sigmas = 4.0;                // forward-reverse gap beyond this x its error
  double min_swap_acceptance = 0.01;      // a pair accepting fewer swaps
  // The weights' tail (detail/normalising_range.hpp): where the model bounds it, a tail
  // index below min_model_tail_index (4: the variance of the weights' variance, and so of
  // the error, must be finite); where it does not, Hill's estimate from the weights below
  // min_weight_tail_index. 1.5, not 2: log-normal weights (any bounded energy on a coarse
  // ladder) read ~2.2 / (dbeta sd(E)) on a few thousand rounds, below 2 already where
  // their variance is finite and the weight-ESS check has nothing to say.
  double min_model_tail_index = 4.0;
  double min_weight_tail_index = 1.5;
};

/// Both estimators with batch-means errors and the checks (see the top of this file);
/// `swap_acceptance`, when not empty, holds the run's acceptance per pair (i, i+1).
/// Throws std::invalid_argument when `energies` is not a whole number of rows of
/// betas.size() entries or holds fewer than 2 rows, or the acceptances are not one per pair.
/// `range`: where the path normalises (default: everywhere); pairs whose forward weights
/// would reach its end are bridged (see detail/normalising_range.hpp).
LogPartition log_partition(const std::vector<double>& betas, const std::vector<double>& energies,
                           double log_z0, const LogZErrorOptions& errors = {},
                           const std::vector<double>& swap_acceptance = {},
                           const NormalisingRange& range = {});

/// From a run of `model`: log Z(beta_0) = n_free log q when the ladder starts at 0 (on an
/// annealing path, NrptResult::annealed: reference_log_z_with_error at the ladder's top,
/// whose error goes into log_z0_error and both estimates' error()), else
/// `reference_log_z0`; nullopt when neither is available or the run recorded no energies.
std::optional<LogPartition> log_partition(const SpinModel& model, const NrptResult& result,
                                          std::optional<double> reference_log_z0 = std::nullopt,
                                          const LogZErrorOptions& errors = {});

}  // namespace hamon
