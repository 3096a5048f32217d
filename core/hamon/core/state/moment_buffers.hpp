// SPDX-License-Identifier: Apache-2.0
#pragma once
// The moment accumulator's batch sums in the execution space (moment_accumulator.hpp): what
// a family's observer (families/model_family.hpp) adds the cold chain's round to.

#include <Kokkos_Core.hpp>
#include <cstdint>
#include <string>
#include <tuple>
#include <type_traits>

#include "hamon/core/model/device_model.hpp"
#include "hamon/core/state/observer_options.hpp"
#include "hamon/core/state/sampler_state.hpp"

namespace hamon::detail {

/// One batch-sum view of the accumulator: whether the ranks' copies are shares of a sum
/// (saved summed to rank 0, restored there) or replicas of one value.
template <class View>
struct BatchSums {
  const char* name;
  View& view;
  bool shared_over_ranks;
};

template <class ExecutionSpace>
struct MomentBuffers {
  using memory_space = typename ExecutionSpace::memory_space;
  template <class T>
  using matrix = Kokkos::View<T**, Kokkos::LayoutRight, memory_space>;
  template <class T>
  using vector = Kokkos::View<T*, memory_space>;

  std::int32_t max_batches = 0;    // 2K; 0 when moments are off
  MomentBatchesState layout;       // length, n_batches, in_batch (the vectors stay empty)
  matrix<std::int64_t> node_sums;  // (max_batches, n_nodes), Potts: (.., n_nodes * q)
  matrix<std::int64_t> edge_sums;  // (max_batches, n_edges)
  vector<double> energy_sums;      // per batch
  vector<std::int64_t> abs_magnetization_sums;  // Potts: sums of max_s n_s
  vector<std::int64_t> counts;
  vector<std::int64_t> state_counts;  // several columns per node (Potts: n_s of this
                                      // round's cold chain, q)

  bool on() const { return max_batches > 0; }

  /// The sums in the order (and with the names) of MomentBatchesState::sums.
  template <class Self>
  static auto sums(Self& b) {
    using Node =
        std::conditional_t<std::is_const_v<Self>, const matrix<std::int64_t>, matrix<std::int64_t>>;
    using Energy = std::conditional_t<std::is_const_v<Self>, const vector<double>, vector<double>>;
    using Count =
        std::conditional_t<std::is_const_v<Self>, const vector<std::int64_t>, vector<std::int64_t>>;
    return std::make_tuple(
        BatchSums<Node>{"node_sums", b.node_sums, true},
        BatchSums<Node>{"edge_sums", b.edge_sums, true},
        BatchSums<Energy>{"energy_sums", b.energy_sums, false},
        BatchSums<Count>{"abs_magnetization_sums", b.abs_magnetization_sums, true},
        BatchSums<Count>{"counts", b.counts, false});
  }
};

/// The buffers of `options` for a family with `node_columns` moment columns per node (one
/// for a value per node, q for Potts' state counts).
template <class ExecutionSpace>
MomentBuffers<ExecutionSpace> make_moment_buffers(
    const ExecutionSpace& space, const DeviceModel<typename ExecutionSpace::memory_space>& model,
    const ObserverOptions& options, std::int64_t node_columns) {
  using buffers = MomentBuffers<ExecutionSpace>;
  buffers b;
  if (!options.moments) return b;
  b.max_batches = 2 * options.moment_batches;
  const auto n_edges = options.edge_moments ? model.edge_i.extent(0) : 0;
  // Potts: one column per (node, state), counting the rounds in that state.
  const std::int64_t per_node = node_columns;
  auto alloc = [&space](const char* label) {
    return Kokkos::view_alloc(space, std::string(label));
  };
  b.node_sums = typename buffers::template matrix<std::int64_t>(
      alloc("hamon::node_sums"), b.max_batches, model.n_nodes * per_node);
  if (node_columns > 1) {
    b.state_counts =
        typename buffers::template vector<std::int64_t>(alloc("hamon::state_counts"), node_columns);
  }
  b.edge_sums = typename buffers::template matrix<std::int64_t>(alloc("hamon::edge_sums"),
                                                                b.max_batches, n_edges);
  b.energy_sums =
      typename buffers::template vector<double>(alloc("hamon::energy_sums"), b.max_batches);
  b.abs_magnetization_sums = typename buffers::template vector<std::int64_t>(
      alloc("hamon::abs_magnetization_sums"), b.max_batches);
  b.counts =
      typename buffers::template vector<std::int64_t>(alloc("hamon::moment_counts"), b.max_batches);
  return b;
}

}  // namespace hamon::detail
