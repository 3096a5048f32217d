// SPDX-License-Identifier: Apache-2.0
#pragma once
// The lattice fast path's view of a model: a periodic 2D/3D lattice with checkerboard
// blocks, no clamps and integer local fields. Neighbours are implicit (coordinates, no
// index loads) and couplings are stored per bond direction as small integers.
//
// The fast path gives the same bits as the general CSR path: the random numbers are keyed
// the same way, integer local fields are exact in any summation order, and the decision
// comes from the same per-chain threshold table.

#include <Kokkos_Core.hpp>
#include <cstdint>
#include <tuple>
#include <vector>

#include "hamon/core/model/spin_model.hpp"
#include "hamon/core/util/field_list.hpp"

namespace hamon {

template <class MemorySpace>
struct LatticeGeometry {
  bool enabled = false;
  std::int32_t dims = 0;
  // Kokkos::Array rather than C arrays: an aggregate member each, as the field list's
  // completeness check counts them.
  Kokkos::Array<std::int64_t, 3> extent = {1, 1, 1};  // row-major: the last varies fastest
  Kokkos::Array<std::int64_t, 3> stride = {0, 0, 0};
  std::int64_t n_nodes = 0;
  /// (dim, node) -> J between node and its + neighbour along dim.
  Kokkos::View<std::int8_t**, Kokkos::LayoutRight, MemorySpace> coupling_up;
  Kokkos::View<std::int8_t*, MemorySpace> field;

  /// The members, for DeviceModel's walks (util/view_fields.hpp). `hamon::field`: the member
  /// `field` hides the function here.
  template <class Self>
  static auto fields(Self& g) {
    return std::make_tuple(hamon::field("enabled", g.enabled), hamon::field("dims", g.dims),
                           hamon::field("extent", g.extent), hamon::field("stride", g.stride),
                           hamon::field("n_nodes", g.n_nodes),
                           hamon::field("coupling_up", g.coupling_up),
                           hamon::field("field", g.field).labelled("hamon::lattice_field"));
  }

  // Index arithmetic in 32 bits (SpinModel caps nodes below 2^31): the divisions that
  // find coordinates are several times cheaper than 64-bit ones.

  /// The k-th node (ascending) of checkerboard colour `colour`.
  KOKKOS_INLINE_FUNCTION std::int64_t node_of(std::int32_t colour, std::int64_t k) const {
    const auto half = static_cast<std::uint32_t>(extent[dims - 1] / 2);
    const auto index = static_cast<std::uint32_t>(k);
    const std::uint32_t line = index / half;  // index over all coordinates but the last
    std::uint32_t parity = static_cast<std::uint32_t>(colour);
    std::uint32_t rest = line;
    for (std::int32_t d = dims - 2; d >= 0; --d) {
      const auto e = static_cast<std::uint32_t>(extent[d]);
      parity += rest % e;
      rest /= e;
    }
    return static_cast<std::int64_t>(line) * extent[dims - 1] + 2 * (index - line * half) +
           (parity & 1u);
  }

  /// Where a walk through one colour stands: its node and that node's coordinates.
  struct Cursor {
    std::int64_t node;
    std::uint32_t coordinate[3];
    std::uint32_t colour;
  };

  /// The cursor at the k-th node of colour `colour` (divisions: once per walk).
  KOKKOS_INLINE_FUNCTION Cursor cursor(std::int32_t colour, std::int64_t k) const {
    Cursor c{node_of(colour, k), {0, 0, 0}, static_cast<std::uint32_t>(colour)};
    auto rest = static_cast<std::uint32_t>(c.node);
    for (std::int32_t d = dims - 1; d >= 0; --d) {
      const auto e = static_cast<std::uint32_t>(extent[d]);
      c.coordinate[d] = rest % e;
      rest /= e;
    }
    return c;
  }

  /// Moves the cursor to the next node of its colour (no divisions).
  KOKKOS_INLINE_FUNCTION void advance(Cursor& c) const {
    const std::int32_t last = dims - 1;
    const auto e_last = static_cast<std::uint32_t>(extent[last]);
    if (c.coordinate[last] + 2 < e_last) {
      c.coordinate[last] += 2;
      c.node += 2;
      return;
    }
    // Next line: carry through the other coordinates; the line's first node of this
    // colour sits at last coordinate (colour + the other coordinates) % 2.
    for (std::int32_t d = last - 1; d >= 0; --d) {
      if (++c.coordinate[d] < static_cast<std::uint32_t>(extent[d])) break;
      c.coordinate[d] = 0;
    }
    std::uint32_t parity = c.colour;
    std::int64_t node = 0;
    for (std::int32_t d = 0; d < last; ++d) {
      parity += c.coordinate[d];
      node += c.coordinate[d] * stride[d];
    }
    c.coordinate[last] = parity & 1u;
    c.node = node + c.coordinate[last];
  }

  /// The two neighbours of a node along dimension d and their couplings.
  struct AxisNeighbours {
    std::int64_t up, down;
    std::int32_t coupling_up, coupling_down;
  };

