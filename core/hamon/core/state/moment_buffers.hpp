// SPDX-License-Identifier: Apache-2.0
#pragma once
// The moment accumulator's batch sums in the execution space (moment_accumulator.hpp): what
// a family's observer (families/model_family.hpp) adds the cold chain's round to. The sums
// are batch_sums.hpp's MomentSums, the saved state's in Views.

#include <Kokkos_Core.hpp>
#include <cstdint>
#include <tuple>

#include "hamon/core/model/device_model.hpp"
#include "hamon/core/state/batch_sums.hpp"
#include "hamon/core/state/observer_options.hpp"
#include "hamon/core/state/sampler_state.hpp"
#include "hamon/core/util/field_list.hpp"
#include "hamon/core/util/view_fields.hpp"

namespace hamon::detail {

template <class ExecutionSpace>
struct MomentBuffers : MomentSums<ViewsIn<typename ExecutionSpace::memory_space>> {
  using memory_space = typename ExecutionSpace::memory_space;
  using Sums = MomentSums<ViewsIn<memory_space>>;
  using spliced_bases = std::tuple<Sums>;
  template <class T>
  using matrix = typename ViewsIn<memory_space>::template matrix<T>;
  template <class T>
  using vector = typename ViewsIn<memory_space>::template vector<T>;

  std::int32_t max_batches = 0;       // 2K; 0 when moments are off
  BatchLayout layout;                 // the rows the sums (Sums: max_batches rows) hold
  vector<std::int64_t> state_counts;  // several columns per node (Potts: n_s of this
                                      // round's cold chain, q)

  bool on() const { return max_batches > 0; }

  template <class Self>
  static auto fields(Self& b) {
    return std::tuple_cat(
        std::make_tuple(field("max_batches", b.max_batches), field("layout", b.layout)),
        Sums::fields(b), std::make_tuple(field("state_counts", b.state_counts)));
  }
};
static_assert(field_list_is_complete<MomentBuffers<Kokkos::DefaultHostExecutionSpace>>());

/// The buffers of `options` for a family with `node_columns` moment columns per node (one
/// for a value per node, q for Potts' state counts), planned (util/view_fields.hpp): what
/// make_moment_buffers allocates and the memory check counts.
template <class ExecutionSpace>
MomentBuffers<ExecutionSpace> planned_moment_buffers(
    const DeviceModel<typename ExecutionSpace::memory_space>& model, const ObserverOptions& options,
    std::int64_t node_columns) {
  MomentBuffers<ExecutionSpace> b;
  if (!options.moments) return b;
  b.max_batches = 2 * options.moment_batches;
  const auto n_edges = options.edge_moments ? model.edge_i.extent(0) : 0;
  // Potts: one column per (node, state), counting the rounds in that state.
  plan(b.node_sums, b.max_batches, model.n_nodes * node_columns);
  plan(b.edge_sums, b.max_batches, n_edges);
  plan(b.energy_sums, b.max_batches);
  plan(b.abs_magnetization_sums, b.max_batches);
  plan(b.counts, b.max_batches);
  if (node_columns > 1) plan(b.state_counts, node_columns);
  return b;
}

template <class ExecutionSpace>
MomentBuffers<ExecutionSpace> make_moment_buffers(
    const ExecutionSpace& space, const DeviceModel<typename ExecutionSpace::memory_space>& model,
    const ObserverOptions& options, std::int64_t node_columns) {
  auto b = planned_moment_buffers<ExecutionSpace>(model, options, node_columns);
  allocate_planned(space, b);
  return b;
}

}  // namespace hamon::detail
