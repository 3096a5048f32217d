// SPDX-License-Identifier: Apache-2.0
#pragma once
// Checks every SpinModel constructor shares (Ising and Potts): node counts, edges,
// fields. Internal to the core library.

#include <cstdint>
#include <string>
#include <vector>

#include "hamon/core/model/spin_model.hpp"

namespace hamon::detail {

std::string range_text(std::int64_t n_nodes);
std::string pair_text(std::int64_t i, std::int64_t j);
/// Throws ModelError for n_nodes < 1 or beyond kMaxNodes.
void check_node_count(std::int64_t n_nodes);
/// Throws ModelError for an endpoint out of range, a self-loop or a non-finite coupling.
void check_edge(std::size_t index, const Edge& edge, std::int64_t n_nodes);
/// Edges with i < j, sorted by (i, j), identical duplicates merged. Conflicting duplicates
/// are reported with the indices they had in the caller's list.
std::vector<Edge> normalise_edges(const std::vector<Edge>& edges, std::int64_t n_nodes);
/// `values` of `n` entries (empty: zeros), every one finite; `what(i)` names entry i.
std::vector<double> checked_values(const std::vector<double>& values, std::size_t n,
                                   const std::string& list, const std::string& entry_name,
                                   std::size_t per_node = 1);

/// Clamp values per node (`free_value` for a free node); throws ModelError for a node out
/// of range, a value `allowed` refuses (named `allowed_text`) or a node clamped twice with
/// different values.
template <class Allowed>
std::vector<int> checked_clamps(const std::vector<Clamp>& clamps, std::int64_t n_nodes,
                                const Allowed& allowed, const std::string& allowed_text,
                                int free_value) {
  std::vector<int> value_of(static_cast<std::size_t>(n_nodes), free_value);
  // Which clamp entry set each node, to name both entries of a conflict.
  std::vector<std::size_t> set_by(value_of.size(), clamps.size());
  for (std::size_t k = 0; k < clamps.size(); ++k) {
    const Clamp& c = clamps[k];
    if (c.node < 0 || c.node >= n_nodes) {
      throw ModelError("clamp " + std::to_string(k) + ": node " + std::to_string(c.node) +
                       " out of range " + range_text(n_nodes));
    }
    if (!allowed(c.value)) {
      throw ModelError("clamp of node " + std::to_string(c.node) + ": value " +
                       std::to_string(c.value) + " is not " + allowed_text);
    }
    const auto node = static_cast<std::size_t>(c.node);
    if (set_by[node] != clamps.size() && value_of[node] != c.value) {
      throw ModelError("node " + std::to_string(c.node) + " clamped twice with different values " +
                       std::to_string(value_of[node]) + " and " + std::to_string(c.value) +
                       " (clamps " + std::to_string(set_by[node]) + " and " + std::to_string(k) +
                       ")");
    }
    value_of[node] = c.value;
    set_by[node] = k;
  }
  return value_of;
}

}  // namespace hamon::detail
