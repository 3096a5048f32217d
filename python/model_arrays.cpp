// SPDX-License-Identifier: Apache-2.0
// NumPy arrays into the inputs of hamon's model constructors (model_arrays.hpp).
#include "model_arrays.hpp"

#include <algorithm>
#include <string>

namespace hamon_python {
namespace {

Couplings dense_couplings(const py::handle& J) {
  py::array_t<double, py::array::c_style | py::array::forcecast> a =
      py::array_t<double, py::array::c_style | py::array::forcecast>::ensure(J);
  if (!a || a.ndim() != 2 || a.shape(0) != a.shape(1)) {
    throw py::value_error("J: expected a square matrix (n x n)");
  }
  const py::ssize_t n = a.shape(0);
  Couplings out{{}, n};
  const double* v = a.data();
  for (py::ssize_t i = 0; i < n; ++i) {
    if (v[i * n + i] != 0.0) {
      throw py::value_error("J: the diagonal must be zero (J[" + std::to_string(i) + ", " +
                            std::to_string(i) + "] = " + std::to_string(v[i * n + i]) + ")");
    }
    for (py::ssize_t j = i + 1; j < n; ++j) {
      // Bit equality: a symmetric matrix has the same number on both sides.
      if (!(v[i * n + j] == v[j * n + i])) {
        throw py::value_error("J: not symmetric at (" + std::to_string(i) + ", " +
                              std::to_string(j) + "): " + std::to_string(v[i * n + j]) + " and " +
                              std::to_string(v[j * n + i]));
      }
      if (v[i * n + j] != 0.0) out.edges.push_back({i, j, v[i * n + j]});
    }
  }
  return out;
}

Couplings sparse_couplings(const py::handle& J) {
  py::object coo = J.attr("tocoo")();
  const py::tuple shape = coo.attr("shape");
  const auto n = shape[0].cast<std::int64_t>();
  if (shape[1].cast<std::int64_t>() != n) throw py::value_error("J: expected a square matrix");
  const auto rows = from_numpy<std::int64_t>(coo.attr("row"), "J.row");
  const auto cols = from_numpy<std::int64_t>(coo.attr("col"), "J.col");
  const auto data = from_numpy<double>(coo.attr("data"), "J.data");
  Couplings out{{}, n};
  // Both triangles may be stored: SpinModel merges identical duplicates and refuses an edge
  // given twice with different couplings, so an asymmetric matrix is an error there.
  for (std::size_t k = 0; k < data.size(); ++k) {
    if (rows[k] == cols[k] && data[k] != 0.0) {
      throw py::value_error("J: the diagonal must be zero (J[" + std::to_string(rows[k]) + ", " +
                            std::to_string(rows[k]) + "] is not)");
    }
    if (rows[k] != cols[k] && data[k] != 0.0) {
      out.edges.push_back({std::min(rows[k], cols[k]), std::max(rows[k], cols[k]), data[k]});
    }
  }
  return out;
}

}  // namespace

Couplings couplings_of(const py::object& J, const py::object& edges, const py::object& values) {
  if (!J.is_none()) {
    if (!edges.is_none() || !values.is_none()) {
      throw py::value_error("give the couplings either as J or as edges and couplings, not both");
    }
    return py::hasattr(J, "tocoo") ? sparse_couplings(J) : dense_couplings(J);
  }
  Couplings out;
  if (edges.is_none() && values.is_none()) return out;
  if (edges.is_none() || values.is_none()) {
    throw py::value_error("edges and couplings go together (E x 2 node indices, E couplings)");
  }
  py::array e = py::array::ensure(edges);
  if (!e || e.ndim() != 2 || e.shape(1) != 2) {
    throw py::value_error("edges: expected an E x 2 array of node indices");
  }
  const auto pairs = from_numpy<std::int64_t>(edges, "edges", 2);
  const auto j = from_numpy<double>(values, "couplings");
  if (j.size() * 2 != pairs.size()) {
    throw py::value_error("couplings: " + std::to_string(j.size()) + " values for " +
                          std::to_string(pairs.size() / 2) + " edges");
  }
  for (std::size_t k = 0; k < j.size(); ++k)
    out.edges.push_back({pairs[2 * k], pairs[2 * k + 1], j[k]});
  return out;
}

std::vector<hamon::Clamp> clamps_of(const py::object& clamps) {
  std::vector<hamon::Clamp> out;
  if (clamps.is_none()) return out;
  if (py::isinstance<py::dict>(clamps)) {
    for (auto item : clamps.cast<py::dict>()) {
      out.push_back({item.first.cast<std::int64_t>(), item.second.cast<int>()});
    }
    return out;
  }
  const py::array a = py::array::ensure(clamps);
  if (!a || a.ndim() != 2 || a.shape(1) != 2) {
    throw py::value_error("clamps: expected {node: value} or a k x 2 array of (node, value)");
  }
  const auto pairs = from_numpy<std::int64_t>(clamps, "clamps", 2);
  for (std::size_t k = 0; k + 1 < pairs.size(); k += 2) {
    out.push_back({pairs[k], static_cast<int>(pairs[k + 1])});
  }
  return out;
}

std::vector<double> optional_values(const py::object& values, const char* what) {
  return values.is_none() ? std::vector<double>{} : from_numpy<double>(values, what);
}

std::int64_t node_count(const Couplings& c, const std::optional<std::int64_t>& n_nodes,
                        std::size_t per_node_values) {
  if (n_nodes) {
    if (c.n_nodes && *c.n_nodes != *n_nodes) {
      throw py::value_error("n_nodes = " + std::to_string(*n_nodes) + " but J is " +
                            std::to_string(*c.n_nodes) + " x " + std::to_string(*c.n_nodes));
    }
    return *n_nodes;
  }
  if (c.n_nodes) return *c.n_nodes;
  if (per_node_values > 0) return static_cast<std::int64_t>(per_node_values);
  throw py::value_error("n_nodes: needed when neither J nor fields give the node count");
}

std::vector<hamon::CouplingMatrix> matrices_of(const py::object& matrices, int q) {
  std::vector<hamon::CouplingMatrix> out;
  if (matrices.is_none()) return out;
  for (const py::handle item : matrices) {
    const auto triple = item.cast<py::tuple>();
    if (triple.size() != 3) throw py::value_error("matrices: expected (i, j, W) triples");
    const py::array w = py::array::ensure(triple[2]);
    if (!w || w.ndim() != 2 || w.shape(0) != q || w.shape(1) != q) {
      throw py::value_error("matrices: W of (" + py::str(triple[0]).cast<std::string>() + ", " +
                            py::str(triple[1]).cast<std::string>() +
                            ") must be q x q = " + std::to_string(q) + " x " + std::to_string(q));
    }
    out.push_back({triple[0].cast<std::int64_t>(), triple[1].cast<std::int64_t>(),
                   from_numpy<double>(triple[2], "matrices", 2)});
  }
  return out;
}

std::vector<double> per_node(const py::object& values, std::int64_t n_nodes, const char* what) {
  if (values.is_none()) return {};
  if (py::isinstance<py::float_>(values) || py::isinstance<py::int_>(values)) {
    return std::vector<double>(static_cast<std::size_t>(n_nodes), values.cast<double>());
  }
  auto v = from_numpy<double>(values, what);
  if (static_cast<std::int64_t>(v.size()) != n_nodes) {
    throw py::value_error(std::string(what) + ": " + std::to_string(v.size()) + " values for " +
                          std::to_string(n_nodes) + " nodes");
  }
  return v;
}

}  // namespace hamon_python
