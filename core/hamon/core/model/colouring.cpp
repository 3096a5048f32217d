// SPDX-License-Identifier: Apache-2.0
// Deterministic host colourings (see colouring.hpp for why they are not computed in
// parallel on the device).
#include "hamon/core/model/colouring.hpp"

#include <algorithm>
#include <cstddef>

namespace hamon {

namespace {

std::size_t max_degree(const std::vector<std::int64_t>& row_offsets) {
  std::size_t result = 0;
  for (std::size_t v = 0; v + 1 < row_offsets.size(); ++v) {
    result = std::max(result, static_cast<std::size_t>(row_offsets[v + 1] - row_offsets[v]));
  }
  return result;
}

}  // namespace

std::vector<std::int32_t> greedy_colouring(const std::vector<std::int64_t>& row_offsets,
                                           const std::vector<std::int32_t>& columns) {
  const std::size_t n_nodes = row_offsets.empty() ? 0 : row_offsets.size() - 1;
  std::vector<std::int32_t> colour(n_nodes, -1);
  // A node never needs a colour above its degree, so degree + 1 slots suffice. Marking a
  // slot with the current node's index avoids clearing the array for every node.
  std::vector<std::int64_t> taken_by(max_degree(row_offsets) + 1, -1);
  for (std::size_t v = 0; v < n_nodes; ++v) {
    const auto node = static_cast<std::int64_t>(v);
    for (std::int64_t k = row_offsets[v]; k < row_offsets[v + 1]; ++k) {
      const std::int32_t c = colour[static_cast<std::size_t>(columns[static_cast<std::size_t>(k)])];
      if (c >= 0 && static_cast<std::size_t>(c) < taken_by.size()) {
        taken_by[static_cast<std::size_t>(c)] = node;
      }
    }
    std::int32_t c = 0;
    while (taken_by[static_cast<std::size_t>(c)] == node) ++c;
    colour[v] = c;
  }
  return colour;
}

std::vector<std::int32_t> checkerboard_colouring(const std::vector<int>& extents, bool periodic) {
  if (extents.empty()) return {};
  std::size_t n_nodes = 1;
  for (const int extent : extents) {
    if (extent < 1) return {};
    // A periodic bond across an odd extent joins two sites of the same parity.
    if (periodic && extent % 2 != 0) return {};
    n_nodes *= static_cast<std::size_t>(extent);
  }
  std::vector<std::int32_t> colour(n_nodes);
  std::vector<int> coord(extents.size(), 0);
  for (std::size_t node = 0; node < n_nodes; ++node) {
    int sum = 0;
    for (const int x : coord) sum += x;
    colour[node] = sum % 2;
    // Advance the row-major coordinate: the last dimension varies fastest.
    for (std::size_t d = extents.size(); d-- > 0;) {
      if (++coord[d] < extents[d]) break;
      coord[d] = 0;
    }
  }
  return colour;
}

}  // namespace hamon
