// SPDX-License-Identifier: Apache-2.0
#pragma once
// Brute-force reference values for small models: enumerate every configuration of the
// free nodes with Boltzmann weight exp(-beta E). Ising models up to 20 free spins
// (exact_moments), Potts models up to 2^21 configurations, e.g. q = 3 on 13 free nodes
// (potts_exact_moments); both through the q-state form of state_model.hpp.

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "hamon/core/model/spin_model.hpp"
#include "state_model.hpp"

namespace hamon::test {

/// Every configuration of a StateModel's free nodes and its moments. Configuration index:
/// digit k (base q) = state of the k-th free node (Ising: bit k = k-th free node up).
struct Enumeration {
  std::vector<double> probabilities;  // by configuration index
  std::vector<double> energies;       // E by configuration index
  std::vector<double> marginals;      // P(x_i = s) at [i q + s] (clamped: 1 at their state)
  std::vector<double> joints;         // P(x_i = a, x_j = b) at [e q^2 + a q + b], per pair
  double energy = 0.0;                // <E>
  double energy_variance = 0.0;       // <E^2> - <E>^2 (= -d<E>/dbeta)
  double order_parameter = 0.0;       // <(q max_s n_s / N - 1) / (q - 1)> (Ising: <|m|>)
  double log_z = 0.0;                 // log sum over free configurations of exp(-beta E)
};

/// Calls f(index, x) for every configuration x (clamped nodes at their state) in index
/// order.
template <class F>
void for_each_configuration(const StateModel& m, const std::vector<std::int64_t>& free_nodes,
                            F&& f) {
  std::vector<int> x(static_cast<std::size_t>(m.n));
  for (std::size_t i = 0; i < x.size(); ++i) x[i] = std::max(m.clamp[i], 0);
  std::size_t index = 0;
  while (true) {
    f(index++, x);
    std::size_t k = 0;  // odometer over the free nodes, digit 0 fastest
    for (; k < free_nodes.size(); ++k) {
      int& digit = x[static_cast<std::size_t>(free_nodes[k])];
      if (++digit < m.q) break;
      digit = 0;
    }
    if (k == free_nodes.size()) return;
  }
}

inline Enumeration enumerate(const StateModel& m, double beta, double max_configurations,
                             const std::string& who) {
  const std::vector<std::int64_t> free_nodes = m.free_nodes();
  const double count = std::pow(static_cast<double>(m.q), static_cast<double>(free_nodes.size()));
  if (count > max_configurations) {
    throw std::invalid_argument(who + ": " + std::to_string(free_nodes.size()) +
                                " free nodes are too many to enumerate");
  }
  const auto n_configs = static_cast<std::size_t>(count);
  const auto q = static_cast<std::size_t>(m.q);
  Enumeration out;
  out.energies.resize(n_configs);
  for_each_configuration(m, free_nodes, [&](std::size_t s, const std::vector<int>& x) {
    out.energies[s] = m.energy(x);
  });
  const double min_energy = *std::min_element(out.energies.begin(), out.energies.end());
  out.probabilities.resize(n_configs);
  double z = 0.0;
  for (std::size_t s = 0; s < n_configs; ++s) {
    out.probabilities[s] = std::exp(-beta * (out.energies[s] - min_energy));
    z += out.probabilities[s];
  }
  for (double& p : out.probabilities) p /= z;
  out.marginals.assign(static_cast<std::size_t>(m.n) * q, 0.0);
  out.joints.assign(m.pairs.size() * q * q, 0.0);
  std::vector<double> counts(q);
  for_each_configuration(m, free_nodes, [&](std::size_t s, const std::vector<int>& x) {
    const double p = out.probabilities[s];
    std::fill(counts.begin(), counts.end(), 0.0);
    for (std::size_t i = 0; i < x.size(); ++i) {
      out.marginals[i * q + static_cast<std::size_t>(x[i])] += p;
      counts[static_cast<std::size_t>(x[i])] += 1.0;
    }
    for (std::size_t e = 0; e < m.pairs.size(); ++e) {
      const auto a = static_cast<std::size_t>(x[static_cast<std::size_t>(m.pairs[e].i)]);
      const auto b = static_cast<std::size_t>(x[static_cast<std::size_t>(m.pairs[e].j)]);
      out.joints[e * q * q + a * q + b] += p;
    }
    const double largest = *std::max_element(counts.begin(), counts.end());
    out.order_parameter += p * (static_cast<double>(q) * largest / static_cast<double>(m.n) - 1.0) /
                           static_cast<double>(q - 1);
    out.energy += p * out.energies[s];
  });
  for (std::size_t s = 0; s < n_configs; ++s) {
    const double d = out.energies[s] - out.energy;
    out.energy_variance += out.probabilities[s] * d * d;
  }
  out.log_z = std::log(z) - beta * min_energy;
  return out;
}

struct ExactMoments {
  std::vector<double> node_means;     // <s_i>
  std::vector<double> edge_means;     // <s_i s_j> for model.edges()
  double energy = 0.0;                // <E>
  double energy_variance = 0.0;       // <E^2> - <E>^2 (= -d<E>/dbeta)
  double abs_magnetization = 0.0;     // <|sum_i s_i| / N>
  double log_z = 0.0;                 // log sum over free configurations of exp(-beta E)
  std::vector<double> probabilities;  // by free-configuration index (bit k = k-th free node up)
};

/// An Ising model (<= 20 free spins).
inline ExactMoments exact_moments(const SpinModel& model, double beta) {
  if (model.is_potts()) throw std::invalid_argument("exact_moments: a Potts model");
  Enumeration e = enumerate(state_model(model), beta, 0x1.0p20, "exact_moments");
  ExactMoments out;
  for (std::size_t i = 0; i < static_cast<std::size_t>(model.n_nodes()); ++i) {
    out.node_means.push_back(spin_mean(e.marginals, i));
  }
  for (std::size_t k = 0; k < model.edges().size(); ++k) {
    out.edge_means.push_back(spin_product_mean(e.joints, k));
  }
  out.energy = e.energy;
  out.energy_variance = e.energy_variance;
  out.abs_magnetization = e.order_parameter;
  out.log_z = e.log_z;
  out.probabilities = std::move(e.probabilities);
  return out;
}

struct PottsExactMoments {
  std::vector<double> marginals;       // P(x_i = s) at [i q + s]
  std::vector<double> edge_agreement;  // <delta(x_i, x_j)> for model.edges()
  std::vector<double> joints;          // P(x_i = a, x_j = b) at [e q^2 + a q + b]
  double energy = 0.0;
  double energy_variance = 0.0;
  double order_parameter = 0.0;  // <(q max_s n_s / N - 1) / (q - 1)>, N = all nodes
  double log_z = 0.0;
  std::vector<double> probabilities;  // by free-configuration index (digit k, base q)
};

/// A Potts model (<= 2^21 configurations of the free nodes).
inline PottsExactMoments potts_exact_moments(const SpinModel& model, double beta) {
  if (!model.is_potts()) throw std::invalid_argument("potts_exact_moments: not a Potts model");
  Enumeration e = enumerate(state_model(model), beta, 0x1.0p21, "potts_exact_moments");
  PottsExactMoments out;
  for (std::size_t k = 0; k < model.edges().size(); ++k) {
    out.edge_agreement.push_back(agreement(e.joints, k, model.n_states()));
  }
  out.marginals = std::move(e.marginals);
  out.joints = std::move(e.joints);
  out.energy = e.energy;
  out.energy_variance = e.energy_variance;
  out.order_parameter = e.order_parameter;
  out.log_z = e.log_z;
  out.probabilities = std::move(e.probabilities);
  return out;
}

}  // namespace hamon::test
