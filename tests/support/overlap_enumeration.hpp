// SPDX-License-Identifier: Apache-2.0
#pragma once
// Exact two-replica overlap statistics of small models (docs/overlaps.md): two independent
// replicas a, b drawn from pi, P(n) = sum_{a,b} pi(a) pi(b) [n free nodes agree], so with
// Q = q_states n - N_free and q = Q / (N_free (q_states - 1)) every overlap moment. For
// spins the agreement of configurations a, b is N_free - popcount(a xor b), so
// P is the autocorrelation of pi, A(d) = sum_a pi(a) pi(a xor d), one Walsh-Hadamard
// transform away (2^20 states cost 20 passes over 2^20 numbers); Potts models pair every
// configuration with every other (small q^N only). The link overlap and chi(k) need the
// pair marginals P(x_i = s, x_j = t): E[v_i v_j] = q^2 sum P_ij^2 - q sum P_i^2 - q sum P_j^2 + 1
// with v = q delta - 1 (for spins, <s_i s_j>^2).

#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <vector>

#include "exact_enumeration.hpp"
#include "hamon/core/model/spin_model.hpp"

namespace hamon::test {

struct ExactOverlaps {
  std::vector<double> agree_probability;  // P(n agreeing free nodes), n = 0..N_free
  double q2 = 0.0, q4 = 0.0, abs_q = 0.0;
  double link = 0.0;   // q_l over model.edges()
  double chi_k = 0.0;  // chi(k_min) averaged over the lattice directions (lattices only)
};

/// In place: the (unnormalised) Walsh-Hadamard transform of 2^k numbers.
inline void walsh_hadamard(std::vector<double>& v) {
  for (std::size_t h = 1; h < v.size(); h *= 2) {
    for (std::size_t i = 0; i < v.size(); i += 2 * h) {
      for (std::size_t j = i; j < i + h; ++j) {
        const double x = v[j];
        const double y = v[j + h];
        v[j] = x + y;
        v[j + h] = x - y;
      }
    }
  }
}

/// `lattice_extents`: the model's lattice (row-major, every extent equal) for chi(k_min),
/// empty for none.
inline ExactOverlaps exact_overlaps(const SpinModel& model, double beta,
                                    const std::vector<int>& lattice_extents = {}) {
  const StateModel m = state_model(model);
  const Enumeration e = enumerate(m, beta, 0x1.0p20, "exact_overlaps");
  const std::vector<std::int64_t> free_nodes = m.free_nodes();
  const auto n_free = static_cast<std::int64_t>(free_nodes.size());
  const auto q = static_cast<std::size_t>(m.q);
  const auto n = static_cast<std::size_t>(m.n);
  const std::vector<double>& pi = e.probabilities;
  ExactOverlaps out;
  out.agree_probability.assign(static_cast<std::size_t>(n_free) + 1, 0.0);
  if (q == 2) {
    std::vector<double> a = pi;
    walsh_hadamard(a);
    for (double& x : a) x *= x;
    walsh_hadamard(a);
    for (std::size_t d = 0; d < a.size(); ++d) {
      const auto differ = static_cast<std::size_t>(__builtin_popcountll(d));
      out.agree_probability[static_cast<std::size_t>(n_free) - differ] +=
          a[d] / static_cast<double>(a.size());
    }
  } else {
    std::vector<std::vector<int>> configs;
    for_each_configuration(m, free_nodes,
                           [&](std::size_t, const std::vector<int>& x) { configs.push_back(x); });
    if (configs.size() > 20000) throw std::invalid_argument("exact_overlaps: too many states");
    for (std::size_t a = 0; a < configs.size(); ++a) {
      for (std::size_t b = 0; b < configs.size(); ++b) {
        std::size_t agree = 0;
        for (auto i : free_nodes) {
          agree +=
              configs[a][static_cast<std::size_t>(i)] == configs[b][static_cast<std::size_t>(i)];
        }
        out.agree_probability[agree] += pi[a] * pi[b];
      }
    }
  }
  const double c = static_cast<double>(q - 1);
  const double scale = 1.0 / (static_cast<double>(n_free) * c);
  for (std::size_t k = 0; k < out.agree_probability.size(); ++k) {
    const double overlap =
        (static_cast<double>(q) * static_cast<double>(k) - static_cast<double>(n_free)) * scale;
    const double p = out.agree_probability[k];
    out.q2 += p * overlap * overlap;
    out.q4 += p * overlap * overlap * overlap * overlap;
    out.abs_q += p * std::abs(overlap);
  }
  // Pair marginals of every two nodes: E[v_i v_j] of two replicas.
  std::vector<double> pair(n * n * q * q, 0.0);
  for_each_configuration(m, free_nodes, [&](std::size_t s, const std::vector<int>& x) {
    for (std::size_t i = 0; i < n; ++i) {
      for (std::size_t j = 0; j < n; ++j) {
        pair[((i * n + j) * q + static_cast<std::size_t>(x[i])) * q +
             static_cast<std::size_t>(x[j])] += pi[s];
      }
    }
  });
  auto vv = [&](std::size_t i, std::size_t j) {
    double both = 0.0, first = 0.0, second = 0.0;
    for (std::size_t s = 0; s < q; ++s) {
      double pi_s = 0.0, pj_s = 0.0;
      for (std::size_t t = 0; t < q; ++t) {
        const double p = pair[((i * n + j) * q + s) * q + t];
        both += p * p;
        pi_s += p;
        pj_s += pair[((i * n + j) * q + t) * q + s];
      }
      first += pi_s * pi_s;
      second += pj_s * pj_s;
    }
    const auto qd = static_cast<double>(q);
    return qd * qd * both - qd * first - qd * second + 1.0;
  };
  for (const Edge& edge : model.edges()) {
    out.link += vv(static_cast<std::size_t>(edge.i), static_cast<std::size_t>(edge.j));
  }
  if (!model.edges().empty()) out.link /= static_cast<double>(model.edges().size()) * c * c;
  if (!lattice_extents.empty()) {
    const auto dims = lattice_extents.size();
    const double k_min = 8.0 * std::atan(1.0) / lattice_extents[0];
    auto coordinate = [&](std::int64_t node, std::size_t d) {
      std::int64_t rest = node;
      for (std::size_t k = dims; k-- > d + 1;) rest /= lattice_extents[k];
      return rest % lattice_extents[d];
    };
    double sum = 0.0;
    for (auto i : free_nodes) {
      for (auto j : free_nodes) {
        double phase = 0.0;
        for (std::size_t d = 0; d < dims; ++d) {
          phase += std::cos(k_min * static_cast<double>(coordinate(i, d) - coordinate(j, d)));
        }
        sum += vv(static_cast<std::size_t>(i), static_cast<std::size_t>(j)) * phase;
      }
    }
    out.chi_k = sum / static_cast<double>(dims) / (static_cast<double>(n_free) * c * c);
  }
  return out;
}

}  // namespace hamon::test
