// SPDX-License-Identifier: Apache-2.0
// Model builders: lattices and RBMs, reduced to SpinModel::from_edges so every model goes
// through the same validation (graph files: graph_file.cpp).
#include "hamon/core/model/model_builders.hpp"

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <cstddef>
#include <fstream>
#include <limits>
#include <sstream>
#include <string_view>
#include <tuple>
#include <utility>

#include "hamon/core/model/colouring.hpp"
#include "hamon/core/util/memory_limit.hpp"
#include "hamon/core/util/seeds.hpp"
#include "hamon/core/util/text.hpp"

namespace hamon {

namespace {

// ---------------------------------------------------------------------------------------
// Deterministic random values. Written out here (SplitMix64 and Box-Muller) rather than
// taken from <random>, whose distributions differ between standard libraries: a model
// built from a seed must be the same everywhere.

/// The SplitMix64 generator (its mix and increment: hamon/core/util/seeds.hpp).
class SplitMix64 {
 public:
  explicit SplitMix64(std::uint64_t seed) : state_(seed) {}
  std::uint64_t next() { return mix64(state_ += kSplitMix64Increment); }
  /// Uniform in (0, 1]: never 0, so its logarithm is finite.
  double uniform_open_zero() { return static_cast<double>((next() >> 11) + 1) * 0x1p-53; }
  /// Uniform in [0, 1).
  double uniform() { return static_cast<double>(next() >> 11) * 0x1p-53; }

 private:
  std::uint64_t state_;
};

// Couplings and fields get different streams, so equal seeds do not give correlated values.
constexpr std::uint64_t kCouplingStream = 0x636f75706c696e67ULL;  // "coupling"
constexpr std::uint64_t kFieldStream = 0x6669656c64730000ULL;     // "fields"
constexpr std::uint64_t kWeightStream = 0x7765696768747300ULL;    // "weights"

/// Draws values of one distribution, in order, from its own stream.
class ValueSource {
 public:
  ValueSource(const ValueDistribution& distribution, std::uint64_t stream)
      : distribution_(distribution), rng_(mix64(distribution.seed ^ stream)) {}

  double next() {
    switch (distribution_.kind) {
      case ValueDistribution::Kind::pm_one:
        return (rng_.next() >> 63) != 0 ? distribution_.value : -distribution_.value;
      case ValueDistribution::Kind::gaussian:
        return distribution_.mean + distribution_.value * standard_normal();
      case ValueDistribution::Kind::constant:
        break;
    }
    return distribution_.value;
  }

 private:
  /// Box-Muller, one normal per pair of uniforms (simple; speed is irrelevant here).
  double standard_normal() {
    constexpr double kTwoPi = 6.283185307179586476925286766559;
    const double radius = std::sqrt(-2.0 * std::log(rng_.uniform_open_zero()));
    return radius * std::cos(kTwoPi * rng_.uniform());
  }

