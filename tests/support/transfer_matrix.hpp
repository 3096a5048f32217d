// SPDX-License-Identifier: Apache-2.0
#pragma once
// Exact reference values for strip-like spin models too large to enumerate, by a transfer
// matrix that adds one node at a time (Baxter's "corner" or row-by-row transfer).
//
// Applies to any model of bandwidth <= W: every edge (i, j), i < j, has j - i <= W. A
// W x M strip laid out column by column (node m W + x), open along M and open or
// periodic across W, with any couplings, fields and clamps, is such a model; so is one
// with diagonal bonds. After node k is added the "front" holds the W nodes k-W+1 .. k,
// node i at bit i mod W (1 = up). Adding node k sums out node k - W (the bit node k
// takes over) with the Boltzmann factor of node k's field and its edges to the front,
// so the cost is O(N 2^W) and W <= 12 keeps it to milliseconds for hundreds of nodes.
// Forward vectors (kept, normalised by their maximum with the log of the scale summed)
// and a backward pass give every node's marginal and the mean energy exactly.

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "hamon/core/spin_model.hpp"

namespace hamon::test {

struct StripMoments {
  double log_z = 0.0;              // log sum over free configurations of exp(-beta E)
  double energy = 0.0;             // <E>
  std::vector<double> node_means;  // <s_i> (clamped nodes: their value)
};

inline StripMoments strip_moments(const SpinModel& model, int width, double beta) {
  if (width < 1 || width > 12) {
    throw std::invalid_argument("strip_moments: width " + std::to_string(width) +
                                " outside [1, 12]");
  }
  if (!(beta != 0.0)) {
    throw std::invalid_argument("strip_moments: beta = 0 (log Z = n_free log 2, means 0)");
  }
  const auto n = static_cast<std::size_t>(model.n_nodes());
  const auto w = static_cast<std::size_t>(width);
  const std::size_t states = std::size_t{1} << w;
  // Node k's edges to earlier nodes: (bit of the neighbour, coupling); the one to node
  // k - W (the bit being summed out) is kept apart.
  struct Back {
    std::vector<std::pair<std::size_t, double>> front;  // neighbours k-W+1 .. k-1
    double to_leaving = 0.0;                            // J with node k - W (0: none)
  };
  std::vector<Back> back(n);
  for (const Edge& e : model.edges()) {
    const auto i = static_cast<std::size_t>(e.i);
    const auto j = static_cast<std::size_t>(e.j);
    if (j - i > w) {
      throw std::invalid_argument("strip_moments: edge (" + std::to_string(i) + ", " +
                                  std::to_string(j) + ") spans more than the width " +
                                  std::to_string(width));
    }
    if (j - i == w) {
      back[j].to_leaving += e.coupling;
    } else {
      back[j].front.emplace_back(i % w, e.coupling);
    }
  }
  auto spin = [](std::size_t state, std::size_t bit) { return ((state >> bit) & 1u) ? 1.0 : -1.0; };
  // -beta e_k: node k's field and edges with node k at spin `s` (bit p of `after`), the
  // node leaving the front at spin `leaving`.
  auto exponent = [&](std::size_t k, std::size_t after, double s, double leaving) {
    double local = model.fields()[k];
    for (const auto& [bit, coupling] : back[k].front) local += coupling * spin(after, bit);
    local += back[k].to_leaving * leaving;
    return beta * local * s;
  };
  auto allowed = [&](std::size_t k, double s) {
    const int c = model.clamped()[k];
    return c == 0 || static_cast<double>(c) == s;
  };

  // forward[k]: the front after node k, normalised; log_scale: the log of what was divided
  // out up to k. forward[-1] (the empty front) is the state 0 with weight 1.
  std::vector<std::vector<double>> forward(n, std::vector<double>(states, 0.0));
  double log_scale = 0.0;
  std::vector<double> previous(states, 0.0);
  previous[0] = 1.0;
  for (std::size_t k = 0; k < n; ++k) {
    const std::size_t p = k % w;
    const bool leaving_exists = k >= w;
    std::vector<double>& next = forward[k];
    for (std::size_t before = 0; before < states; ++before) {
      const double weight = previous[before];
      if (weight == 0.0) continue;
      const double leaving = leaving_exists ? spin(before, p) : 0.0;
      for (int up = 0; up < 2; ++up) {
        const double s = up ? 1.0 : -1.0;
        if (!allowed(k, s)) continue;
        const std::size_t after =
            up ? (before | (std::size_t{1} << p)) : (before & ~(std::size_t{1} << p));
        next[after] += weight * std::exp(exponent(k, after, s, leaving));
      }
    }
    const double top = *std::max_element(next.begin(), next.end());
    for (double& v : next) v /= top;
    log_scale += std::log(top);
    previous = next;
  }
  StripMoments out;
  double total = 0.0;
  for (double v : forward[n - 1]) total += v;
  out.log_z = log_scale + std::log(total);

  // Backward: backward(front after k) = sum over nodes k+1.. of their weights. P(front
  // after k) is proportional to forward[k] * backward; node k's term e_k is averaged over
  // (front before k, s_k) with weight forward[k-1] * factor * backward(front after k).
  out.node_means.assign(n, 0.0);
  std::vector<double> backward(states, 1.0);
  for (std::size_t k = n; k-- > 0;) {
    const std::size_t p = k % w;
    const bool leaving_exists = k >= w;
    const std::vector<double>& after_k = forward[k];
    double norm = 0.0;
    double up_mass = 0.0;
    for (std::size_t s = 0; s < states; ++s) {
      const double mass = after_k[s] * backward[s];
      norm += mass;
      if ((s >> p) & 1u) up_mass += mass;
    }
    out.node_means[k] = 2.0 * up_mass / norm - 1.0;
    // <e_k> and the backward vector one node earlier.
    std::vector<double> empty_front(states, 0.0);
    if (k == 0) empty_front[0] = 1.0;
    const std::vector<double>& before_k = k > 0 ? forward[k - 1] : empty_front;
    std::vector<double> earlier(states, 0.0);
    double energy_mass = 0.0;
    double mass_total = 0.0;
    for (std::size_t before = 0; before < states; ++before) {
      const double leaving = leaving_exists ? spin(before, p) : 0.0;
      double sum = 0.0;
      for (int up = 0; up < 2; ++up) {
        const double s = up ? 1.0 : -1.0;
        if (!allowed(k, s)) continue;
        const std::size_t after =
            up ? (before | (std::size_t{1} << p)) : (before & ~(std::size_t{1} << p));
        const double x = exponent(k, after, s, leaving);
        const double term = std::exp(x) * backward[after];
        sum += term;
        const double mass = before_k[before] * term;
        mass_total += mass;
        energy_mass += mass * (-x / beta);
      }
      earlier[before] = sum;
    }
    out.energy += energy_mass / mass_total;
    const double top = *std::max_element(earlier.begin(), earlier.end());
    for (double& v : earlier) v = top > 0.0 ? v / top : v;
    backward = earlier;
  }
  return out;
}

}  // namespace hamon::test
