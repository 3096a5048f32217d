// SPDX-License-Identifier: Apache-2.0
#pragma once
// What a Sampler holds in its execution space, counted before it allocates any of it, and
// the check against what that space has: the model's Views (already there), the machines'
// state with the family's decision tables, the trace chunks and the moment sums. A part with
// a field list is counted from the plan its allocation allocates (util/view_fields.hpp), the
// others (the variables, the ladder, the family's tables, the cluster lists) mirror the
// allocations they count (named beside them), each View with Kokkos's rounding and header,
// so the sum is what the sampler allocates (tests/backend/tstMemory.hpp compares it with
// Kokkos's record of the allocations). A space in host memory is checked against
// memory_limit_bytes(); a device's against its free memory, queried where the backend can (Cuda,
// HIP). What the run keeps on the host as it goes (traces without a sink) is validate_options'
// check.

#include <Kokkos_Core.hpp>
#include <cstdint>
#include <string>
#include <type_traits>
#include <vector>

#include "hamon/core/model/device_model.hpp"
#include "hamon/core/sampler/detail/best_states.hpp"
#include "hamon/core/sampler/detail/chain_state_shell.hpp"
#include "hamon/core/sampler/detail/magnetization_accumulator.hpp"
#include "hamon/core/sampler/detail/overlap_accumulator.hpp"
#include "hamon/core/sampler/detail/trace_buffer.hpp"
#include "hamon/core/sampler/machine_exchange.hpp"
#include "hamon/core/sampler/nrpt.hpp"
#include "hamon/core/state/moment_buffers.hpp"
#include "hamon/core/util/memory_limit.hpp"
#include "hamon/core/util/view_fields.hpp"

namespace hamon::detail {

struct SpacePart {
  const char* what;
  double bytes;
};

/// The parts a Sampler of `options` on `model` allocates for machines `block` of
/// `n_chains`, with `node_columns` moment columns per node (ModelFamily::node_columns),
/// variables of type `Value` and the family's tables of `table_bytes`, each View as
/// view_bytes counts it. The parts with a field list are counted from the plans their
/// allocation allocates (util/view_fields.hpp); the plans' types only need the memory space,
/// so they are those of its default execution space.
template <class Value, class MemorySpace>
std::vector<SpacePart> sampler_space_parts(const DeviceModel<MemorySpace>& model,
                                           const NrptOptions& options, std::int32_t n_chains,
                                           MachineBlock block, std::int64_t node_columns,
                                           double table_bytes) {
  using Space = typename MemorySpace::execution_space;
  const auto n = static_cast<double>(n_chains);
  const auto nodes = static_cast<double>(model.n_nodes);
  const auto value = static_cast<double>(sizeof(Value));
  const std::int32_t n_machines = n_chains * options.n_replicas;
  std::vector<SpacePart> parts;
  parts.push_back({"model", view_fields_bytes(model)});  // every allocated View of its list
  // chain_state_shell: the variables of this rank's machines, the ladder and the machine
  // records.
  parts.push_back({"spins", view_bytes(static_cast<double>(block.count) * nodes, value)});
  parts.push_back(
      {"machine records", view_bytes(n, 8) + view_fields_bytes(planned_machine_records<MemorySpace>(
                                                 n_chains, options.n_replicas))});
  parts.push_back({"best states", view_fields_bytes(BestStatesIn<Space, Value>::planned(
                                      n_machines, block.count, model.n_nodes))});
  // The family's decision tables (ModelFamily::table_bytes).
  parts.push_back({"decision tables", table_bytes});
  // state/cluster_scratch.hpp: a node list per rung and replica pair.
  if (options.cluster_moves == ClusterMoves::houdayer) {
    parts.push_back(
        {"cluster lists", view_bytes(n * static_cast<double>(options.n_replicas / 2) * nodes, 4)});
  }
  const ObserverOptions& obs = options.observers;
  parts.push_back({"trace chunks", view_fields_bytes(planned_trace_chunks<Space, Value>(
                                       model, obs, n_chains, options.n_rounds))});
  if (obs.moments) {
    parts.push_back({"moment sums",
                     view_fields_bytes(planned_moment_buffers<Space>(model, obs, node_columns))});
  }
  // With replicas in one process (the sampler leaves them off for real values, which this
  // count does not know: it may count them there).
  const bool overlaps = options.n_replicas >= 2 && block.count == n_machines;
  if (overlaps) {
    parts.push_back({"overlap sums", view_fields_bytes(planned_overlap_buffers<Space>(
                                         model, obs, n_chains, options.n_replicas, true))});
  }
  // The magnetisation per temperature: asked for, in one process (left off for real
  // values, which this count does not know: it may count it there). Potts: q scratch counts
  // per chain (node_columns is q).
  if (obs.magnetization && block.count == n_machines) {
    const auto kind = node_columns > 1 ? MagnetizationKind::potts_max : MagnetizationKind::spin_sum;
    parts.push_back({"magnetization sums", view_fields_bytes(planned_magnetization_buffers<Space>(
                                               obs, kind, n_chains, options.n_replicas,
                                               static_cast<std::int32_t>(node_columns), true))});
  }
  return parts;
}

/// Free bytes in `MemorySpace` when the backend can say (0 otherwise: nothing is refused).
template <class MemorySpace>
double device_free_bytes() {
#if defined(KOKKOS_ENABLE_CUDA)
  if constexpr (std::is_same_v<MemorySpace, Kokkos::CudaSpace>) {
    std::size_t free_bytes = 0, total_bytes = 0;
    return cudaMemGetInfo(&free_bytes, &total_bytes) == cudaSuccess
               ? static_cast<double>(free_bytes)
               : 0.0;
  }
#endif
#if defined(KOKKOS_ENABLE_HIP)
  if constexpr (std::is_same_v<MemorySpace, Kokkos::HIPSpace>) {
    std::size_t free_bytes = 0, total_bytes = 0;
    return hipMemGetInfo(&free_bytes, &total_bytes) == hipSuccess ? static_cast<double>(free_bytes)
                                                                  : 0.0;
  }
#endif
  return 0.0;
}

/// Throws std::invalid_argument, listing the parts, when `parts` do not fit. The model is
/// already allocated: on a device only the rest must fit in what is free.
template <class ExecutionSpace>
void require_space_memory(const std::vector<SpacePart>& parts) {
  using memory_space = typename ExecutionSpace::memory_space;
  double total = 0.0, to_allocate = 0.0;
  std::string detail;
  for (const SpacePart& p : parts) {
    total += p.bytes;
    if (std::string(p.what) != "model") to_allocate += p.bytes;
  }
  for (const SpacePart& p : parts) {
    if (p.bytes >= 0.01 * total) {
      detail += std::string(detail.empty() ? "" : ", ") + p.what + " " + gib_text(p.bytes);
    }
  }
  const std::string advice =
      "record fewer samples or rows, or run fewer chains or a smaller model per process";
  if constexpr (Kokkos::SpaceAccessibility<Kokkos::HostSpace, memory_space>::accessible) {
    require_memory(total, std::string("the sampler in ") + ExecutionSpace::name(), detail, advice);
  } else {
    const double available = device_free_bytes<memory_space>();
    if (available > 0.0 && to_allocate > available) {
      throw std::invalid_argument(std::string("the sampler in ") + ExecutionSpace::name() +
                                  " needs " + gib_text(to_allocate) + " more (" + detail +
                                  ") but the device has " + gib_text(available) +
                                  " free: " + advice);
    }
  }
}

}  // namespace hamon::detail
