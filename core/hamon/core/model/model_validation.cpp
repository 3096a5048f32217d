// SPDX-License-Identifier: Apache-2.0
// The checks every SpinModel constructor shares.
#include "hamon/core/model/detail/model_validation.hpp"

#include <algorithm>
#include <cmath>
#include <tuple>

#include "hamon/core/util/text.hpp"

namespace hamon::detail {

std::string range_text(std::int64_t n_nodes) {
  return "[0, " + std::to_string(n_nodes) + ")";
}

std::string pair_text(std::int64_t i, std::int64_t j) {
  return "(" + std::to_string(i) + ", " + std::to_string(j) + ")";
}

void check_node_count(std::int64_t n_nodes) {
  if (n_nodes < 1) {
    throw ModelError("a model needs at least one node, got n_nodes = " + std::to_string(n_nodes));
  }
  // Device kernels index nodes with int32 (the CRS columns are int32).
  if (n_nodes > kMaxNodes) {
    throw ModelError("n_nodes = " + std::to_string(n_nodes) + " exceeds the int32 limit of " +
                     std::to_string(kMaxNodes) + " nodes");
  }
}

void check_edge(std::size_t index, const Edge& edge, std::int64_t n_nodes) {
  const std::string name = "edge " + std::to_string(index) + " " + pair_text(edge.i, edge.j);
  for (const std::int64_t node : {edge.i, edge.j}) {
    if (node < 0 || node >= n_nodes) {
      throw ModelError(name + ": node " + std::to_string(node) + " out of range " +
                       range_text(n_nodes));
    }
  }
  if (edge.i == edge.j) throw ModelError(name + ": self-loop");
  if (!std::isfinite(edge.coupling)) {
    throw ModelError(name + ": coupling is " + format_value(edge.coupling));
  }
}

std::vector<Edge> normalise_edges(const std::vector<Edge>& edges, std::int64_t n_nodes) {
  struct Indexed {
    Edge edge;
    std::size_t index;
  };
  std::vector<Indexed> sorted;
  sorted.reserve(edges.size());
  for (std::size_t k = 0; k < edges.size(); ++k) {
    check_edge(k, edges[k], n_nodes);
    Edge e = edges[k];
    if (e.i > e.j) std::swap(e.i, e.j);
    sorted.push_back({e, k});
  }
  // Sorting on the original index too makes the reported pair of a conflict deterministic.
  std::sort(sorted.begin(), sorted.end(), [](const Indexed& a, const Indexed& b) {
    return std::tie(a.edge.i, a.edge.j, a.index) < std::tie(b.edge.i, b.edge.j, b.index);
  });
  std::vector<Edge> unique;
  unique.reserve(sorted.size());
  const Indexed* previous = nullptr;
  for (const Indexed& current : sorted) {
    if (previous != nullptr && previous->edge.i == current.edge.i &&
        previous->edge.j == current.edge.j) {
      if (previous->edge.coupling != current.edge.coupling) {
        throw ModelError(
            "edges " + pair_text(current.edge.i, current.edge.j) +
            " given twice with different couplings " + format_value(previous->edge.coupling) +
            " and " + format_value(current.edge.coupling) + " (edges " +
            std::to_string(previous->index) + " and " + std::to_string(current.index) + ")");
      }
      continue;
    }
    unique.push_back(current.edge);
    previous = &current;
  }
  return unique;
}

std::vector<double> checked_values(const std::vector<double>& values, std::size_t n,
                                   const std::string& list, const std::string& entry_name,
                                   std::size_t per_node) {
  if (values.empty()) return std::vector<double>(n, 0.0);
  if (values.size() != n) {
    throw ModelError(list + " has " + std::to_string(values.size()) + " entries for " +
                     std::to_string(n / per_node) + " nodes" +
                     (per_node > 1 ? " (" + std::to_string(per_node) + " per node)" : ""));
  }
  for (std::size_t k = 0; k < values.size(); ++k) {
    if (!std::isfinite(values[k])) {
      std::string name = entry_name + " of node " + std::to_string(k / per_node);
      if (per_node > 1) name += ", state " + std::to_string(k % per_node);
      throw ModelError(name + " is " + format_value(values[k]));
    }
  }
  return values;
}

}  // namespace hamon::detail
