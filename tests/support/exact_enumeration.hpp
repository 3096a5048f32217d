// SPDX-License-Identifier: Apache-2.0
#pragma once
// Brute-force reference values for small spin models (<= 20 free spins): enumerate every
// configuration of the free nodes with Boltzmann weight exp(-beta E).

#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <vector>

#include "hamon/core/spin_model.hpp"

namespace hamon::test {

struct ExactMoments {
  std::vector<double> node_means;     // <s_i>
  std::vector<double> edge_means;     // <s_i s_j> for model.edges()
  double energy = 0.0;                // <E>
  double energy_variance = 0.0;       // <E^2> - <E>^2 (= -d<E>/dbeta)
  double log_z = 0.0;                 // log sum over free configurations of exp(-beta E)
  std::vector<double> probabilities;  // by free-configuration index (bit k = k-th free node up)
};

inline ExactMoments exact_moments(const SpinModel& model, double beta) {
  std::vector<std::int64_t> free_nodes;
  for (std::int64_t i = 0; i < model.n_nodes(); ++i) {
    if (model.clamped()[static_cast<std::size_t>(i)] == 0) free_nodes.push_back(i);
  }
  if (free_nodes.size() > 20) throw std::invalid_argument("too many free spins to enumerate");
  const std::size_t n_states = std::size_t{1} << free_nodes.size();
  std::vector<std::int8_t> spins(static_cast<std::size_t>(model.n_nodes()));
  for (std::size_t i = 0; i < spins.size(); ++i) spins[i] = model.clamped()[i];
  std::vector<double> energies(n_states);
  double min_energy = 1e300;
  for (std::size_t s = 0; s < n_states; ++s) {
    for (std::size_t k = 0; k < free_nodes.size(); ++k) {
      spins[static_cast<std::size_t>(free_nodes[k])] = ((s >> k) & 1u) ? 1 : -1;
    }
    energies[s] = model.energy(spins);
    min_energy = std::min(min_energy, energies[s]);
  }
  ExactMoments out;
  out.node_means.assign(static_cast<std::size_t>(model.n_nodes()), 0.0);
  out.edge_means.assign(model.edges().size(), 0.0);
  out.probabilities.resize(n_states);
  double z = 0.0;
  for (std::size_t s = 0; s < n_states; ++s) {
    out.probabilities[s] = std::exp(-beta * (energies[s] - min_energy));
    z += out.probabilities[s];
  }
  for (std::size_t s = 0; s < n_states; ++s) {
    const double p = out.probabilities[s] /= z;
    for (std::size_t k = 0; k < free_nodes.size(); ++k) {
      spins[static_cast<std::size_t>(free_nodes[k])] = ((s >> k) & 1u) ? 1 : -1;
    }
    for (std::size_t i = 0; i < spins.size(); ++i) out.node_means[i] += p * spins[i];
    for (std::size_t e = 0; e < model.edges().size(); ++e) {
      const Edge& edge = model.edges()[e];
      out.edge_means[e] +=
          p * spins[static_cast<std::size_t>(edge.i)] * spins[static_cast<std::size_t>(edge.j)];
    }
    out.energy += p * energies[s];
  }
  for (std::size_t s = 0; s < n_states; ++s) {
    const double d = energies[s] - out.energy;
    out.energy_variance += out.probabilities[s] * d * d;
  }
  out.log_z = std::log(z) - beta * min_energy;
  return out;
}

}  // namespace hamon::test
