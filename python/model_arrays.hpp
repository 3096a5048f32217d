// SPDX-License-Identifier: Apache-2.0
#pragma once
// NumPy arrays (and dicts, SciPy matrices, numbers) into the inputs of hamon's model
// constructors, with errors that name the argument and the entry.
#include <hamon/core/model/spin_model.hpp>
#include <optional>
#include <vector>

#include "bindings.hpp"

namespace hamon_python {

/// The couplings of a model: a dense symmetric matrix J (n x n; the pairs i < j with
/// J_ij != 0 become edges), a SciPy sparse matrix (anything with tocoo()), or an edge list
/// (E x 2 node indices) with E couplings.
struct Couplings {
  std::vector<hamon::Edge> edges;
  std::optional<std::int64_t> n_nodes;  // what a matrix says
};

/// From J, or from edges and couplings (not both); none of them: no couplings.
Couplings couplings_of(const py::object& J, const py::object& edges, const py::object& values);
/// Clamps from a dict {node: value}, a k x 2 array of (node, value) pairs, or None.
std::vector<hamon::Clamp> clamps_of(const py::object& clamps);
/// General Potts couplings: (i, j, W) triples, W a q x q matrix W(x_i = a, x_j = b).
std::vector<hamon::CouplingMatrix> matrices_of(const py::object& matrices, int q);
/// None: empty; else a 1-D array of numbers.
std::vector<double> optional_values(const py::object& values, const char* what);
/// Per-node values from a number (every node) or an array of n_nodes values; None: empty.
std::vector<double> per_node(const py::object& values, std::int64_t n_nodes, const char* what);
/// The node count: n_nodes when given (it must agree with J), else J's, else the count of
/// per-node values.
std::int64_t node_count(const Couplings& c, const std::optional<std::int64_t>& n_nodes,
                        std::size_t per_node_values);

}  // namespace hamon_python
