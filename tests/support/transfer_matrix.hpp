// SPDX-License-Identifier: Apache-2.0
#pragma once
// Exact reference values for strip-like models too large to enumerate, by a transfer
// matrix that adds one node at a time (Baxter's "corner" or row-by-row transfer), for
// Ising spins (strip_moments) and q-state Potts variables (potts_strip_moments), through
// the q-state form of state_model.hpp.
//
// Applies to any model of bandwidth <= W: every edge (i, j), i < j, has j - i <= W. A
// W x M strip laid out row-major with W the short width (node m W + x, as
// make_potts_lattice({M, W}, false, ...) numbers it), open along M and open or periodic
// across W, with any couplings (Potts form or general q x q matrices), fields and clamps,
// is such a model; so is one with diagonal bonds. After node k is added the "front" holds
// the W nodes k-W+1 .. k, node i at digit i mod W (base q). Adding node k sums out node
// k - W (the digit node k takes over) with the Boltzmann factor of node k's field and its
// edges to earlier nodes, so the cost is O(N q^(W+1)): q^W <= 65536 keeps it to seconds
// for hundreds of nodes. Forward vectors (kept, normalised by their maximum with the log
// of the scale summed) and a backward pass (normalised the same way) give every node's
// marginal, every edge's joint distribution and the mean energy exactly.

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "hamon/core/model/spin_model.hpp"
#include "state_model.hpp"
#include "strip_front.hpp"

namespace hamon::test {

struct StripTransfer {
  double log_z = 0.0;             // log sum over free configurations of exp(-beta E)
  double energy = 0.0;            // <E>
  std::vector<double> marginals;  // P(x_i = s) at [i q + s]
  std::vector<double> joints;     // P(x_i = a, x_j = b) at [e q^2 + a q + b], per pair
};

inline StripTransfer strip_transfer(const StateModel& m, int width, double beta,
                                    const std::string& who) {
  const auto n = static_cast<std::size_t>(m.n);
  const StripFront front(m, width, 65536.0, who);
  const std::size_t q = front.q;
  const std::size_t states = front.states;
  auto local_energy = [&](std::size_t k, std::size_t before, std::size_t s) {
    return front.local_energy(k, before, s);
  };
  auto allowed = [&](std::size_t k, std::size_t s) { return front.allowed(k, s); };
  auto after_of = [&](std::size_t k, std::size_t before, std::size_t s) {
    return front.after_of(k, before, s);
  };
  auto normalise = [](std::vector<double>& v) {
    const double top = *std::max_element(v.begin(), v.end());
    if (!(top > 0.0)) throw std::invalid_argument("strip_transfer: every weight underflowed");
    for (double& x : v) x /= top;
    return std::log(top);
  };

  // forward[k]: the front after node k, normalised; log_scale: the log of what was divided
  // out up to k. The front before node 0 is the state 0 with weight 1.
  std::vector<double> empty_front(states, 0.0);
  empty_front[0] = 1.0;
  std::vector<std::vector<double>> forward(n, std::vector<double>(states, 0.0));
  double log_scale = 0.0;
  for (std::size_t k = 0; k < n; ++k) {
    const std::vector<double>& previous = k > 0 ? forward[k - 1] : empty_front;
    std::vector<double>& next = forward[k];
    for (std::size_t before = 0; before < states; ++before) {
      const double weight = previous[before];
      if (weight == 0.0) continue;
      for (std::size_t s = 0; s < q; ++s) {
        if (!allowed(k, s)) continue;
        next[after_of(k, before, s)] += weight * std::exp(-beta * local_energy(k, before, s));
      }
    }
    log_scale += normalise(next);
  }
  StripTransfer out;
  double total = 0.0;
  for (double v : forward[n - 1]) total += v;
  out.log_z = log_scale + std::log(total);

  // Backward: backward(front after k) = the weight of nodes k+1.. given that front. Node
  // k's terms (its energy, its state, its edges to earlier nodes) are averaged over
  // (front before k, x_k) with weight forward[k-1] * factor * backward(front after k).
  out.marginals.assign(n * q, 0.0);
  out.joints.assign(m.pairs.size() * q * q, 0.0);
  std::vector<double> backward(states, 1.0);
  std::vector<double> mass(states * q);
  for (std::size_t k = n; k-- > 0;) {
    const std::vector<double>& before_k = k > 0 ? forward[k - 1] : empty_front;
    std::vector<double> earlier(states, 0.0);
    double mass_total = 0.0;
    double energy_mass = 0.0;
    std::fill(mass.begin(), mass.end(), 0.0);
    for (std::size_t before = 0; before < states; ++before) {
      for (std::size_t s = 0; s < q; ++s) {
        if (!allowed(k, s)) continue;
        const double e = local_energy(k, before, s);
        const double term = std::exp(-beta * e) * backward[after_of(k, before, s)];
        earlier[before] += term;
        const double v = before_k[before] * term;
        mass[before * q + s] = v;
        mass_total += v;
        energy_mass += v * e;
      }
    }
    out.energy += energy_mass / mass_total;
    for (std::size_t before = 0; before < states; ++before) {
      for (std::size_t s = 0; s < q; ++s) {
        const double v = mass[before * q + s] / mass_total;
        if (v == 0.0) continue;
        out.marginals[k * q + s] += v;
        for (const auto& [e, p] : front.back[k])
          out.joints[(e * q + front.digits[before * front.w + p]) * q + s] += v;
      }
    }
    normalise(earlier);
    backward = std::move(earlier);
  }
  return out;
}

struct StripMoments {
  double log_z = 0.0;              // log sum over free configurations of exp(-beta E)
  double energy = 0.0;             // <E>
  std::vector<double> node_means;  // <s_i> (clamped nodes: their value)
  std::vector<double> edge_means;  // <s_i s_j> for model.edges()
};

/// An Ising model of bandwidth `width` <= 12.
inline StripMoments strip_moments(const SpinModel& model, int width, double beta) {
  if (model.is_potts()) throw std::invalid_argument("strip_moments: a Potts model");
  if (width < 1 || width > 12) {
    throw std::invalid_argument("strip_moments: width " + std::to_string(width) +
                                " outside [1, 12]");
  }
  const StripTransfer t = strip_transfer(state_model(model), width, beta, "strip_moments");
  StripMoments out;
  out.log_z = t.log_z;
  out.energy = t.energy;
  for (std::size_t i = 0; i < static_cast<std::size_t>(model.n_nodes()); ++i) {
    out.node_means.push_back(spin_mean(t.marginals, i));
  }
  for (std::size_t e = 0; e < model.edges().size(); ++e) {
    out.edge_means.push_back(spin_product_mean(t.joints, e));
  }
  return out;
}

struct PottsStripMoments {
  double log_z = 0.0;
  double energy = 0.0;
  std::vector<double> marginals;       // P(x_i = s) at [i q + s]
  std::vector<double> edge_agreement;  // <delta(x_i, x_j)> for model.edges()
};

/// A Potts model of bandwidth `width`, q^width <= 65536.
inline PottsStripMoments potts_strip_moments(const SpinModel& model, int width, double beta) {
  if (!model.is_potts()) throw std::invalid_argument("potts_strip_moments: not a Potts model");
  StripTransfer t = strip_transfer(state_model(model), width, beta, "potts_strip_moments");
  PottsStripMoments out;
  out.log_z = t.log_z;
  out.energy = t.energy;
  for (std::size_t e = 0; e < model.edges().size(); ++e) {
    out.edge_agreement.push_back(agreement(t.joints, e, model.n_states()));
  }
  out.marginals = std::move(t.marginals);
  return out;
}

}  // namespace hamon::test
