// SPDX-License-Identifier: Apache-2.0
#pragma once
// Houdayer's two-replica cluster move (Houdayer 2001), between the sweeps and the energies
// of a round: at every rung i and replica pair (0, 1), (2, 3), ..., the machines a and b at
// chain i of the two ladders. With the overlap q_j = s_j^a s_j^b, one node is chosen
// uniformly among those with q = -1 (none: no move), the connected cluster of q = -1 nodes
// around it is grown over the model's edges (nonzero couplings), and it is flipped in both
// replicas.
//
// Why it is always accepted. With E(s) = -(sum_j h_j s_j + sum_{j<k} J_jk s_j s_k), split
// E_a + E_b by where the terms lie relative to the cluster C:
//   - a field term of j in C: s_j^b = -s_j^a, so h_j (s_j^a + s_j^b) = 0 before and after;
//   - a bond inside C or outside C: both ends flip or neither, so s_j s_k is unchanged;
//   - a bond (j in C, k not in C) with J_jk != 0: q_k = +1 (else k would be in C), so
//     s_k^a = s_k^b = t and J_jk t (s_j^a + s_j^b) = 0 before and after (clamped nodes hold
//     one value in every replica: q = +1, never in C).
// So E_a + E_b, and the weight exp(-beta (E_a + E_b)) of the pair at one beta, is conserved.
// The move keeps q (both spins of a cluster node flip), so the reverse move sees the same
// q = -1 nodes and picks the same cluster with the same probability |C| / K: detailed
// balance with acceptance 1. The energies are recomputed by the family's energy pass after
// the move (exact: fixed point).
//
// The choice of node is word 0 of Philox at counter (rung, replica pair, cluster stream,
// round), scaled to [0, K) by a multiply-high: every space and thread count picks the same
// node (the scaling's bias is below K / 2^32). One work item per (rung, pair) grows the
// cluster depth-first with a list of its nodes in a preallocated row of `scratch`: marking
// a visited node by flipping it in replica a (its q becomes +1), then replica b's spins at
// the listed nodes at the end.

#include <Kokkos_Core.hpp>
#include <cstdint>
#include <string>

#include "hamon/core/model/device_model.hpp"
#include "hamon/core/state/chain_state.hpp"
#include "hamon/core/state/cluster_scratch.hpp"
#include "hamon/core/util/counter_rng.hpp"
#include "hamon/core/util/launch.hpp"

namespace hamon::detail {

/// Flips the q = -1 cluster around `start` in machines a and b of `spins` (rows; Views or
/// anything indexed (machine, node)), listing its nodes in `list` (indexed 0 .. n_nodes-1).
/// Returns the cluster's size. `start` must have q = -1.
template <class Spins, class Offsets, class Columns, class Couplings, class List>
KOKKOS_INLINE_FUNCTION std::int64_t flip_houdayer_cluster(const Spins& spins, std::int32_t a,
                                                          std::int32_t b, std::int64_t start,
                                                          const Offsets& row_offsets,
                                                          const Columns& columns,
                                                          const Couplings& couplings,
                                                          const List& list) {
  std::int64_t size = 0;
  list(size++) = static_cast<std::int32_t>(start);
  spins(a, start) = static_cast<std::int8_t>(-spins(a, start));
  for (std::int64_t head = 0; head < size; ++head) {
    const std::int64_t j = list(head);
    for (std::int64_t e = row_offsets(j); e < row_offsets(j + 1); ++e) {
      const std::int64_t k = columns(e);
      if (couplings(e) != 0.0 && spins(a, k) != spins(b, k)) {
        spins(a, k) = static_cast<std::int8_t>(-spins(a, k));
        list(size++) = static_cast<std::int32_t>(k);
      }
    }
  }
  for (std::int64_t t = 0; t < size; ++t) {
    const std::int64_t j = list(t);
    spins(b, j) = static_cast<std::int8_t>(-spins(b, j));
  }
  return size;
}

/// Node index `pick` (0-based) among the nodes where machines a and b differ, or -1 when
/// there are not that many.
template <class Spins>
KOKKOS_INLINE_FUNCTION std::int64_t nth_differing_node(const Spins& spins, std::int32_t a,
                                                       std::int32_t b, std::int64_t n_nodes,
                                                       std::int64_t pick) {
  for (std::int64_t j = 0; j < n_nodes; ++j) {
    if (spins(a, j) != spins(b, j) && pick-- == 0) return j;
  }
  return -1;
}

/// One work item per (rung, replica pair): item p is rung p mod n_chains of pair
/// p / n_chains.
template <class MemorySpace>
struct HoudayerMoves {
  Kokkos::View<std::int8_t**, Kokkos::LayoutLeft, MemorySpace> spins;
  Kokkos::View<std::int32_t*, MemorySpace> machine_of_chain;
  Kokkos::View<std::int64_t*, MemorySpace> row_offsets;
  Kokkos::View<std::int32_t*, MemorySpace> columns;
  Kokkos::View<double*, MemorySpace> couplings;
  Kokkos::View<std::int32_t**, Kokkos::LayoutRight, MemorySpace> scratch;
  std::uint64_t seed;
  std::uint32_t round;
  std::int32_t n_chains;
  std::int64_t n_nodes;

  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t p) const {
    const auto rung = static_cast<std::int32_t>(p % n_chains);
    const auto pair = static_cast<std::int32_t>(p / n_chains);
    const std::int32_t a = machine_of_chain((2 * pair) * n_chains + rung);
    const std::int32_t b = machine_of_chain((2 * pair + 1) * n_chains + rung);
    std::int64_t differing = 0;
    for (std::int64_t j = 0; j < n_nodes; ++j) differing += spins(a, j) != spins(b, j) ? 1 : 0;
    if (differing == 0) return;
    const std::uint32_t word =
        philox4(seed, static_cast<std::uint32_t>(rung), static_cast<std::uint32_t>(pair),
                static_cast<std::uint32_t>(Stream::cluster), round)
            .w[0];
    const auto pick = static_cast<std::int64_t>(
        (static_cast<std::uint64_t>(word) * static_cast<std::uint64_t>(differing)) >> 32);
    const std::int64_t start = nth_differing_node(spins, a, b, n_nodes, pick);
    const auto list = Kokkos::subview(scratch, p, Kokkos::ALL);
    flip_houdayer_cluster(spins, a, b, start, row_offsets, columns, couplings, list);
  }
};

/// Houdayer moves of `round` at every rung of every replica pair of `state` (one process
/// holding every machine; spin models).
template <class ExecutionSpace>
void houdayer_moves(const ExecutionSpace& space,
                    const DeviceModel<typename ExecutionSpace::memory_space>& model,
                    const ChainState<ExecutionSpace>& state,
                    const ClusterScratch<ExecutionSpace>& scratch, std::uint64_t seed,
                    std::uint32_t round) {
  using memory_space = typename ExecutionSpace::memory_space;
  const auto n_chains = static_cast<std::int32_t>(state.betas.extent(0));
  const auto items = static_cast<std::int64_t>(scratch.extent(0));
  if (items == 0 || n_chains == 0) return;
  const HoudayerMoves<memory_space> moves{state.spins,
                                          state.machine_of_chain,
                                          model.row_offsets,
                                          model.columns,
                                          model.couplings,
                                          scratch,
                                          seed,
                                          round,
                                          n_chains,
                                          model.n_nodes};
  // Each item reads every node at least twice and walks a cluster's edges.
  launch(space, "hamon::houdayer", items, items * 2 * model.n_nodes, moves);
}

}  // namespace hamon::detail
