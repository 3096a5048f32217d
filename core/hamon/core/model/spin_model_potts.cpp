// SPDX-License-Identifier: Apache-2.0
// Potts models: q-state variables on the same graph layout as Ising spins (spin_model.cpp),
// with per-state fields, clamped states and Potts-form or general coupling matrices.
#include <algorithm>
#include <cmath>
#include <tuple>

#include "hamon/core/model/detail/model_validation.hpp"
#include "hamon/core/model/spin_model.hpp"
#include "hamon/core/util/text.hpp"

namespace hamon {

namespace {

std::string edge_text(std::int64_t i, std::int64_t j) {
  return "(" + std::to_string(i) + ", " + std::to_string(j) + ")";
}

/// Matrices with i < j (transposed where given the other way), sorted by (i, j); an edge
/// given twice is refused (even with equal values: there is no Potts-form J to compare).
std::vector<CouplingMatrix> normalise_matrices(const std::vector<CouplingMatrix>& matrices,
                                               std::int64_t n_nodes, int q) {
  const auto size = static_cast<std::size_t>(q) * static_cast<std::size_t>(q);
  std::vector<CouplingMatrix> out;
  out.reserve(matrices.size());
  for (std::size_t k = 0; k < matrices.size(); ++k) {
    const CouplingMatrix& m = matrices[k];
    detail::check_edge(k, Edge{m.i, m.j, 0.0}, n_nodes);
    const std::string name = "coupling matrix " + std::to_string(k) + " " + edge_text(m.i, m.j);
    if (m.values.size() != size) {
      throw ModelError(name + ": " + std::to_string(m.values.size()) + " entries, a q x q matrix " +
                       "has " + std::to_string(size));
    }
    for (std::size_t v = 0; v < size; ++v) {
      if (!std::isfinite(m.values[v])) {
        throw ModelError(name + ": entry (" + std::to_string(v / static_cast<std::size_t>(q)) +
                         ", " + std::to_string(v % static_cast<std::size_t>(q)) + ") is " +
                         format_value(m.values[v]));
      }
    }
    CouplingMatrix oriented = m;
    if (m.i > m.j) {
      std::swap(oriented.i, oriented.j);
      for (int a = 0; a < q; ++a) {
        for (int b = 0; b < q; ++b) {
          oriented.values[static_cast<std::size_t>(a * q + b)] =
              m.values[static_cast<std::size_t>(b * q + a)];
        }
      }
    }
    out.push_back(std::move(oriented));
  }
  std::stable_sort(out.begin(), out.end(), [](const CouplingMatrix& a, const CouplingMatrix& b) {
    return std::tie(a.i, a.j) < std::tie(b.i, b.j);
  });
  for (std::size_t k = 1; k < out.size(); ++k) {
    if (out[k].i == out[k - 1].i && out[k].j == out[k - 1].j) {
      throw ModelError("coupling matrix of edge " + edge_text(out[k].i, out[k].j) + " given twice");
    }
  }
  return out;
}

}  // namespace

SpinModel SpinModel::potts(std::int64_t n_nodes, int q, const std::vector<Edge>& edges,
                           const std::vector<double>& state_fields,
                           const std::vector<Clamp>& clamps,
                           const std::vector<CouplingMatrix>& matrices) {
  detail::check_node_count(n_nodes);
  if (q < 2 || q > kMaxStates) {
    throw ModelError("a Potts model needs 2 <= q <= " + std::to_string(kMaxStates) +
                     " states, got q = " + std::to_string(q));
  }
  SpinModel model;
  model.potts_ = true;
  model.n_states_ = q;
  const auto n = static_cast<std::size_t>(n_nodes);
  const auto qq = static_cast<std::size_t>(q);
  model.fields_.assign(n, 0.0);
  model.state_fields_ = detail::checked_values(state_fields, n * qq, "state fields", "field", qq);
  const std::vector<int> clamp_states = detail::checked_clamps(
      clamps, n_nodes, [q](int v) { return v >= 0 && v < q; },
      "a state in [0, " + std::to_string(q) + ")", -1);
  for (const int state : clamp_states) {
    model.clamped_states_.push_back(static_cast<std::int16_t>(state));
    model.clamped_.push_back(state >= 0 ? std::int8_t{1} : std::int8_t{0});
  }
  model.n_free_ = std::count(model.clamped_.begin(), model.clamped_.end(), std::int8_t{0});

  // One sorted edge list: the Potts-form edges with their J, the matrix edges with J = 0.
  std::vector<Edge> potts_edges = detail::normalise_edges(edges, n_nodes);
  const std::vector<CouplingMatrix> general = normalise_matrices(matrices, n_nodes, q);
  std::vector<Edge> all = potts_edges;
  for (const CouplingMatrix& m : general) all.push_back(Edge{m.i, m.j, 0.0});
  std::sort(all.begin(), all.end(),
            [](const Edge& a, const Edge& b) { return std::tie(a.i, a.j) < std::tie(b.i, b.j); });
  for (std::size_t k = 1; k < all.size(); ++k) {
    if (all[k].i == all[k - 1].i && all[k].j == all[k - 1].j) {
      throw ModelError("edge " + edge_text(all[k].i, all[k].j) +
                       " given both as a Potts coupling and as a coupling matrix");
    }
  }
  model.edges_ = std::move(all);
  if (!general.empty()) {
    // Every edge as a matrix: J delta for the Potts-form ones.
    model.edge_matrices_.assign(model.edges_.size() * qq * qq, 0.0);
    std::size_t next_general = 0;
    for (std::size_t e = 0; e < model.edges_.size(); ++e) {
      double* w = &model.edge_matrices_[e * qq * qq];
      const Edge& edge = model.edges_[e];
      if (next_general < general.size() && general[next_general].i == edge.i &&
          general[next_general].j == edge.j) {
        std::copy(general[next_general].values.begin(), general[next_general].values.end(), w);
        ++next_general;
      } else {
        for (std::size_t a = 0; a < qq; ++a) w[a * qq + a] = edge.coupling;
      }
    }
  }
  if (!std::isfinite(model.magnitude())) {
    throw ModelError(
        "the energy scale sum max|fields| + sum max|couplings| overflows a double (energies "
        "could not be represented): rescale the couplings and fields");
  }
  const std::vector<std::int64_t> edge_of_entry = model.set_graph();
  if (!model.edge_matrices_.empty()) {
    model.csr_matrices_.resize(edge_of_entry.size() * qq * qq);
    for (std::size_t i = 0; i < n; ++i) {
      for (auto e = model.row_offsets_[i]; e < model.row_offsets_[i + 1]; ++e) {
        const auto entry = static_cast<std::size_t>(e);
        const auto edge = static_cast<std::size_t>(edge_of_entry[entry]);
        const bool forward = static_cast<std::size_t>(model.edges_[edge].i) == i;
        for (std::size_t a = 0; a < qq; ++a) {
          for (std::size_t b = 0; b < qq; ++b) {
            model.csr_matrices_[entry * qq * qq + a * qq + b] =
                model.edge_matrices_[edge * qq * qq + (forward ? a * qq + b : b * qq + a)];
          }
        }
      }
    }
  }
  return model;
}

double SpinModel::edge_coupling(std::int64_t e, int a, int b) const {
  const Edge& edge = edges_.at(static_cast<std::size_t>(e));
  if (!potts_) return edge.coupling * (a == 1 ? 1.0 : -1.0) * (b == 1 ? 1.0 : -1.0);
  if (edge_matrices_.empty()) return a == b ? edge.coupling : 0.0;
  const auto q = static_cast<std::size_t>(n_states_);
  return edge_matrices_[static_cast<std::size_t>(e) * q * q + static_cast<std::size_t>(a) * q +
                        static_cast<std::size_t>(b)];
}

double SpinModel::potts_magnitude() const {
  const auto q = static_cast<std::size_t>(n_states_);
  double sum = 0.0;
  for (std::size_t i = 0; i < fields_.size(); ++i) {
    double largest = 0.0;
    for (std::size_t s = 0; s < q; ++s)
      largest = std::max(largest, std::abs(state_fields_[i * q + s]));
    sum += largest;
  }
  for (std::size_t e = 0; e < edges_.size(); ++e) {
    double largest = std::abs(edges_[e].coupling);
    if (!edge_matrices_.empty()) {
      for (std::size_t k = 0; k < q * q; ++k) {
        largest = std::max(largest, std::abs(edge_matrices_[e * q * q + k]));
      }
    }
    sum += largest;
  }
  return sum;
}

double SpinModel::potts_energy(const std::vector<std::uint8_t>& states) const {
  if (!potts_) throw ModelError("potts_energy: not a Potts model");
  if (static_cast<std::int64_t>(states.size()) != n_nodes()) {
    throw ModelError("potts_energy: " + std::to_string(states.size()) + " states for " +
                     std::to_string(n_nodes()) + " nodes");
  }
  const auto q = static_cast<std::size_t>(n_states_);
  std::vector<int> x(states.size());
  for (std::size_t v = 0; v < states.size(); ++v) {
    x[v] = clamped_states_[v] >= 0 ? clamped_states_[v] : states[v];
    if (x[v] >= n_states_) {
      throw ModelError("potts_energy: state of node " + std::to_string(v) + " is " +
                       std::to_string(x[v]) + ", not below q = " + std::to_string(n_states_));
    }
  }
  double sum = 0.0;
  for (std::size_t v = 0; v < x.size(); ++v)
    sum += state_fields_[v * q + static_cast<std::size_t>(x[v])];
  for (std::size_t e = 0; e < edges_.size(); ++e) {
    sum += edge_coupling(static_cast<std::int64_t>(e), x[static_cast<std::size_t>(edges_[e].i)],
                         x[static_cast<std::size_t>(edges_[e].j)]);
  }
  return -sum;
}

}  // namespace hamon
