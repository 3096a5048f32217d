// SPDX-License-Identifier: Apache-2.0
#pragma once
// The node-by-node "front" of a model of bandwidth <= W (every edge (i, j), i < j, has
// j - i <= W), shared by the column-transfer oracles: the sum-product one
// (transfer_matrix.hpp, Boltzmann weights) and the min-sum one (strip_ground_state.hpp,
// ground states). After node k is added the front holds the W nodes k-W+1 .. k, node i at
// digit i mod W (base q), so adding node k replaces the digit of node k - W (summed out or
// minimised over) with node k's state. A W x M strip laid out row-major with W the short
// width (node m W + x), open along M and open or periodic across W, is such a model.

#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "state_model.hpp"

namespace hamon::test {

struct StripFront {
  const StateModel& m;
  std::size_t q = 2;
  std::size_t w = 1;
  std::size_t states = 1;            // q^W front states
  std::vector<std::size_t> power;    // q^p
  std::vector<std::uint8_t> digits;  // digit p of front state f at [f w + p]
  // Node k's edges to earlier nodes (the pair and the neighbour's digit): the neighbour's
  // state is in the front before k, the node k - W being replaced included.
  std::vector<std::vector<std::pair<std::size_t, std::size_t>>> back;

  /// Throws std::invalid_argument (naming `who`) when q^width > max_states or an edge spans
  /// more than the width.
  StripFront(const StateModel& model, int width, double max_states, const std::string& who)
      : m(model), q(static_cast<std::size_t>(model.q)), w(static_cast<std::size_t>(width)) {
    if (width < 1 || std::pow(static_cast<double>(q), static_cast<double>(w)) > max_states) {
      throw std::invalid_argument(who + ": width " + std::to_string(width) + " gives more than " +
                                  std::to_string(static_cast<long long>(max_states)) +
                                  " front states");
    }
    for (std::size_t p = 0; p < w; ++p) states *= q;
    power.assign(w, 1);
    for (std::size_t p = 1; p < w; ++p) power[p] = power[p - 1] * q;
    digits.resize(states * w);
    for (std::size_t f = 0; f < states; ++f) {
      for (std::size_t p = 0; p < w; ++p)
        digits[f * w + p] = static_cast<std::uint8_t>(f / power[p] % q);
    }
    back.resize(static_cast<std::size_t>(m.n));
    for (std::size_t e = 0; e < m.pairs.size(); ++e) {
      const auto i = static_cast<std::size_t>(m.pairs[e].i);
      const auto j = static_cast<std::size_t>(m.pairs[e].j);
      if (j - i > w) {
        throw std::invalid_argument(who + ": edge (" + std::to_string(i) + ", " +
                                    std::to_string(j) + ") spans more than the width " +
                                    std::to_string(width));
      }
      back[j].emplace_back(e, i % w);
    }
  }

  /// Node k's energy terms with state s, the front before k being `before`.
  double local_energy(std::size_t k, std::size_t before, std::size_t s) const {
    double sum = m.field[k * q + s];
    for (const auto& [e, p] : back[k]) sum += m.pairs[e].w[digits[before * w + p] * q + s];
    return -sum;
  }
  bool allowed(std::size_t k, std::size_t s) const {
    return m.clamp[k] < 0 || static_cast<std::size_t>(m.clamp[k]) == s;
  }
  /// The front after node k takes state s.
  std::size_t after_of(std::size_t k, std::size_t before, std::size_t s) const {
    const std::size_t p = k % w;
    return before - digits[before * w + p] * power[p] + s * power[p];
  }
  /// The digit of node k in front state f (the slot node k - W held before k).
  std::size_t digit(std::size_t k, std::size_t f) const { return digits[f * w + k % w]; }
};

}  // namespace hamon::test
