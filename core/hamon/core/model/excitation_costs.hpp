// SPDX-License-Identifier: Apache-2.0
#pragma once
// The excitation costs of a model's energy landscape, the input of estimate_beta_max
// (beta_max_estimate.hpp), read from the model on the host.
//
// - A field-free Ising forest with no clamps: every bond is an independent defect of cost
//   2 |J_ij| and the ground-state energy is -sum |J_ij|. Exact.
// - Anything else: greedy single-node descents (a node moves to its lowest-energy value
//   while that lowers E, nodes in index order, until a sweep changes nothing) from
//   deterministic pseudo-random starts. A free node's cost is the cheapest change of its
//   value in a local minimum (Ising: 2 |local field|; Potts: the cheapest other state),
//   its minimum over the minima reached: a node that is soft in some low state is soft in
//   the landscape. The energy scale is |E| of the lowest minimum. Clamped nodes are fixed
//   in every descent and contribute no cost.
// - If every minimum is flat (a zero cost at every node, as on some regular graphs), the
//   bonds' spreads stand in: 2 |J_ij| (Ising), max - min of W_ij (Potts).
// The starts depend only on the model, so the same model always gives the same costs.

#include <cstdint>
#include <string>
#include <vector>

#include "hamon/core/model/spin_model.hpp"

namespace hamon {

struct ExcitationSpectrum {
  enum class Method { forest_exact, descent, coupling_fallback };
  std::vector<double> costs;  // positive entries are defects; zeros are degeneracies
  double energy_scale = 0.0;  // |E| of the lowest state found (forest: sum |J|)
  double lowest_energy = 0.0;
  Method method = Method::descent;
  std::int32_t n_descents = 0;  // descents run (0 for an exact forest)
};

/// "forest-exact", "descent", "coupling-fallback".
std::string to_string(ExcitationSpectrum::Method method);

/// The spectrum of `model`. `max_descents` caps the descents; fewer run on large models
/// (about 2e7 node-and-edge visits per sweep budget) so the estimate stays a host moment.
ExcitationSpectrum excitation_spectrum(const SpinModel& model, std::int32_t max_descents = 16);

}  // namespace hamon
