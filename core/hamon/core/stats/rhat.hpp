// SPDX-License-Identifier: Apache-2.0
#pragma once
// Split R-hat (potential scale reduction), host side.
//
// The split-R-hat of Gelman et al., Bayesian Data Analysis 3rd ed. (2013), sec. 11.4:
// every chain is cut into two halves (the middle draw of an odd-length chain is dropped),
// so a chain that drifts shows up as disagreeing halves; with M half-chains of length n,
//   B = n/(M-1) sum_j (mean_j - mean)^2,   W = mean_j s_j^2,
//   var+ = (n-1)/n W + B/n,                R-hat = sqrt(var+ / W).
// This is the 2013 version, without the rank normalisation and folding of Vehtari et al.
// (2021); for the energies and magnetisations hamon records (bounded, light-tailed) the
// two agree closely.

#include <vector>

namespace hamon {

/// Split R-hat of `chains` (each a series of draws of one scalar). Needs at least one
/// chain, all of one length >= 4 (std::invalid_argument otherwise). Returns 1 when every
/// half-chain is constant at one common value, +infinity when the halves are constant at
/// different values.
double split_rhat(const std::vector<std::vector<double>>& chains);

}  // namespace hamon
