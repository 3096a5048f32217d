// SPDX-License-Identifier: Apache-2.0
#pragma once
// The colour blocks a sweep updates, and the work items of the host paths: CsrBlock (a
// colour class of the general CSR graph) and LatticeBlock (a checkerboard colour of the
// lattice fast path). Each gives the paths of families/spin/detail/block_update.hpp the same
// interface: the k-th node, its local fields in a run of machines, and a cursor for the register
// path.

#include <Kokkos_Core.hpp>
#include <cstdint>

#include "hamon/core/families/spin/heat_bath.hpp"
#include "hamon/core/model/device_model.hpp"
#include "hamon/core/model/lattice_geometry.hpp"
#include "hamon/core/util/counter_rng.hpp"

namespace hamon::detail {

inline constexpr std::int32_t kMachinesPerDraw = kUpdatesPerDraw;  // 16
inline constexpr std::int32_t kHostLanes = 32;                     // machines per host chunk
inline constexpr std::int32_t kHostDraws = kHostLanes / kMachinesPerDraw;  // per node and chunk
inline constexpr std::int32_t kHostNodes = 8;     // nodes per portable work item (16 generators)
inline constexpr std::int32_t kRegisterRun = 48;  // most block nodes per vector work item

/// A colour block of the general CSR graph: nodes listed in DeviceModel::block_nodes,
/// neighbours and couplings read from the CRS arrays.
template <class MemorySpace>
struct CsrBlock {
  static constexpr const char* label = "hamon::gibbs_sweep";
  DeviceModel<MemorySpace> model;
  std::int64_t block_begin = 0;

  KOKKOS_INLINE_FUNCTION std::int64_t node(std::int64_t k) const {
    return model.block_nodes(block_begin + k);
  }

  /// phi_i = h_i + sum_j J_ij s_j for machines [first, first + lanes), summed in CRS order.
  template <class Spins>
  KOKKOS_INLINE_FUNCTION void local_fields(std::int64_t i, const Spins& spins, std::int32_t first,
                                           std::int32_t lanes, double* phi) const {
    coupled_sums(i, spins, first, lanes, model.fields(i), phi);
  }

  /// origin + sum_j J_ij s_j for machines [first, first + lanes), summed in CRS order.
  template <class Spins>
  KOKKOS_INLINE_FUNCTION void coupled_sums(std::int64_t i, const Spins& spins, std::int32_t first,
                                           std::int32_t lanes, double origin, double* phi) const {
    for (std::int32_t lane = 0; lane < lanes; ++lane) phi[lane] = origin;
    for (std::int64_t e = model.row_offsets(i); e < model.row_offsets(i + 1); ++e) {
      const double coupling = model.couplings(e);
      const std::int8_t* neighbour = &spins(first, model.columns(e));
      HAMON_SIMD
      for (std::int32_t lane = 0; lane < lanes; ++lane) phi[lane] += coupling * neighbour[lane];
    }
  }

  /// A walk through the block, for the register path: nodes, fields and couplings.
  struct Cursor {
    std::int64_t k;
    std::int64_t node;
  };
  KOKKOS_INLINE_FUNCTION Cursor cursor(std::int64_t k) const { return Cursor{k, node(k)}; }
  KOKKOS_INLINE_FUNCTION void advance(Cursor& c) const {
    ++c.k;
    c.node = node(c.k);
  }
  KOKKOS_INLINE_FUNCTION double field(const Cursor& c) const { return model.fields(c.node); }
  /// Calls f(neighbour, J) in CRS order.
  template <class F>
  KOKKOS_INLINE_FUNCTION void for_each_neighbour(const Cursor& c, F&& f) const {
    for (std::int64_t e = model.row_offsets(c.node); e < model.row_offsets(c.node + 1); ++e) {
      f(static_cast<std::int64_t>(model.columns(e)), model.couplings(e));
    }
  }
};

/// A checkerboard colour of the lattice fast path: implicit neighbours, integer fields.
template <class MemorySpace>
struct LatticeBlock {
  static constexpr const char* label = "hamon::lattice_sweep";
  LatticeGeometry<MemorySpace> lattice;
  std::int32_t colour = 0;

  KOKKOS_INLINE_FUNCTION std::int64_t node(std::int64_t k) const {
    return lattice.node_of(colour, k);
  }

  template <class Spins>
  KOKKOS_INLINE_FUNCTION void local_fields(std::int64_t i, const Spins& spins, std::int32_t first,
                                           std::int32_t lanes, double* phi) const {
    std::int32_t integer_phi[kHostLanes];
    lattice.local_fields(i, spins, first, lanes, integer_phi);
    for (std::int32_t lane = 0; lane < lanes; ++lane) phi[lane] = integer_phi[lane];
  }

  using Cursor = typename LatticeGeometry<MemorySpace>::Cursor;
  KOKKOS_INLINE_FUNCTION Cursor cursor(std::int64_t k) const { return lattice.cursor(colour, k); }
  KOKKOS_INLINE_FUNCTION void advance(Cursor& c) const { lattice.advance(c); }
  KOKKOS_INLINE_FUNCTION std::int32_t field(const Cursor& c) const { return lattice.field(c.node); }
  template <class F>
  KOKKOS_INLINE_FUNCTION void for_each_neighbour(const Cursor& c, F&& f) const {
    lattice.for_each_neighbour(c, static_cast<F&&>(f));
  }
};

/// Calls f(block, n_block) for the colour blocks of a sweep in order: the lattice's two
/// checkerboard colours (`lattice`: its fast path runs), else the CSR colour classes
/// (empty ones skipped). Host code: the block sizes live on the host.
template <class MemorySpace, class F>
void for_each_colour_block(const DeviceModel<MemorySpace>& model, bool lattice, F&& f) {
  if (lattice) {
    for (std::int32_t colour = 0; colour < 2; ++colour) {
      f(LatticeBlock<MemorySpace>{model.lattice, colour}, model.lattice.n_nodes / 2);
    }
    return;
  }
  const std::size_t n_colours = model.block_offsets.empty() ? 0 : model.block_offsets.size() - 1;
  for (std::size_t c = 0; c < n_colours; ++c) {
    const std::int64_t begin = model.block_offsets[c];
    const std::int64_t n_block = model.block_offsets[c + 1] - begin;
    if (n_block > 0) f(CsrBlock<MemorySpace>{model, begin}, n_block);
  }
}

}  // namespace hamon::detail
