// SPDX-License-Identifier: Apache-2.0
#include "hamon/core/model/lattice_geometry.hpp"

#include "hamon/core/model/colouring.hpp"

namespace hamon::detail {

LatticeTables lattice_tables(const SpinModel& model, std::int32_t integer_field_bound) {
  LatticeTables t;
  const auto& shape = model.lattice_shape();
  if (!shape || !shape->periodic || integer_field_bound < 0 || model.n_free() != model.n_nodes()) {
    return t;
  }
  // Potts: the lattice holds the Potts J (per-state fields stay in DeviceModel); general
  // coupling matrices take the CSR path.
  if (!model.csr_matrices().empty()) return t;
  for (const Edge& e : model.edges()) {
    if (e.coupling < -127.0 || e.coupling > 127.0) return t;  // the table's int8
  }
  const std::vector<int>& extents = shape->extents;
  if (extents.size() < 2 || extents.size() > 3) return t;
  // A periodic extent of 2 (or 1) makes the + and - neighbours the same node: the implicit
  // neighbour walk would count that bond twice. The general path handles such lattices.
  for (int e : extents) {
    if (e < 3) return t;
  }
  // The blocks must be the checkerboard (the builder's colouring, not user blocks).
  const std::vector<std::int32_t> checkerboard = checkerboard_colouring(extents, true);
  if (checkerboard.empty() || checkerboard != model.colour_of_node()) return t;

  const auto n = static_cast<std::size_t>(model.n_nodes());
  const std::size_t dims = extents.size();
  std::vector<std::int64_t> stride(dims);
  std::int64_t s = 1;
  for (std::size_t d = dims; d-- > 0;) {
    stride[d] = s;
    s *= extents[d];
  }
  t.coupling_up.assign(dims * n, 0);
  t.field.resize(n);
  for (std::size_t i = 0; i < n; ++i) {
    t.field[i] = static_cast<std::int8_t>(model.fields()[i]);
    std::int64_t rest = static_cast<std::int64_t>(i);
    for (std::size_t d = dims; d-- > 0;) {
      const std::int64_t coordinate = rest % extents[d];
      rest /= extents[d];
      const std::int64_t up =
          static_cast<std::int64_t>(i) +
          (coordinate + 1 < extents[d] ? stride[d] : -(extents[d] - 1) * stride[d]);
      // Find the coupling of bond (i, up) in the CRS row of i.
      bool found = false;
      for (auto e = model.row_offsets()[i]; e < model.row_offsets()[i + 1]; ++e) {
        if (model.columns()[static_cast<std::size_t>(e)] == up) {
          t.coupling_up[d * n + i] =
              static_cast<std::int8_t>(model.couplings()[static_cast<std::size_t>(e)]);
          found = true;
        }
      }
      if (!found) return LatticeTables{};  // not the lattice its shape says: general path
    }
  }
  // Every CRS entry must be one of the lattice bonds (no extra edges).
  if (static_cast<std::size_t>(model.n_edges()) != dims * n) return LatticeTables{};
  t.extents = extents;
  t.applies = true;
  return t;
}

LatticeGeometry<Kokkos::HostSpace> lattice_over(const LatticeTables& tables, std::int64_t n_nodes) {
  LatticeGeometry<Kokkos::HostSpace> g;
  if (!tables.applies) return g;
  g.enabled = true;
  g.dims = static_cast<std::int32_t>(tables.extents.size());
  g.n_nodes = n_nodes;
  std::int64_t stride = 1;
  for (std::int32_t d = g.dims - 1; d >= 0; --d) {
    g.extent[d] = tables.extents[static_cast<std::size_t>(d)];
    g.stride[d] = stride;
    stride *= g.extent[d];
  }
  // Read only: make_device_model copies them out.
  g.coupling_up = decltype(g.coupling_up)(const_cast<std::int8_t*>(tables.coupling_up.data()),
                                          g.dims, g.n_nodes);
  g.field = decltype(g.field)(const_cast<std::int8_t*>(tables.field.data()), g.n_nodes);
  return g;
}

}  // namespace hamon::detail
