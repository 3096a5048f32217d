// SPDX-License-Identifier: Apache-2.0
#pragma once
// The bonds an energy pass counts at each node, so that over all nodes every bond is
// counted once: in the lattice fast path the + neighbour along each dimension (implicit,
// integer J, no index loads), else the CRS entries with j > i. Which node a bond is counted
// at changes no value: the lattice's terms are integers, exact in fixed point, so both give
// the same bits (energy.hpp, families/potts/detail/potts_energy.hpp).

#include <Kokkos_Core.hpp>
#include <cstdint>

#include "hamon/core/model/device_model.hpp"
#include "hamon/core/model/lattice_geometry.hpp"

namespace hamon::detail {

/// Nodes per work item of the energy passes (energy.hpp, families/potts/detail/potts_energy.hpp).
inline constexpr std::int64_t kEnergyNodeChunk = 512;

/// Walks the nodes of a chunk in order. `LatticeDims`: the lattice's dimension when the
/// caller knows it at compile time (the register path), -1 for the CSR bonds, 0 to ask the
/// model.
template <class MemorySpace>
struct CountedBonds {
  using Cursor = typename LatticeGeometry<MemorySpace>::Cursor;

  template <int LatticeDims>
  KOKKOS_FORCEINLINE_FUNCTION static bool on_lattice(const DeviceModel<MemorySpace>& model) {
    return LatticeDims > 0 || (LatticeDims == 0 && model.lattice.enabled);
  }

  KOKKOS_FORCEINLINE_FUNCTION static Cursor first(const DeviceModel<MemorySpace>& model,
                                                  std::int64_t i) {
    return model.lattice.enabled ? model.lattice.at(i) : Cursor{i, {0, 0, 0}, 0u};
  }

  template <int LatticeDims = 0>
  KOKKOS_FORCEINLINE_FUNCTION static void next(const DeviceModel<MemorySpace>& model, Cursor& c) {
    if (on_lattice<LatticeDims>(model)) {
      model.lattice.template step<(LatticeDims > 0 ? LatticeDims : 0)>(c);
    } else {
      ++c.node;
    }
  }

  /// Calls f(j, J, e) for the bonds counted at node c.node (e: the CRS entry, -1 on the
  /// lattice).
  template <int LatticeDims = 0, class F>
  KOKKOS_FORCEINLINE_FUNCTION static void for_each(const DeviceModel<MemorySpace>& model,
                                                   const Cursor& c, F&& f) {
    if (on_lattice<LatticeDims>(model)) {
      model.lattice.template for_each_up_bond<(LatticeDims > 0 ? LatticeDims : 0)>(
          c, [&](std::int64_t j, std::int32_t coupling) { f(j, coupling, std::int64_t(-1)); });
      return;
    }
    const std::int64_t i = c.node;
    for (std::int64_t e = model.row_offsets(i); e < model.row_offsets(i + 1); ++e) {
      const std::int64_t j = model.columns(e);
      if (j > i) f(j, model.couplings(e), e);
    }
  }
};

}  // namespace hamon::detail
