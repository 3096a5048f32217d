// SPDX-License-Identifier: Apache-2.0
#pragma once
// The coldest useful inverse temperature for a ground-state search, from an
// independent-defect model of the energy landscape (host code).
//
// The landscape is summarised by excitation costs c_k > 0: each is an independent
// defect (a flipped spin, a broken bond) that is present with probability
// p_k(beta) = 1 / (1 + e^{beta c_k}). The model predicts
//
//   excess energy   <E>_beta - E_min = sum_k c_k p_k
//   energy spread   sigma_beta(E)^2  = sum_k c_k^2 p_k (1 - p_k)
//   barrier         Lambda(beta_max) = integral_0^beta_max sigma_beta(E) / sqrt(pi) dbeta
//
// (the last is the small-step rejection density of NRPT under a Gaussian energy
// marginal). The excess falls monotonically in beta, so the smallest beta whose excess is
// at most gap_tol |E| is found by bisection. Soft modes (tiny c_k) add at most c_k / 2 to
// the excess, so they cannot push the estimate to infinity; and Lambda saturates in beta,
// so erring cold costs few extra chains.

#include <cstdint>
#include <vector>

namespace hamon {

/// The relative tolerance used when none is given: the predicted thermal floor is at most
/// 0.1 % of |E|.
inline constexpr double kDefaultGapTol = 1e-3;

/// sum_k c_k / (1 + e^{beta c_k}) over the positive costs.
double defect_excess_energy(const std::vector<double>& costs, double beta);

/// sqrt(sum_k c_k^2 p_k (1 - p_k)) over the positive costs.
double defect_energy_std(const std::vector<double>& costs, double beta);

/// integral_0^beta_max sigma_beta(E) / sqrt(pi) dbeta (composite Simpson, n_intervals even).
double defect_barrier(const std::vector<double>& costs, double beta_max, int n_intervals = 400);

struct BetaMaxEstimate {
  double beta_max = 0.0;
  double gap_tol = kDefaultGapTol;
  double energy_scale = 0.0;             // |E| the tolerance is relative to
  double predicted_excess_energy = 0.0;  // sum_k c_k p_k(beta_max)
  double Lambda = 0.0;                   // defect_barrier(costs, beta_max)
  std::int32_t n_chains = 0;             // recommended_chains(Lambda) with the tuning defaults
  std::int64_t n_costs = 0;              // positive costs the model holds
};

/// The smallest beta with defect_excess_energy(costs, beta) <= gap_tol |energy_scale|,
/// bracketed by doubling from 1 (capped at 1e6) and bisected until the bracket is within
/// 1e-12 relative, and what the model predicts there. Non-positive costs are dropped (a
/// zero-cost mode is a degeneracy, not a defect). Throws std::invalid_argument when no
/// cost is positive, gap_tol is not in (0, 1) or energy_scale is not finite and positive.
BetaMaxEstimate estimate_beta_max(const std::vector<double>& costs, double energy_scale,
                                  double gap_tol = kDefaultGapTol);

/// What the model predicts at a given beta_max (a resolved estimate, or the user's own),
/// with the same fields and checks as estimate_beta_max.
BetaMaxEstimate describe_beta_max(const std::vector<double>& costs, double energy_scale,
                                  double gap_tol, double beta_max);

}  // namespace hamon
