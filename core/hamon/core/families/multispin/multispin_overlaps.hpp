// SPDX-License-Identifier: Apache-2.0
#pragma once
// Two-replica overlaps of a multispin state, per system, by vertical counters: with
// x_i = a_i ^ b_i (1 where replicas a and b disagree at node i),
//   site overlap  q_b = 1 - 2 D_b / N,        D_b = sum_i x_i (bit b);
//   link overlap  Q_b = 1 - 2 L_b / N_edges,  L_b = sum_(i,j) (x_i ^ x_j) (bit b), every edge
//                 of the shared graph (present or not in the instance: the lattice's links).
// and, on a periodic lattice of side L, the Fourier overlap's plane counts
//   D_(d, x) = sum over the nodes i with coordinate x along direction d of x_i,
// from which F_d(k_min) = (1/N) sum_x (N/L - 2 D_(d, x)) e^(i k_min x), k_min = 2 pi / L
// (multispin_fourier_overlap). Integers only: the same on every backend. The slots follow
// multispin_swaps.hpp's layout.

#include <Kokkos_Core.hpp>
#include <cstdint>
#include <vector>

#include "hamon/core/families/multispin/multispin_energy.hpp"
#include "hamon/core/families/multispin/multispin_swaps.hpp"

namespace hamon {

namespace detail {

/// Item t = (rung, group) of replica pair (replica_a, replica_b).
template <class MemorySpace>
struct MultispinOverlapCounts {
  MultispinViews<MemorySpace> m;
  MultispinLadder ladder;
  Kokkos::View<const std::uint64_t*, MemorySpace> spins;
  Kokkos::View<std::int64_t*, MemorySpace> disagree;  // [(rung * n_groups + group) * 512 + b]
  Kokkos::View<std::int64_t*, MemorySpace> links;     // the same layout
  std::int64_t replica_a = 0, replica_b = 1;

  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t block) const {
    const std::int64_t group = block % ladder.n_groups, rung = block / ladder.n_groups;
    const std::int64_t a = ladder.slot(rung, replica_a, group) * m.n_nodes;
    const std::int64_t b = ladder.slot(rung, replica_b, group) * m.n_nodes;
    const auto differ = [&](std::int64_t node, std::uint64_t(&x)[kMultispinLanes]) {
      const std::uint64_t* s = &spins((a + node) * kMultispinLanes);
      const std::uint64_t* t = &spins((b + node) * kMultispinLanes);
      for (int l = 0; l < kMultispinLanes; ++l) x[l] = s[l] ^ t[l];
    };
    MultispinCounter sites, bonds;
    std::uint64_t x[kMultispinLanes], y[kMultispinLanes];
    for (std::int64_t i = 0; i < m.n_nodes; ++i) {
      differ(i, x);
      sites.add(x);
    }
    for (std::int64_t e = 0; e < m.n_edges(); ++e) {
      differ(m.edge_first(e), x);
      differ(m.edge_second(e), y);
      for (int l = 0; l < kMultispinLanes; ++l) x[l] ^= y[l];
      bonds.add(x);
    }
    sites.flush();
    bonds.flush();
    const std::int64_t out = block * kMultispinSystems;
    for (int l = 0; l < kMultispinLanes; ++l) {
      for (int bit = 0; bit < 64; ++bit) {
        disagree(out + 64 * l + bit) = sites.count(l, bit);
        links(out + 64 * l + bit) = bonds.count(l, bit);
      }
    }
  }
};

/// Item t = ((rung, group), direction d, plane x): the disagreeing nodes of plane x along d.
template <class MemorySpace>
struct MultispinPlaneCounts {
  MultispinViews<MemorySpace> m;
  MultispinLadder ladder;
  Kokkos::View<const std::uint64_t*, MemorySpace> spins;
  Kokkos::View<const std::int32_t*, MemorySpace> plane_nodes;  // [(d * L + x) * per_plane + k]
  Kokkos::View<std::int64_t*, MemorySpace> counts;             // [t * 512 + system]
  std::int64_t planes = 0, per_plane = 0, replica_a = 0, replica_b = 1;

  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t t) const {
    const std::int64_t block = t / planes, plane = t % planes;
    const std::int64_t group = block % ladder.n_groups, rung = block / ladder.n_groups;
    const std::int64_t a = ladder.slot(rung, replica_a, group) * m.n_nodes;
    const std::int64_t b = ladder.slot(rung, replica_b, group) * m.n_nodes;
    MultispinCounter disagree;
    std::uint64_t x[kMultispinLanes];
    for (std::int64_t k = 0; k < per_plane; ++k) {
      const std::int32_t node = plane_nodes(plane * per_plane + k);
      const std::uint64_t* s = &spins((a + node) * kMultispinLanes);
      const std::uint64_t* u = &spins((b + node) * kMultispinLanes);
      for (int l = 0; l < kMultispinLanes; ++l) x[l] = s[l] ^ u[l];
      disagree.add(x);
    }
    disagree.flush();
    for (int l = 0; l < kMultispinLanes; ++l) {
      for (int bit = 0; bit < 64; ++bit) {
        counts(t * kMultispinSystems + 64 * l + bit) = disagree.count(l, bit);
      }
    }
  }
};

}  // namespace detail

