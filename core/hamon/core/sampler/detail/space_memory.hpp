// SPDX-License-Identifier: Apache-2.0
#pragma once
// What a Sampler holds in its execution space, counted before it allocates any of it, and
// the check against what that space has: the model's Views (already there), the machines'
// state with the family's decision tables, the trace chunks and the moment sums. Each part
// mirrors the allocations it counts (named beside it), each View with Kokkos's rounding and
// header, so the sum is what the sampler allocates (tests/backend/tstMemory.hpp compares it
// with Kokkos's record of the allocations). A space in host memory is checked against
// memory_limit_bytes(); a device's against its free memory, queried where the backend can (Cuda,
// HIP). What the run keeps on the host as it goes (traces without a sink) is validate_options'
// check.

#include <Kokkos_Core.hpp>
#include <cmath>
#include <cstdint>
#include <string>
#include <type_traits>
#include <vector>

#include "hamon/core/model/device_model.hpp"
#include "hamon/core/sampler/detail/trace_buffer.hpp"
#include "hamon/core/sampler/machine_exchange.hpp"
#include "hamon/core/sampler/nrpt.hpp"
#include "hamon/core/util/memory_limit.hpp"
#include "hamon/core/util/view_bytes.hpp"

namespace hamon::detail {

struct SpacePart {
  const char* what;
  double bytes;
};

/// The bytes of every allocated View of `model` (the structured binding names every member,
/// so a new View is a compile error here until it is counted).
template <class MemorySpace>
double device_model_bytes(const DeviceModel<MemorySpace>& model) {
  const auto& [row_offsets, columns, couplings, fields, clamped, block_nodes, edge_i, edge_j,
               block_offsets, n_nodes, n_free, energy_fraction_bits, integer_field_bound,
               fingerprint, n_states, state_fields, csr_matrices, clamp_state, continuous_kind,
               node_weights, annealed, lattice, periodic_extents] = model;
  (void)block_offsets, (void)n_nodes, (void)n_free, (void)energy_fraction_bits;
  (void)periodic_extents;  // on the host
  (void)integer_field_bound, (void)fingerprint, (void)n_states, (void)continuous_kind,
      (void)annealed;
  double bytes = 0.0;
  const auto add = [&bytes](const auto& view) {
    using T = typename std::decay_t<decltype(view)>::value_type;
    if (view.data() == nullptr) return;  // a member this model does not use
    bytes += view_bytes(static_cast<double>(view.span()), static_cast<double>(sizeof(T)));
  };
  add(row_offsets), add(columns), add(couplings), add(fields), add(clamped), add(block_nodes);
  add(edge_i), add(edge_j), add(state_fields), add(csr_matrices), add(clamp_state);
  add(node_weights);
  add(lattice.coupling_up), add(lattice.field);
  return bytes;
}

/// The parts a Sampler of `options` on `model` allocates for machines `block` of
/// `n_chains`, with `node_columns` moment columns per node (ModelFamily::node_columns),
/// variables of `value_bytes` bytes and the family's tables of `table_bytes`, each View as
/// view_bytes counts it.
template <class MemorySpace>
std::vector<SpacePart> sampler_space_parts(const DeviceModel<MemorySpace>& model,
                                           const NrptOptions& options, std::int32_t n_chains,
                                           MachineBlock block, std::int64_t node_columns,
                                           std::int64_t value_bytes, double table_bytes) {
  const auto n = static_cast<double>(n_chains);
  const auto nodes = static_cast<double>(model.n_nodes);
  const auto value = static_cast<double>(value_bytes);
  std::vector<SpacePart> parts;
  parts.push_back({"model", device_model_bytes(model)});
  // chain_state_shell: the spins of this rank's machines, the ladder and the machine
  // records (betas, both permutations, energies, round trips, restarts, trip phases, and
  // per pair the attempted and accepted swaps).
  parts.push_back({"spins", view_bytes(static_cast<double>(block.count) * nodes, value)});
  const double pairs = n_chains > 1 ? n - 1 : 0.0;
  const double machines = n * static_cast<double>(options.n_replicas);
  parts.push_back({"machine records", view_bytes(n, 8) + 2 * view_bytes(machines, 4) +
                                          3 * view_bytes(machines, 8) + view_bytes(machines, 1) +
                                          2 * view_bytes(pairs, 8)});
  // The best states (best_states.hpp): per machine energy, round, chain, beta and round
  // trips, a flag for the round, the round's count of improved local machines, and a copy of
  // the local machines' variables.
  parts.push_back({"best states", 4 * view_bytes(machines, 8) + view_bytes(machines, 4) +
                                      view_bytes(machines, 1) + view_bytes(1, 8) +
                                      view_bytes(static_cast<double>(block.count) * nodes, value)});
  // The family's decision tables (ModelFamily::table_bytes).
  parts.push_back({"decision tables", table_bytes});
  // state/cluster_scratch.hpp: a node list per rung and replica pair.
  if (options.cluster_moves == ClusterMoves::houdayer) {
    parts.push_back(
        {"cluster lists", view_bytes(n * static_cast<double>(options.n_replicas / 2) * nodes, 4)});
  }
  // make_trace_chunks
  const ObserverOptions& obs = options.observers;
  const PlannedTraceRows planned = planned_trace_rows(obs, options.n_rounds);
  double traces = 0.0;
  if (obs.samples_every > 0) {
    const double width =
        obs.sample_nodes.empty() ? nodes : static_cast<double>(obs.sample_nodes.size());
    traces += view_bytes(width, 4) +
              view_bytes(static_cast<double>(trace_chunk_rows(planned.samples)) * width, value);
  }
  const auto trace_rows = static_cast<double>(trace_chunk_rows(planned.traces));
  if (obs.energies) traces += view_bytes(trace_rows * n, 8);
  if (obs.index_process) traces += view_bytes(trace_rows * n, 4);
  parts.push_back({"trace chunks", traces});
  // make_moment_buffers: node and edge sums per batch, three sums per batch, and with
  // several columns per node (Potts) the round's state counts.
  if (obs.moments) {
    const double batches = 2.0 * static_cast<double>(obs.moment_batches);
    const double edges = obs.edge_moments ? static_cast<double>(model.edge_i.extent(0)) : 0.0;
    const auto columns = static_cast<double>(node_columns);
    parts.push_back({"moment sums", view_bytes(batches * nodes * columns, 8) +
                                        view_bytes(batches * edges, 8) +
                                        3 * view_bytes(batches, 8) +
                                        (node_columns > 1 ? view_bytes(columns, 8) : 0.0)});
  }
  // make_overlap_buffers (with replicas in one process): five sums per batch and chain, the
  // counts, the histograms and the lattice's phase tables.
  if (options.n_replicas >= 2 && static_cast<double>(block.count) == machines) {
    const double batches = 2.0 * static_cast<double>(obs.moment_batches);
    const double dims = fourier_directions(model);
    parts.push_back({"overlap sums", 5 * view_bytes(batches * n, 8) + view_bytes(batches, 8) +
                                         view_bytes(n * static_cast<double>(model.n_free + 1), 8) +
                                         2 * view_bytes(dims * nodes, 8)});
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