  ValueDistribution distribution_;
  SplitMix64 rng_;
};

void check_distribution(const ValueDistribution& d, const std::string& what) {
  if (!std::isfinite(d.value) || !std::isfinite(d.mean)) {
    throw ModelError(what + " distribution: value and mean must be finite");
  }
  if (d.kind == ValueDistribution::Kind::gaussian && d.value < 0.0) {
    throw ModelError(what + " distribution: gaussian standard deviation " + format_value(d.value) +
                     " is negative");
  }
}

// ---------------------------------------------------------------------------------------
// Lattices

std::int64_t checked_lattice_size(const std::vector<int>& extents, bool periodic) {
  if (extents.size() != 2 && extents.size() != 3) {
    throw ModelError("make_lattice: a lattice needs 2 or 3 extents, got " +
                     std::to_string(extents.size()));
  }
  // Periodic extents of 1 or 2 would make self-loops or doubled bonds.
  const int minimum = periodic ? 3 : 1;
  std::int64_t n_nodes = 1;
  for (std::size_t d = 0; d < extents.size(); ++d) {
    if (extents[d] < minimum) {
      throw ModelError("make_lattice: extent " + std::to_string(extents[d]) + " of dimension " +
                       std::to_string(d) + " is below " + std::to_string(minimum) + " (" +
                       (periodic ? "periodic" : "open") +
                       " lattices need extents >= " + std::to_string(minimum) + ")");
    }
    n_nodes *= extents[d];
    // Checked after every factor, so the product never overflows int64.
    if (n_nodes > kMaxNodes) {
      throw ModelError("make_lattice: more than " + std::to_string(kMaxNodes) +
                       " nodes (the int32 node limit)");
    }
  }
  return n_nodes;
}

/// Bonds in the documented order: for each node in index order, for each dimension, the
/// +1 neighbour along it (none at an open boundary); couplings drawn in that order.
std::vector<Edge> lattice_bonds(const std::vector<int>& extents, bool periodic,
                                std::int64_t n_nodes, const ValueDistribution& coupling) {
  const std::size_t dims = extents.size();
  std::vector<std::int64_t> stride(dims, 1);
  for (std::size_t d = dims - 1; d-- > 0;) stride[d] = stride[d + 1] * extents[d + 1];

  ValueSource couplings(coupling, kCouplingStream);
  std::vector<Edge> bonds;
  bonds.reserve(static_cast<std::size_t>(n_nodes) * dims);
  std::vector<int> coord(dims, 0);
  for (std::int64_t node = 0; node < n_nodes; ++node) {
    for (std::size_t d = 0; d < dims; ++d) {
      if (coord[d] + 1 < extents[d]) {
        bonds.push_back({node, node + stride[d], couplings.next()});
      } else if (periodic) {
        bonds.push_back({node, node - (extents[d] - 1) * stride[d], couplings.next()});
      }
    }
    // Advance the row-major coordinate: the last dimension varies fastest.
    for (std::size_t d = dims; d-- > 0;) {
      if (++coord[d] < extents[d]) break;
      coord[d] = 0;
    }
  }
  return bonds;
}

/// A lattice model's colouring and shape: two colours (half the lattice per block) whenever
/// the checkerboard is proper, else the greedy colouring the model already has.
SpinModel as_lattice(const SpinModel& model, const std::vector<int>& extents, bool periodic) {
  const std::vector<std::int32_t> checkerboard = checkerboard_colouring(extents, periodic);
  if (checkerboard.empty()) return model.with_lattice_shape(LatticeShape{extents, periodic});
  return model.with_blocks(checkerboard).with_lattice_shape(LatticeShape{extents, periodic});
}

std::vector<double> draw_values(const ValueDistribution& distribution, std::uint64_t stream,
                                std::size_t count) {
  ValueSource source(distribution, stream);
  std::vector<double> values(count);
  for (double& v : values) v = source.next();
  return values;
}

// ---------------------------------------------------------------------------------------
// RBMs

void check_rbm_size(std::int64_t n_visible, std::int64_t n_hidden) {
  if (n_visible < 1 || n_hidden < 1) {
    throw ModelError("make_rbm: needs at least one visible and one hidden node, got " +
                     std::to_string(n_visible) + " visible and " + std::to_string(n_hidden) +
                     " hidden");
  }
  // Each layer is checked alone first so the sum cannot overflow; the sum bound then keeps
  // n_visible * n_hidden (below 2^62) from overflowing too.
  if (n_visible > kMaxNodes || n_hidden > kMaxNodes || n_visible + n_hidden > kMaxNodes) {
    throw ModelError("make_rbm: " + std::to_string(n_visible) + " visible + " +
                     std::to_string(n_hidden) + " hidden nodes exceed the int32 node limit of " +
                     std::to_string(kMaxNodes));
  }
}

}  // namespace

SpinModel make_lattice(const std::vector<int>& extents, bool periodic,
                       const ValueDistribution& coupling, const ValueDistribution& field) {
  check_distribution(coupling, "coupling");
  check_distribution(field, "field");
  const std::int64_t n_nodes = checked_lattice_size(extents, periodic);
  const std::vector<Edge> bonds = lattice_bonds(extents, periodic, n_nodes, coupling);
  const std::vector<double> fields =
      draw_values(field, kFieldStream, static_cast<std::size_t>(n_nodes));
  return as_lattice(SpinModel::from_edges(n_nodes, bonds, fields), extents, periodic);
}

SpinModel make_continuous_lattice(ContinuousKind kind, const std::vector<int>& extents,
                                  bool periodic, const ValueDistribution& coupling,
                                  const std::vector<double>& weights,
                                  const std::vector<double>& fields) {
  check_distribution(coupling, "coupling");
  const std::int64_t n_nodes = checked_lattice_size(extents, periodic);
  const std::vector<Edge> bonds = lattice_bonds(extents, periodic, n_nodes, coupling);
  SpinModel model = kind == ContinuousKind::gaussian
                        ? SpinModel::gaussian(n_nodes, bonds, weights, fields)
                        : SpinModel::double_well(n_nodes, bonds, weights, fields);
  return as_lattice(model, extents, periodic);
}

std::vector<double> draw_node_values(const ValueDistribution& distribution, NodeValueKind kind,
                                     std::int64_t count) {
  check_distribution(distribution, kind == NodeValueKind::weight ? "weight" : "field");
  return draw_values(distribution, kind == NodeValueKind::weight ? kWeightStream : kFieldStream,
                     static_cast<std::size_t>(count));
}

SpinModel make_potts_lattice(const std::vector<int>& extents, bool periodic, int q,
                             const ValueDistribution& coupling, const PottsFields& fields) {
  check_distribution(coupling, "coupling");
  if (fields.drawn) check_distribution(*fields.drawn, "field");
  const std::int64_t n_nodes = checked_lattice_size(extents, periodic);
  if (q < 2 || q > kMaxStates) {
    throw ModelError("make_potts_lattice: q = " + std::to_string(q) + " is outside [2, " +
                     std::to_string(kMaxStates) + "]");
  }
  if (!fields.uniform.empty() && fields.uniform.size() != static_cast<std::size_t>(q)) {
    throw ModelError("make_potts_lattice: " + std::to_string(fields.uniform.size()) +
                     " per-state fields for q = " + std::to_string(q));
  }
  if (!fields.uniform.empty() && fields.drawn) {
    throw ModelError("make_potts_lattice: per-state fields are either uniform or drawn");
  }
  const std::vector<Edge> bonds = lattice_bonds(extents, periodic, n_nodes, coupling);
  const auto n_values = static_cast<std::size_t>(n_nodes) * static_cast<std::size_t>(q);
  std::vector<double> state_fields;
  if (fields.drawn) {
    state_fields = draw_values(*fields.drawn, kFieldStream, n_values);  // node-major
  } else if (!fields.uniform.empty()) {
    state_fields.resize(n_values);
    for (std::size_t k = 0; k < n_values; ++k) {
      state_fields[k] = fields.uniform[k % static_cast<std::size_t>(q)];
    }
  }
  return as_lattice(SpinModel::potts(n_nodes, q, bonds, state_fields), extents, periodic);
}

SpinModel lattice_from_graph(const std::vector<int>& extents, bool periodic,
                             const SpinModel& numbers) {
  const std::int64_t n_nodes = checked_lattice_size(extents, periodic);
  if (numbers.n_nodes() != n_nodes) {
    throw ModelError("lattice_from_graph: the graph has " + std::to_string(numbers.n_nodes()) +
                     " nodes, the lattice " + std::to_string(n_nodes));
  }
  if (numbers.n_free() != n_nodes) {
    throw ModelError("lattice_from_graph: the graph clamps nodes; a lattice has no clamps");
  }
  // The bonds in make_lattice's order, each taking its coupling from the graph's (sorted)
  // edges.
  std::vector<Edge> bonds =
      lattice_bonds(extents, periodic, n_nodes, ValueDistribution::constant(0.0));
  const std::vector<Edge>& edges = numbers.edges();
  if (edges.size() != bonds.size()) {
    throw ModelError("lattice_from_graph: the graph has " + std::to_string(edges.size()) +
                     " edges, the lattice " + std::to_string(bonds.size()) + " bonds");
  }
  for (Edge& bond : bonds) {
    const Edge key{std::min(bond.i, bond.j), std::max(bond.i, bond.j), 0.0};
    const auto at = std::lower_bound(
        edges.begin(), edges.end(), key,
        [](const Edge& a, const Edge& b) { return std::tie(a.i, a.j) < std::tie(b.i, b.j); });
    if (at == edges.end() || at->i != key.i || at->j != key.j) {
      throw ModelError("lattice_from_graph: the lattice's bond (" + std::to_string(bond.i) + ", " +
                       std::to_string(bond.j) + ") is not an edge of the graph");
    }
    bond.coupling = at->coupling;
  }
  if (numbers.is_potts()) {
    if (!numbers.edge_matrices().empty()) {
      throw ModelError("lattice_from_graph: a Potts lattice has no coupling matrices");
    }
    return as_lattice(SpinModel::potts(n_nodes, numbers.n_states(), bonds, numbers.state_fields()),
                      extents, periodic);
  }
  switch (numbers.continuous_kind()) {
    case ContinuousKind::gaussian:
      return as_lattice(
          SpinModel::gaussian(n_nodes, bonds, numbers.node_weights(), numbers.fields()), extents,
          periodic);
    case ContinuousKind::double_well:
      return as_lattice(
          SpinModel::double_well(n_nodes, bonds, numbers.node_weights(), numbers.fields()), extents,
          periodic);
    case ContinuousKind::none:
      break;
  }
  return as_lattice(SpinModel::from_edges(n_nodes, bonds, numbers.fields()), extents, periodic);
}

SpinModel make_rbm(const RbmParameters& rbm, const std::vector<int>& clamped_visible) {
  const std::int64_t n_visible = rbm.n_visible;
  const std::int64_t n_hidden = rbm.n_hidden;
  const std::vector<double>& weights = rbm.weights;
  const std::vector<double>& visible_bias = rbm.visible_bias;
  const std::vector<double>& hidden_bias = rbm.hidden_bias;
  check_rbm_size(n_visible, n_hidden);
  const auto n_v = static_cast<std::size_t>(n_visible);
  const auto n_h = static_cast<std::size_t>(n_hidden);
  const auto check_size = [](const std::vector<double>& values, std::size_t expected,
                             bool may_be_empty, const std::string& what) {
    if ((values.empty() && may_be_empty) || values.size() == expected) return;
    throw ModelError("make_rbm: " + what + " has " + std::to_string(values.size()) +
                     " entries, expected " + std::to_string(expected));
  };
  check_size(weights, n_v * n_h, false, "weights");
  check_size(visible_bias, n_v, true, "visible_bias");
  check_size(hidden_bias, n_h, true, "hidden_bias");
  if (!clamped_visible.empty() && clamped_visible.size() != n_v) {
    throw ModelError("make_rbm: clamped_visible has " + std::to_string(clamped_visible.size()) +
                     " entries, expected " + std::to_string(n_v));
  }

  std::vector<Edge> edges;
  edges.reserve(n_v * n_h);
  for (std::size_t v = 0; v < n_v; ++v) {
    for (std::size_t h = 0; h < n_h; ++h) {
      const double w = weights[v * n_h + h];
      if (!std::isfinite(w)) {
        throw ModelError("make_rbm: weight " + std::to_string(v * n_h + h) + " (visible " +
                         std::to_string(v) + ", hidden " + std::to_string(h) + ") is not finite");
      }
      edges.push_back({static_cast<std::int64_t>(v), n_visible + static_cast<std::int64_t>(h), w});
    }
  }
  std::vector<double> fields(n_v + n_h, 0.0);
  std::copy(visible_bias.begin(), visible_bias.end(), fields.begin());
  std::copy(hidden_bias.begin(), hidden_bias.end(),
            fields.begin() + static_cast<std::ptrdiff_t>(n_v));
  std::vector<Clamp> clamps;
  clamps.reserve(clamped_visible.size());
  for (std::size_t v = 0; v < clamped_visible.size(); ++v) {
    clamps.push_back({static_cast<std::int64_t>(v), clamped_visible[v]});
  }
  // Visible nodes come first, so the greedy colouring gives visible 0 and hidden 1.
  return SpinModel::from_edges(n_visible + n_hidden, edges, fields, clamps);
}

RbmParameters random_rbm(std::int64_t n_visible, std::int64_t n_hidden,
                         const ValueDistribution& weights, const ValueDistribution& biases) {
  check_distribution(weights, "weight");
  check_distribution(biases, "bias");
  check_rbm_size(n_visible, n_hidden);
  const auto n_v = static_cast<std::size_t>(n_visible);
  const auto n_h = static_cast<std::size_t>(n_hidden);
  RbmParameters rbm;
  rbm.n_visible = n_visible;
  rbm.n_hidden = n_hidden;
  rbm.weights = draw_values(weights, kCouplingStream, n_v * n_h);
  // Visible biases first, then hidden, from one stream.
  std::vector<double> b = draw_values(biases, kFieldStream, n_v + n_h);
  rbm.hidden_bias.assign(b.begin() + static_cast<std::ptrdiff_t>(n_v), b.end());
  b.resize(n_v);
  rbm.visible_bias = std::move(b);
  return rbm;
}

}  // namespace hamon
