// SPDX-License-Identifier: Apache-2.0
#pragma once
// Deterministic distance-1 colouring: the colour classes are the blocks of block Gibbs.
// Computed once on the host, so every execution space sweeps the same blocks (parallel
// colourings depend on the thread count: KokkosGraph gives 2 colours for a periodic 8x8
// lattice on Serial but 4 on OpenMP).

#include <cstdint>
#include <vector>

namespace hamon {

/// Colour per node for the symmetric CRS graph (row_offsets, columns), visiting nodes in
/// index order and giving each the smallest colour unused by its coloured neighbours.
/// The same graph always gets the same colouring.
std::vector<std::int32_t> greedy_colouring(const std::vector<std::int64_t>& row_offsets,
                                           const std::vector<std::int32_t>& columns);

/// The two-colour checkerboard (parity of the coordinate sum) when it is a proper
/// colouring of the lattice: open lattices, or periodic ones whose every extent is even.
/// Returns an empty vector otherwise.
std::vector<std::int32_t> checkerboard_colouring(const std::vector<int>& extents, bool periodic);

}  // namespace hamon
