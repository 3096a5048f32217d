// SPDX-License-Identifier: Apache-2.0
#pragma once
// A model from an application's own Views, for programs that embed hamon and already hold
// their couplings in an execution space (docs/embedding.md).

#include <Kokkos_Core.hpp>
#include <cstdint>
#include <string>
#include <vector>

#include "hamon/core/model/spin_model.hpp"
#include "hamon/core/util/host_copies.hpp"

namespace hamon {

/// The Ising model over `n_nodes` spins whose edge e joins edge_i(e) and edge_j(e) with the
/// coupling couplings(e), and whose node i has the field fields(i) (an empty View: no
/// fields). The Views are 1-D, of any memory space and of integer (ends) and floating
/// (values) types. They are read after a copy enqueued on `space`, which waits for `space`
/// only: the kernels that filled them must have run on `space` or have been fenced.
/// Validation, duplicate merging and the colouring are SpinModel::from_edges's (errors are
/// ModelError, as are Views of unequal lengths). make_device_model(space, model) or a
/// Sampler built from the result puts the model in the execution space; the application's
/// Views are not kept.
template <class ExecutionSpace, class EndView, class CouplingView, class FieldView>
SpinModel spin_model_from_views(const ExecutionSpace& space, std::int64_t n_nodes,
                                const EndView& edge_i, const EndView& edge_j,
                                const CouplingView& couplings, const FieldView& fields) {
  static_assert(EndView::rank == 1 && CouplingView::rank == 1 && FieldView::rank == 1,
                "spin_model_from_views takes 1-D Views");
  if (edge_i.extent(0) != edge_j.extent(0) || edge_i.extent(0) != couplings.extent(0)) {
    throw ModelError("spin_model_from_views: edge_i, edge_j and couplings have " +
                     std::to_string(edge_i.extent(0)) + ", " + std::to_string(edge_j.extent(0)) +
                     " and " + std::to_string(couplings.extent(0)) + " entries");
  }
  const auto i = detail::to_host_vector<std::int64_t>(space, edge_i);
  const auto j = detail::to_host_vector<std::int64_t>(space, edge_j);
  const auto J = detail::to_host_vector<double>(space, couplings);
  std::vector<Edge> edges(i.size());
  for (std::size_t e = 0; e < edges.size(); ++e) edges[e] = Edge{i[e], j[e], J[e]};
  return SpinModel::from_edges(n_nodes, edges, detail::to_host_vector<double>(space, fields));
}

}  // namespace hamon
