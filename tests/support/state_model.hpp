// SPDX-License-Identifier: Apache-2.0
#pragma once
// Any SpinModel read as q-state variables, the one form the exact oracles
// (exact_enumeration.hpp, transfer_matrix.hpp) work on:
//
//   E(x) = -( sum_i field[i q + x_i] + sum_e pair[e].w[x_i q + x_j] ),   x_i in [0, q),
//
// pairs in model.edges() order (i < j). An Ising model is q = 2 with state 1 = spin +1 and
// state 0 = spin -1 (so field[i] = (-h_i, h_i), w = J (1, -1, -1, 1)); a Potts model keeps
// its states. The tables are read from the model's raw data (edges, fields, clamps; for a
// Potts model edge_coupling), not from its energy function, so tests can compare the two.

#include <cstdint>
#include <string>
#include <vector>

#include "hamon/core/model/spin_model.hpp"

namespace hamon::test {

struct StateModel {
  struct Pair {
    std::int64_t i = 0;
    std::int64_t j = 0;
    std::vector<double> w;  // q * q, [a * q + b] = W(x_i = a, x_j = b)
  };
  int q = 2;
  std::int64_t n = 0;
  std::vector<double> field;  // n * q
  std::vector<int> clamp;     // the clamped state, -1 for a free node
  std::vector<Pair> pairs;

  std::vector<std::int64_t> free_nodes() const {
    std::vector<std::int64_t> out;
    for (std::int64_t i = 0; i < n; ++i) {
      if (clamp[static_cast<std::size_t>(i)] < 0) out.push_back(i);
    }
    return out;
  }
  /// E(x) for a full configuration (clamped nodes must hold their state).
  double energy(const std::vector<int>& x) const {
    const auto qq = static_cast<std::size_t>(q);
    double sum = 0.0;
    for (std::size_t i = 0; i < x.size(); ++i)
      sum += field[i * qq + static_cast<std::size_t>(x[i])];
    for (const Pair& p : pairs) {
      sum += p.w[static_cast<std::size_t>(x[static_cast<std::size_t>(p.i)] * q +
                                          x[static_cast<std::size_t>(p.j)])];
    }
    return -sum;
  }
};

inline StateModel state_model(const SpinModel& model) {
  StateModel out;
  out.q = model.n_states();
  out.n = model.n_nodes();
  const auto n = static_cast<std::size_t>(out.n);
  const auto q = static_cast<std::size_t>(out.q);
  out.field.assign(n * q, 0.0);
  out.clamp.assign(n, -1);
  if (model.is_potts()) {
    if (!model.state_fields().empty()) out.field = model.state_fields();
    for (std::size_t i = 0; i < n; ++i) out.clamp[i] = model.clamped_states()[i];
  } else {
    for (std::size_t i = 0; i < n; ++i) {
      out.field[2 * i] = -model.fields()[i];
      out.field[2 * i + 1] = model.fields()[i];
      const int c = model.clamped()[i];
      if (c != 0) out.clamp[i] = c > 0 ? 1 : 0;
    }
  }
  for (std::size_t e = 0; e < model.edges().size(); ++e) {
    const Edge& edge = model.edges()[e];
    StateModel::Pair pair{edge.i, edge.j, std::vector<double>(q * q, 0.0)};
    for (int a = 0; a < out.q; ++a) {
      for (int b = 0; b < out.q; ++b) {
        pair.w[static_cast<std::size_t>(a * out.q + b)] =
            model.is_potts() ? model.edge_coupling(static_cast<std::int64_t>(e), a, b)
                             : edge.coupling * (a == b ? 1.0 : -1.0);
      }
    }
    out.pairs.push_back(std::move(pair));
  }
  return out;
}

/// Ising helpers: <s> from the q = 2 marginals at `k` (P(down), P(up)), and <s s'> from a
/// pair's 2 x 2 joint distribution.
inline double spin_mean(const std::vector<double>& marginals, std::size_t k) {
  return marginals[2 * k + 1] - marginals[2 * k];
}
inline double spin_product_mean(const std::vector<double>& joints, std::size_t e) {
  const double* p = &joints[4 * e];
  return p[0] + p[3] - p[1] - p[2];
}
/// Potts helper: <delta(x_i, x_j)> from a pair's q x q joint distribution.
inline double agreement(const std::vector<double>& joints, std::size_t e, int q) {
  const auto qq = static_cast<std::size_t>(q);
  double sum = 0.0;
  for (std::size_t a = 0; a < qq; ++a) sum += joints[e * qq * qq + a * qq + a];
  return sum;
}

}  // namespace hamon::test
