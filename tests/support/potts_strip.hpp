// SPDX-License-Identifier: Apache-2.0
#pragma once
// Random q-state Potts strips for the oracle tests (unit and backend): W x M, node m W + x,
// bonds (m, x)-(m, x+1) across W (wrapping when periodic and W >= 3) and (m, x)-(m+1, x)
// along M (open), so transfer_matrix.hpp applies with width W. Draws come from
// mt19937_64's raw output (a sequence the standard fixes), so a seed means one model.

#include <cstdint>
#include <random>
#include <vector>

#include "hamon/core/model/spin_model.hpp"

namespace hamon::test {

struct PottsStripSpec {
  int width = 3;
  int length = 4;
  int q = 3;
  bool periodic = false;
  double coupling = 1.0;  // Potts J uniform in [-coupling, coupling]
  double field = 0.5;     // h_i(s) uniform in [-field, field]
  int matrix_every = 0;   // > 0: every matrix_every-th bond a general q x q matrix
  std::vector<Clamp> clamps;
  std::uint64_t seed = 1;
};

inline SpinModel potts_strip(const PottsStripSpec& spec) {
  std::mt19937_64 engine(spec.seed);
  auto uniform = [&](double a) {
    return a * (2.0 * static_cast<double>(engine() >> 11) * 0x1.0p-53 - 1.0);
  };
  std::vector<Edge> edges;
  std::vector<CouplingMatrix> matrices;
  const auto qq = static_cast<std::size_t>(spec.q) * static_cast<std::size_t>(spec.q);
  int bond = 0;
  auto add = [&](std::int64_t i, std::int64_t j) {
    if (spec.matrix_every > 0 && ++bond % spec.matrix_every == 0) {
      CouplingMatrix m{i, j, std::vector<double>(qq)};
      for (double& v : m.values) v = uniform(spec.coupling);
      matrices.push_back(std::move(m));
    } else {
      edges.push_back({i, j, uniform(spec.coupling)});
    }
  };
  const int w = spec.width;
  for (int m = 0; m < spec.length; ++m) {
    for (int x = 0; x < w; ++x) {
      const std::int64_t node = std::int64_t{m} * w + x;
      if (x + 1 < w || (spec.periodic && w > 2)) add(node, std::int64_t{m} * w + (x + 1) % w);
      if (m + 1 < spec.length) add(node, node + w);
    }
  }
  std::vector<double> fields(static_cast<std::size_t>(w * spec.length) *
                             static_cast<std::size_t>(spec.q));
  for (double& f : fields) f = uniform(spec.field);
  return SpinModel::potts(std::int64_t{w} * spec.length, spec.q, edges, fields, spec.clamps,
                          matrices);
}

}  // namespace hamon::test