/// The nodes of every lattice plane, [(d * L + x) * per_plane + k] for direction d and
/// coordinate x (the ensemble's `extents`, row-major), for multispin_plane_counts.
std::vector<std::int32_t> multispin_plane_nodes(const MultispinEnsemble& ensemble);

/// Per rung, group, direction d and plane x, the nodes of the plane where the replicas
/// disagree: counts[(((rung * n_groups + group) * dims + d) * L + x) * 512 + system], sized
/// n_rungs * n_groups * dims * L * 512. `plane_nodes` from multispin_plane_nodes.
template <class Space>
void multispin_plane_counts(
    const Space& space, const MultispinDevice<typename Space::memory_space>& m,
    const MultispinLadder& ladder,
    const Kokkos::View<const std::uint64_t*, typename Space::memory_space>& spins,
    const Kokkos::View<const std::int32_t*, typename Space::memory_space>& plane_nodes,
    std::int64_t dims, std::int64_t side,
    const Kokkos::View<std::int64_t*, typename Space::memory_space>& counts,
    std::int64_t replica_a = 0, std::int64_t replica_b = 1) {
  const std::int64_t planes = dims * side;
  Kokkos::parallel_for(
      "hamon::multispin_plane_counts",
      Kokkos::RangePolicy<Space>(space, 0, ladder.n_rungs * ladder.n_groups * planes),
      detail::MultispinPlaneCounts<typename Space::memory_space>{
          m.views, ladder, spins, plane_nodes, counts, planes,
          static_cast<std::int64_t>(plane_nodes.extent(0)) / planes, replica_a, replica_b});
}

/// |F(k_min)|^2 averaged over the directions, from one system's plane counts
/// (counts[d * L + x], the stride between them `stride`): what chi(k_min) = N <|F|^2>
/// averages.
double multispin_fourier_overlap(const std::int64_t* counts, std::int64_t stride, std::int64_t dims,
                                 std::int64_t side);

/// Per rung, group and system, the nodes where replicas `replica_a` and `replica_b` disagree
/// (`disagree`) and the edges whose two ends' disagreement differs (`links`); both sized
/// n_rungs * n_groups * 512.
template <class Space>
void multispin_overlap_counts(
    const Space& space, const MultispinDevice<typename Space::memory_space>& m,
    const MultispinLadder& ladder,
    const Kokkos::View<const std::uint64_t*, typename Space::memory_space>& spins,
    const Kokkos::View<std::int64_t*, typename Space::memory_space>& disagree,
    const Kokkos::View<std::int64_t*, typename Space::memory_space>& links,
    std::int64_t replica_a = 0, std::int64_t replica_b = 1) {
  Kokkos::parallel_for("hamon::multispin_overlaps",
                       Kokkos::RangePolicy<Space>(space, 0, ladder.n_rungs * ladder.n_groups),
                       detail::MultispinOverlapCounts<typename Space::memory_space>{
                           m.views, ladder, spins, disagree, links, replica_a, replica_b});
}

}  // namespace hamon