  /// along(c, d) for d = dims - 1 .. 0, up then down, is for_each_neighbour's order: a walk
  /// without a callback, for code compiled for another instruction set than this header,
  /// which could not inline a callback of its own into it.
  KOKKOS_INLINE_FUNCTION AxisNeighbours along(const Cursor& c, std::int32_t d) const {
    const auto e = static_cast<std::uint32_t>(extent[d]);
    const std::uint32_t x = c.coordinate[d];
    const std::int64_t up = c.node + (x + 1 < e ? stride[d] : -(extent[d] - 1) * stride[d]);
    const std::int64_t down = c.node + (x > 0 ? -stride[d] : (extent[d] - 1) * stride[d]);
    return AxisNeighbours{up, down, static_cast<std::int32_t>(coupling_up(d, c.node)),
                          static_cast<std::int32_t>(coupling_up(d, down))};
  }

  /// Calls f(neighbour, J) for the 2 * dims neighbours of the cursor's node (up then
  /// down per dimension, last dimension first), J the integer coupling of that bond.
  template <class F>
  KOKKOS_INLINE_FUNCTION void for_each_neighbour(const Cursor& c, F&& f) const {
    for (std::int32_t d = dims - 1; d >= 0; --d) {
      const AxisNeighbours a = along(c, d);
      f(a.up, a.coupling_up);
      f(a.down, a.coupling_down);
    }
  }

  /// The cursor at `node` (divisions), for walks over every node (step) or one lookup.
  KOKKOS_INLINE_FUNCTION Cursor at(std::int64_t node) const {
    Cursor c{node, {0, 0, 0}, 0u};
    auto rest = static_cast<std::uint32_t>(node);
    for (std::int32_t d = dims - 1; d >= 0; --d) {
      const auto e = static_cast<std::uint32_t>(extent[d]);
      c.coordinate[d] = rest % e;
      rest /= e;
    }
    return c;
  }

  /// Moves the cursor to the next node in row-major order, whatever its colour. `Dims`:
  /// the lattice's dimension when known at compile time (0: dims).
  template <int Dims = 0>
  KOKKOS_FORCEINLINE_FUNCTION void step(Cursor& c) const {
    ++c.node;
    for (std::int32_t d = (Dims > 0 ? Dims : dims) - 1; d >= 0; --d) {
      if (++c.coordinate[d] < static_cast<std::uint32_t>(extent[d])) return;
      c.coordinate[d] = 0;
    }
  }

  /// Calls f(neighbour, J) for the 2 * dims neighbours of `node`.
  template <class F>
  KOKKOS_INLINE_FUNCTION void for_each_neighbour(std::int64_t node, F&& f) const {
    for_each_neighbour(at(node), static_cast<F&&>(f));
  }

  /// Calls f(neighbour, J) for the + neighbour along each dimension: over all nodes, every
  /// bond once (the energy pass).
  template <int Dims = 0, class F>
  KOKKOS_FORCEINLINE_FUNCTION void for_each_up_bond(const Cursor& c, F&& f) const {
    for (std::int32_t d = (Dims > 0 ? Dims : dims) - 1; d >= 0; --d) {
      const std::uint32_t x = c.coordinate[d];
      const std::int64_t up =
          c.node + (x + 1 < static_cast<std::uint32_t>(extent[d]) ? stride[d]
                                                                  : -(extent[d] - 1) * stride[d]);
      f(up, static_cast<std::int32_t>(coupling_up(d, c.node)));
    }
  }

  /// The integer local field h_i + sum_j J_ij s_j of `node` for machines
  /// [first, first + lanes), read from machine-adjacent spin rows.
  template <class Spins>
  KOKKOS_INLINE_FUNCTION void local_fields(std::int64_t node, const Spins& spins,
                                           std::int32_t first, std::int32_t lanes,
                                           std::int32_t* phi) const {
    const std::int32_t h = field(node);
    for (std::int32_t lane = 0; lane < lanes; ++lane) phi[lane] = h;
    for_each_neighbour(node, [&](std::int64_t j, std::int32_t coupling) {
      const std::int8_t* s = &spins(first, j);
      for (std::int32_t lane = 0; lane < lanes; ++lane) phi[lane] += coupling * s[lane];
    });
  }
};

namespace detail {

/// Bond-direction couplings and fields of `model` when the fast path applies (periodic
/// lattice, every extent even and >= 3, checkerboard blocks, no clamps, integer local fields with
/// |phi| <= 64); `applies` false otherwise.
struct LatticeTables {
  bool applies = false;
  std::vector<int> extents;
  std::vector<std::int8_t> coupling_up;  // dims x n_nodes
  std::vector<std::int8_t> field;
};
LatticeTables lattice_tables(const SpinModel& model, std::int32_t integer_field_bound);

/// The geometry of `tables` (of a model of `n_nodes` nodes) over their vectors, in host
/// memory, owning nothing: what make_device_model copies (disabled when they do not apply).
LatticeGeometry<Kokkos::HostSpace> lattice_over(const LatticeTables& tables, std::int64_t n_nodes);

}  // namespace detail

}  // namespace hamon
