#pragma once
// The lattice fast path's view of a model: a periodic 2D/3D lattice with checkerboard
// blocks, no clamps and integer local fields. Neighbours are implicit (coordinates, no
// index loads) and couplings are stored per bond direction as small integers.
//
// The fast path gives the same bits as the general CSR path: the random numbers are keyed
// the same way, integer local fields are exact in any summation order, and the heat-bath
// factor comes from the same per-machine table.

#include <Kokkos_Core.hpp>
#include <cstdint>
#include <string>
#include <vector>

#include "hamon/core/spin_model.hpp"

namespace hamon {

template <class MemorySpace>
struct LatticeGeometry {
  bool enabled = false;
  std::int32_t dims = 0;
  std::int64_t extent[3] = {1, 1, 1};  // row-major: the last dimension varies fastest
  std::int64_t stride[3] = {0, 0, 0};
  std::int64_t n_nodes = 0;
  /// (dim, node) -> J between node and its + neighbour along dim.
  Kokkos::View<std::int8_t**, Kokkos::LayoutRight, MemorySpace> coupling_up;
  Kokkos::View<std::int8_t*, MemorySpace> field;

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

  /// The integer local field h_i + sum_j J_ij s_j of `node` for machines
  /// [first, first + lanes), read from machine-adjacent spin rows.
  template <class Spins>
  KOKKOS_INLINE_FUNCTION void local_fields(std::int64_t node, const Spins& spins,
                                           std::int32_t first, std::int32_t lanes,
                                           std::int32_t* phi) const {
    const std::int32_t h = field(node);
    for (std::int32_t lane = 0; lane < lanes; ++lane) phi[lane] = h;
    auto rest = static_cast<std::uint32_t>(node);
    for (std::int32_t d = dims - 1; d >= 0; --d) {
      const auto e = static_cast<std::uint32_t>(extent[d]);
      const std::uint32_t next = rest / e;
      const std::uint32_t coordinate = rest - next * e;
      rest = next;
      const std::int64_t up =
          node + (coordinate + 1 < e ? stride[d] : -(extent[d] - 1) * stride[d]);
      const std::int64_t down =
          node + (coordinate > 0 ? -stride[d] : (extent[d] - 1) * stride[d]);
      const std::int32_t j_up = coupling_up(d, node);
      const std::int32_t j_down = coupling_up(d, down);
      const std::int8_t* s_up = &spins(first, up);
      const std::int8_t* s_down = &spins(first, down);
      for (std::int32_t lane = 0; lane < lanes; ++lane) {
        phi[lane] += j_up * s_up[lane] + j_down * s_down[lane];
      }
    }
  }
};

namespace detail {

/// Bond-direction couplings and fields of `model` when the fast path applies (periodic
/// lattice, every extent even, checkerboard blocks, no clamps, integer local fields with
/// |phi| <= 64); `applies` false otherwise.
struct LatticeTables {
  bool applies = false;
  std::vector<int> extents;
  std::vector<std::int8_t> coupling_up;  // dims x n_nodes
  std::vector<std::int8_t> field;
};
LatticeTables lattice_tables(const SpinModel& model, std::int32_t integer_field_bound);

}  // namespace detail

template <class ExecutionSpace>
LatticeGeometry<typename ExecutionSpace::memory_space> make_lattice_geometry(
    const ExecutionSpace& space, const SpinModel& model, std::int32_t integer_field_bound) {
  using memory_space = typename ExecutionSpace::memory_space;
  LatticeGeometry<memory_space> g;
  const detail::LatticeTables tables = detail::lattice_tables(model, integer_field_bound);
  if (!tables.applies) return g;
  g.enabled = true;
  g.dims = static_cast<std::int32_t>(tables.extents.size());
  g.n_nodes = model.n_nodes();
  std::int64_t stride = 1;
  for (std::int32_t d = g.dims - 1; d >= 0; --d) {
    g.extent[d] = tables.extents[static_cast<std::size_t>(d)];
    g.stride[d] = stride;
    stride *= g.extent[d];
  }
  g.coupling_up = Kokkos::View<std::int8_t**, Kokkos::LayoutRight, memory_space>(
      Kokkos::view_alloc(space, Kokkos::WithoutInitializing, std::string("hamon::coupling_up")),
      g.dims, g.n_nodes);
  g.field = Kokkos::View<std::int8_t*, memory_space>(
      Kokkos::view_alloc(space, Kokkos::WithoutInitializing, std::string("hamon::lattice_field")),
      g.n_nodes);
  Kokkos::deep_copy(space, g.coupling_up,
                    Kokkos::View<const std::int8_t**, Kokkos::LayoutRight, Kokkos::HostSpace,
                                 Kokkos::MemoryTraits<Kokkos::Unmanaged>>(
                        tables.coupling_up.data(), g.dims, g.n_nodes));
  Kokkos::deep_copy(space, g.field,
                    Kokkos::View<const std::int8_t*, Kokkos::HostSpace,
                                 Kokkos::MemoryTraits<Kokkos::Unmanaged>>(tables.field.data(),
                                                                          g.n_nodes));
  return g;
}

}  // namespace hamon
