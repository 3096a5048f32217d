// SPDX-License-Identifier: Apache-2.0
#pragma once
// Multispin coding: many disorder instances of one Ising graph packed one bit per instance.
//
// A multispin *word* is kMultispinLanes 64-bit lanes, kMultispinSystems = 512 systems: bit b
// of lane l of node i's word is the spin of system 64 l + b (1 = up). The word's width is a
// constant of the format, not of the machine: every target (AVX-512 in one vector, AVX2 in
// two, scalar in eight lanes, a Cuda thread) updates the same 512 systems with the same
// draw, so the bits are the same everywhere. Systems of one word are different instances
// at the same temperature; the instances of group g are systems 512 g .. 512 g + 511.
//
// What can be packed: Ising models on one graph (the same nodes and edges in the same
// order) whose couplings are 0 or +-J0 with one magnitude J0 for all of them (+-J glasses,
// diluted +-J glasses where an absent edge has coupling 0, ferromagnets), with no fields
// and no clamped nodes.

#include <cstdint>
#include <string>
#include <type_traits>
#include <vector>

#include "hamon/core/model/spin_model.hpp"

namespace hamon {

/// 64-bit lanes per multispin word.
inline constexpr int kMultispinLanes = 8;
/// Systems (instances) per multispin word.
inline constexpr int kMultispinSystems = 64 * kMultispinLanes;
/// The widest local-field counter (bit planes): degree <= 255, or <= 127 when diluted.
inline constexpr int kMultispinMaxPlanes = 8;

/// The instances of one graph, packed (host memory; multispin_device.hpp mirrors it).
struct MultispinEnsemble {
  std::int64_t n_nodes = 0;
  std::int64_t n_systems = 0;  ///< instances packed (the last group's spare bits are copies)
  std::int64_t n_groups = 0;   ///< words per node and temperature: ceil(n_systems / 512)
  double coupling = 0.0;       ///< J0: every coupling is 0 or +-J0
  bool diluted = false;        ///< some instance lacks some edge (coupling 0)
  std::int32_t max_degree = 0;
  /// Bit planes of the per-node counter of the local field (multispin_sweep.hpp).
  std::int32_t counter_planes = 0;

  // The graph, as the instances share it: node i's neighbours are
  // neighbour[row_offsets[i] .. row_offsets[i + 1]), through edge edge_of_entry[k].
  std::vector<std::int64_t> row_offsets;
  std::vector<std::int32_t> neighbour;
  std::vector<std::int32_t> edge_of_entry;
  std::vector<std::int32_t> edge_first, edge_second;
  // The colour classes of the instances' colouring: the nodes of colour c are
  // colour_nodes[colour_offsets[c] .. colour_offsets[c + 1]).
  std::vector<std::int64_t> colour_offsets;
  std::vector<std::int32_t> colour_nodes;

  /// Per edge and group, one word: bit set where the coupling is -J0
  /// (index (edge * n_groups + group) * kMultispinLanes + lane).
  std::vector<std::uint64_t> negative;
  /// The same layout: bit set where the edge is present (empty unless diluted).
  std::vector<std::uint64_t> present;
  /// Per system (n_groups * 512), the number of edges present.
  std::vector<std::int64_t> present_edges;
  /// A periodic lattice with every extent equal (the Fourier overlap's k_min = 2 pi / L):
  /// its extents (node index row-major over them), else empty.
  std::vector<int> extents;

  std::int64_t n_edges() const { return static_cast<std::int64_t>(edge_first.size()); }
  std::int32_t n_colours() const { return static_cast<std::int32_t>(colour_offsets.size()) - 1; }
};

/// Calls f(std::integral_constant<int, P>{}) for P = planes, so the kernels' counters are
/// arrays of a compile-time size (pack_multispin keeps planes within 1 .. 8).
template <class F>
void with_counter_planes(int planes, F&& f) {
  switch (planes) {
    case 1:
      return f(std::integral_constant<int, 1>{});
    case 2:
      return f(std::integral_constant<int, 2>{});
    case 3:
      return f(std::integral_constant<int, 3>{});
    case 4:
      return f(std::integral_constant<int, 4>{});
    case 5:
      return f(std::integral_constant<int, 5>{});
    case 6:
      return f(std::integral_constant<int, 6>{});
    case 7:
      return f(std::integral_constant<int, 7>{});
    default:
      return f(std::integral_constant<int, kMultispinMaxPlanes>{});
  }
}

/// Why `model` cannot be one instance of a multispin ensemble (empty: it can).
std::string multispin_problem(const SpinModel& model);

/// Packs `instances` (at least one): each must be packable (multispin_problem), and all must
/// share the first one's graph, colouring and coupling magnitude; throws std::invalid_argument
/// naming the instance and the difference otherwise. Spare systems of the last group repeat
/// the last instance.
MultispinEnsemble pack_multispin(const std::vector<SpinModel>& instances);

/// The energy of system `system` of `ensemble` in the spin configuration `spins` (+-1 per
/// node), from the packed couplings: a reference for the tests and the unpacked outputs.
double multispin_energy(const MultispinEnsemble& ensemble, std::int64_t system,
                        const std::vector<std::int8_t>& spins);

}  // namespace hamon
