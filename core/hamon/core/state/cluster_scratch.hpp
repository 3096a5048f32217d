// SPDX-License-Identifier: Apache-2.0
#pragma once
// The scratch lists of the cluster moves (NrptOptions::cluster_moves; a family's
// cluster_move, families/family_concept.hpp): one list of node indices per (rung, replica
// pair), derived, never saved.

#include <Kokkos_Core.hpp>
#include <cstdint>
#include <string>

namespace hamon::detail {

template <class ExecutionSpace>
using ClusterScratch =
    Kokkos::View<std::int32_t**, Kokkos::LayoutRight, typename ExecutionSpace::memory_space>;

/// One list of n_nodes per (rung, replica pair).
template <class ExecutionSpace>
ClusterScratch<ExecutionSpace> make_cluster_scratch(const ExecutionSpace& space,
                                                    std::int32_t n_chains, std::int32_t n_replicas,
                                                    std::int64_t n_nodes) {
  return ClusterScratch<ExecutionSpace>(
      Kokkos::view_alloc(space, Kokkos::WithoutInitializing, std::string("hamon::houdayer_list")),
      static_cast<std::int64_t>(n_chains) * (n_replicas / 2), n_nodes);
}

}  // namespace hamon::detail
