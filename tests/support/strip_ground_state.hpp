// SPDX-License-Identifier: Apache-2.0
#pragma once
// The exact ground state of a strip-like model by a min-sum (Viterbi) transfer that adds one
// node at a time over the front of strip_front.hpp: cost[front after k] = min over the
// state of node k - W (the digit node k takes over) of cost[front before k] + node k's
// energy terms (its field and its edges to earlier nodes). A back-pointer per (node, front)
// (the replaced digit, one byte) recovers a minimising configuration. Cost O(N q^(W+1))
// time and O(N q^W) bytes: a 10 x 80 Ising strip takes milliseconds.
//
// Applies to any model of bandwidth <= W (every edge (i, j), i < j, with j - i <= W): a
// W x M strip numbered row-major with W the short width (ising_strip.hpp builds them with
// the library's lattice builder), open along M, open or periodic across W, with any
// couplings, fields and clamps. Ising and Potts models alike; the configuration comes
// back as the model stores it (spins +-1, or Potts states).

#include <algorithm>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#include "ground_state_enumeration.hpp"
#include "hamon/core/model/spin_model.hpp"
#include "state_model.hpp"
#include "strip_front.hpp"

namespace hamon::test {

/// The ground state of `model`, of bandwidth `width` with q^width <= 4096 (W <= 12 for
/// Ising spins). `energy` is the path's sum; `degeneracy` is not computed (0).
inline GroundState strip_ground_state(const SpinModel& model, int width) {
  const StateModel m = state_model(model);
  const StripFront front(m, width, 4096.0, "strip_ground_state");
  const auto n = static_cast<std::size_t>(m.n);
  const std::size_t states = front.states;
  constexpr double kNone = std::numeric_limits<double>::infinity();

  std::vector<double> cost(states, kNone);
  cost[0] = 0.0;  // the front before node 0: every digit 0, nothing counted yet
  std::vector<double> next(states);
  std::vector<std::uint8_t> replaced(n * states);  // [k states + front after k]
  for (std::size_t k = 0; k < n; ++k) {
    std::fill(next.begin(), next.end(), kNone);
    for (std::size_t before = 0; before < states; ++before) {
      if (cost[before] == kNone) continue;
      for (std::size_t s = 0; s < front.q; ++s) {
        if (!front.allowed(k, s)) continue;
        const double c = cost[before] + front.local_energy(k, before, s);
        const std::size_t after = front.after_of(k, before, s);
        if (c < next[after]) {
          next[after] = c;
          replaced[k * states + after] = static_cast<std::uint8_t>(front.digit(k, before));
        }
      }
    }
    cost.swap(next);
  }
  const auto best = std::min_element(cost.begin(), cost.end());
  if (*best == kNone) throw std::invalid_argument("strip_ground_state: no allowed configuration");

  // Back from the last front: node k's state is its digit in the front after k; the front
  // before k has node k - W's state (the replaced digit) in that slot instead.
  std::vector<int> x(n, 0);
  auto f = static_cast<std::size_t>(best - cost.begin());
  for (std::size_t k = n; k-- > 0;) {
    const std::size_t s = front.digit(k, f);
    x[k] = static_cast<int>(s);
    f = front.after_of(k, f, replaced[k * states + f]);
  }
  GroundState out;
  out.energy = *best;
  out.configuration = model_configuration(model, x);
  return out;
}

}  // namespace hamon::test
