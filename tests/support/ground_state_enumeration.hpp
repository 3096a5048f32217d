// SPDX-License-Identifier: Apache-2.0
#pragma once
// The ground state(s) of a small model by enumeration: every configuration of the free
// nodes (clamped ones at their state), in a reflected q-ary Gray code so that consecutive
// configurations differ in one node and each energy is the previous one plus that node's
// change (O(degree) per configuration instead of O(N + edges)). 2^24 Ising configurations
// take well under a second. Works on the q-state form of state_model.hpp, so Ising and
// Potts models alike; the configuration comes back as the model stores it (spins +-1, or
// Potts states), i.e. as samples.npy holds a state.
//
// Rounding: the running energy is recomputed from scratch every kRefresh steps, so its
// drift stays far below the tolerance that decides ties (degeneracy). Configurations
// within `tie` of the minimum count as degenerate; the reported minimum is the energy of
// the reported configuration, computed from scratch.

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "hamon/core/model/spin_model.hpp"
#include "state_model.hpp"

namespace hamon::test {

struct GroundState {
  double energy = 0.0;                     // the minimum energy
  std::vector<std::int8_t> configuration;  // one minimiser, all nodes (spins or states)
  std::int64_t degeneracy = 0;             // configurations within the tie tolerance
};

/// The model's form of a q-state configuration: spins +-1 for Ising (state 1 = +1).
inline std::vector<std::int8_t> model_configuration(const SpinModel& model,
                                                    const std::vector<int>& x) {
  std::vector<std::int8_t> out(x.size());
  for (std::size_t i = 0; i < x.size(); ++i) {
    out[i] = model.is_potts() ? static_cast<std::int8_t>(x[i])
                              : static_cast<std::int8_t>(x[i] == 1 ? 1 : -1);
  }
  return out;
}

/// The ground state of `model` (Ising or Potts) with at most `max_configurations`
/// configurations of its free nodes (std::invalid_argument beyond). Ties: energies within
/// 1e-9 (1 + magnitude) of the minimum.
inline GroundState ground_state_by_enumeration(const SpinModel& model,
                                               double max_configurations = 0x1.0p25) {
  const StateModel m = state_model(model);
  const std::vector<std::int64_t> free_nodes = m.free_nodes();
  const double count = std::pow(static_cast<double>(m.q), static_cast<double>(free_nodes.size()));
  if (count > max_configurations) {
    throw std::invalid_argument(
        "ground_state_by_enumeration: " + std::to_string(free_nodes.size()) +
        " free nodes are too many to enumerate");
  }
  const auto q = static_cast<std::size_t>(m.q);
  const double tie = 1e-9 * (1.0 + model.magnitude());
  constexpr std::uint64_t kRefresh = 256;

  // Per node: its pairs, as (pair, the other node, whether the node is the pair's i).
  struct Incidence {
    std::size_t pair, other;
    bool first;
  };
  std::vector<std::vector<Incidence>> incident(static_cast<std::size_t>(m.n));
  for (std::size_t e = 0; e < m.pairs.size(); ++e) {
    const auto i = static_cast<std::size_t>(m.pairs[e].i);
    const auto j = static_cast<std::size_t>(m.pairs[e].j);
    incident[i].push_back({e, j, true});
    incident[j].push_back({e, i, false});
  }
  // The energy change when node k goes from state a to state b.
  std::vector<int> x(static_cast<std::size_t>(m.n));
  for (std::size_t i = 0; i < x.size(); ++i) x[i] = std::max(m.clamp[i], 0);
  auto change = [&](std::size_t k, std::size_t a, std::size_t b) {
    double sum = m.field[k * q + b] - m.field[k * q + a];
    for (const Incidence& in : incident[k]) {
      const auto o = static_cast<std::size_t>(x[in.other]);
      const std::vector<double>& w = m.pairs[in.pair].w;
      sum += in.first ? w[b * q + o] - w[a * q + o] : w[o * q + b] - w[o * q + a];
    }
    return -sum;
  };

  GroundState out;
  double energy = m.energy(x);
  double best = energy;
  std::vector<int> best_x = x;
  out.degeneracy = 1;
  // Reflected Gray code driven by an odometer: when odometer digit k increments (the
  // digits below it wrap to 0), Gray digit k moves one step in its direction; a digit's
  // direction turns each time its odometer digit wraps.
  std::vector<std::size_t> odometer(free_nodes.size(), 0);
  std::vector<int> direction(free_nodes.size(), 1);
  for (std::uint64_t step = 1;; ++step) {
    std::size_t k = 0;
    for (; k < free_nodes.size(); ++k) {
      if (++odometer[k] < q) break;
      odometer[k] = 0;
      direction[k] = -direction[k];
    }
    if (k == free_nodes.size()) break;
    const auto node = static_cast<std::size_t>(free_nodes[k]);
    const auto a = static_cast<std::size_t>(x[node]);
    const auto b = static_cast<std::size_t>(static_cast<int>(a) + direction[k]);
    energy += change(node, a, b);
    x[node] = static_cast<int>(b);
    if (step % kRefresh == 0) energy = m.energy(x);
    if (energy < best - tie) {
      best = energy;
      best_x = x;
      out.degeneracy = 1;
    } else if (energy <= best + tie) {
      ++out.degeneracy;
    }
  }
  out.energy = m.energy(best_x);
  out.configuration = model_configuration(model, best_x);
  return out;
}

}  // namespace hamon::test
