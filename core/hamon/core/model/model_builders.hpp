// SPDX-License-Identifier: Apache-2.0
#pragma once
// Builders for the models users ask for most: lattices (ferromagnet, +-J and Gaussian
// Edwards-Anderson spin glasses, uniform or random fields), edge lists from a text file,
// and restricted Boltzmann machines as bipartite Ising models.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "hamon/core/model/graph_file.hpp"
#include "hamon/core/model/rbm.hpp"
#include "hamon/core/model/spin_model.hpp"

namespace hamon {

/// How couplings (or fields) are drawn. Random draws are deterministic in `seed`.
struct ValueDistribution {
  enum class Kind { constant, pm_one, gaussian };
  Kind kind = Kind::constant;
  double value = 1.0;  // constant: the value; pm_one: the magnitude; gaussian: the std dev
  double mean = 0.0;   // gaussian only
  std::uint64_t seed = 0;

  static ValueDistribution constant(double v) { return {Kind::constant, v, 0.0, 0}; }
  static ValueDistribution pm_one(std::uint64_t seed, double magnitude = 1.0) {
    return {Kind::pm_one, magnitude, 0.0, seed};
  }
  static ValueDistribution gaussian(std::uint64_t seed, double std_dev = 1.0, double mean = 0.0) {
    return {Kind::gaussian, std_dev, mean, seed};
  }
};

/// A 2D or 3D hypercubic lattice, node index row-major over `extents`. Periodic lattices
/// need every extent >= 3 (so no bond is doubled); open ones >= 1. The model remembers its
/// shape, and gets the checkerboard colouring when that is proper.
SpinModel make_lattice(const std::vector<int>& extents, bool periodic,
                       const ValueDistribution& coupling = ValueDistribution::constant(1.0),
                       const ValueDistribution& field = ValueDistribution::constant(0.0));

/// Per-state fields of a Potts builder: none (all zero), the same q values h(s) at every
/// node (`uniform`), or one value per node and state drawn in node-major order (`drawn`).
struct PottsFields {
  std::vector<double> uniform;
  std::optional<ValueDistribution> drawn;
};

/// A continuous model (spin_model.hpp) on a lattice (extents, bonds and colouring as
/// make_lattice, J_ij drawn from `coupling` in bond order), with one d_i or lambda_i and one
/// field per node (empty fields: zero).
SpinModel make_continuous_lattice(ContinuousKind kind, const std::vector<int>& extents,
                                  bool periodic, const ValueDistribution& coupling,
                                  const std::vector<double>& weights,
                                  const std::vector<double>& fields = {});

/// Per-node values drawn in node order from `distribution`: a continuous model's weights
/// (d_i or lambda_i) or its fields, each kind from its own stream (as make_lattice's fields).
enum class NodeValueKind { weight, field };
std::vector<double> draw_node_values(const ValueDistribution& distribution, NodeValueKind kind,
                                     std::int64_t count);

/// A q-state Potts lattice (extents and bond order as make_lattice): J_ij drawn from
/// `coupling` in bond order (constant 1: the ferromagnet; pm_one: the +-J Potts glass;
/// gaussian: the Gaussian Potts glass), E = -(sum h_i(x_i) + sum J_ij delta(x_i, x_j)).
SpinModel make_potts_lattice(const std::vector<int>& extents, bool periodic, int q,
                             const ValueDistribution& coupling = ValueDistribution::constant(1.0),
                             const PottsFields& fields = {});

/// The lattice of `extents` (as make_lattice, make_potts_lattice or
/// make_continuous_lattice) holding the numbers of `numbers` (a model read from a graph
/// file, say), so that a lattice written out by write_graph_file (graph_file.hpp) is rebuilt
/// bit for bit: the same bonds in the same order, the same colouring and shape. `numbers`
/// must have the lattice's node count, exactly its bonds as edges, and no clamps; its kind
/// (Ising, Potts, continuous) is the lattice's. Throws ModelError naming the first bond or
/// edge that differs.
SpinModel lattice_from_graph(const std::vector<int>& extents, bool periodic,
                             const SpinModel& numbers);

/// A restricted Boltzmann machine (rbm.hpp) as a bipartite Ising model: nodes 0..V-1
/// visible, V..V+H-1 hidden; W_vh couples visible v with hidden h. Biases may be empty
/// (zero). `clamped_visible`, when non-empty (V values of +-1), clamps the visible layer to
/// that data vector. The one way from an RBM to the SpinModel the sampler runs on (`hamon
/// run`, and training's csr sweep).
SpinModel make_rbm(const RbmParameters& rbm, const std::vector<int>& clamped_visible = {});

/// An RBM of V x H units with weights, then biases (visible, then hidden, from one stream)
/// drawn from `weights` / `biases`.
RbmParameters random_rbm(std::int64_t n_visible, std::int64_t n_hidden,
                         const ValueDistribution& weights, const ValueDistribution& biases);

}  // namespace hamon
