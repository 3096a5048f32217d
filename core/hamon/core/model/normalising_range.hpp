// SPDX-License-Identifier: Apache-2.0
#pragma once
// Where a run's path normalises: the betas at which Z(beta) is finite. Stepping stone needs
// more than a finite Z at the ends of a pair: the forward weights w = exp(-h E) of chain i
// have E[w^k] = Z(beta_i + k h) / Z(beta_i), finite only while beta_i + k h stays inside
// this range, and the reverse weights exp(+h E) of chain i + 1 likewise need
// beta_{i+1} - k h inside it. A weight with an infinite variance leaves the
// log-mean-exp consistent but its batch-means error meaningless (heavy-tailed z-scores), and
// one with an infinite fourth moment leaves the error itself too noisy to hold.
//
// Spin and Potts energies are bounded and a double well's quartic dominates at any beta, so
// only a Gaussian model has limits: on the annealing path the density
// exp(-beta_top E_ref - beta (E - E_ref)) has precision beta_top D - beta J (D = diag(d)),
// positive definite for beta_top / mu_min < beta < beta_top / mu_max, mu the eigenvalues of
// D^-1/2 J D^-1/2 (the model itself normalising means beta_top < beta_top / mu_max); without
// the reference, exp(-beta E) normalises for every beta > 0. Host side.

#include <limits>
#include <vector>

#include "hamon/core/model/spin_model.hpp"

namespace hamon {

/// The betas at which a run's path normalises (Z(beta) finite strictly inside); a
/// Gaussian model's is bounded, every other family's unbounded.
struct NormalisingRange {
  double lower = -std::numeric_limits<double>::infinity();
  double upper = std::numeric_limits<double>::infinity();
};

/// The range for a run of `model` on its path (`annealed`: the reference at `beta_top`).
/// The extreme eigenvalues come from Lanczos with full reorthogonalisation (at most
/// kLanczosSteps steps; exact for smaller models); its Ritz values lie inside the
/// spectrum, so a truncated run errs towards a wider range, which the weights' empirical
/// tail check (analysis/detail/log_z_checks.hpp) backs up.
NormalisingRange normalising_range(const SpinModel& model, bool annealed, double beta_top);

/// Extreme eigenvalues {min, max} of the symmetric matrix D^-1/2 J D^-1/2 over the free
/// nodes of a Gaussian model ({0, 0} without couplings).
std::vector<double> scaled_coupling_extremes(const SpinModel& model);

}  // namespace hamon
