// SPDX-License-Identifier: Apache-2.0
#pragma once
// W x M Ising strips from the library's lattice builder, numbered as the sampler numbers a
// lattice of extents {M, W}: node m W + x, W the short width. Open along the length M
// (so strip_ground_state.hpp and transfer_matrix.hpp apply with width W), open or
// periodic across W.
//
// make_lattice has one periodicity for every dimension, so a strip periodic across W
// only is cut from the periodic lattice of extents {max(M, 3), W}: its first M rows, its
// bonds inside them, minus the bonds that wrap along the length. Couplings and fields are
// those the builder drew (its deterministic streams); clamps are applied last. The cut
// model is a graph (no lattice shape), which the sampler runs on its general path.

#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <vector>

#include "hamon/core/model/model_builders.hpp"
#include "hamon/core/model/spin_model.hpp"

namespace hamon::test {

struct IsingStripSpec {
  int width = 4;
  int length = 4;
  bool periodic_width = false;  // needs width >= 3
  ValueDistribution coupling = ValueDistribution::constant(1.0);
  ValueDistribution field = ValueDistribution::constant(0.0);
  std::vector<Clamp> clamps;
};

inline SpinModel ising_strip(const IsingStripSpec& spec) {
  const std::int64_t w = spec.width;
  const std::int64_t n = w * spec.length;
  if (!spec.periodic_width) {
    const SpinModel lattice =
        make_lattice({spec.length, spec.width}, false, spec.coupling, spec.field);
    if (spec.clamps.empty()) return lattice;
    return SpinModel::from_edges(n, lattice.edges(), lattice.fields(), spec.clamps);
  }
  if (spec.width < 3) throw std::invalid_argument("ising_strip: a periodic width needs W >= 3");
  const int rows = std::max(spec.length, 3);
  const SpinModel lattice = make_lattice({rows, spec.width}, true, spec.coupling, spec.field);
  std::vector<Edge> edges;
  for (const Edge& e : lattice.edges()) {
    const bool inside = e.j < n;
    const bool wraps_along_length = e.j - e.i == std::int64_t{rows - 1} * w;
    if (inside && !wraps_along_length) edges.push_back(e);
  }
  const std::vector<double> fields(lattice.fields().begin(),
                                   lattice.fields().begin() + static_cast<std::ptrdiff_t>(n));
  return SpinModel::from_edges(n, edges, fields, spec.clamps);
}

}  // namespace hamon::test
