// SPDX-License-Identifier: Apache-2.0
#pragma once
// Device-side observers of the cold chain and the ladder, with memory that does not grow
// with the run:
// - traces (samples, energies by temperature, the index process) are written into chunks
//   of kTraceChunkRows rows in the execution space and leave it when a chunk is full or
//   the sampler flushes (a checkpoint, result());
// - moments are summed in batches of `length` measured rounds, at most 2K batches
//   (K = ObserverOptions::moment_batches): when all 2K are full, neighbours are merged and
//   the length doubles. The batches after m measured rounds depend on m alone, never on how
//   the run was split into run() calls, so a resumed run gives the same bits.
// Sums of spins are integers (exact in any order); the energy sum is accumulated by one
// thread in round order and merged pairwise in a fixed order, so all of it is
// bit-identical across spaces.
// A state that holds a block of the machines only (a run over ranks, ChainState) adds the
// cold chain's spins (samples, node/edge sums, |magnetisation|) only in rounds when it holds
// that machine, zero otherwise, so the ranks' buffers sum to the one-process buffers; the
// energies, the index process and the energy sums come from the replicated views and are
// the same on every rank.

#include <Kokkos_Core.hpp>
#include <cstdint>
#include <string>
#include <vector>

#include "hamon/core/chain_state.hpp"
#include "hamon/core/device_model.hpp"
#include "hamon/core/energy.hpp"
#include "hamon/core/impl/launch.hpp"
#include "hamon/core/impl/potts_update.hpp"
#include "hamon/core/nrpt.hpp"
#include "hamon/core/sampler_state.hpp"

namespace hamon::detail {

/// Rows of a trace chunk in the execution space (memory O(chunk), not O(rounds)).
inline constexpr std::int64_t kTraceChunkRows = 4096;

template <class ExecutionSpace>
struct ObserverBuffers {
  using memory_space = typename ExecutionSpace::memory_space;
  template <class T>
  using matrix = Kokkos::View<T**, Kokkos::LayoutRight, memory_space>;
  template <class T>
  using vector = Kokkos::View<T*, memory_space>;

  // samples: every `samples_every` measured rounds, the cold chain at `sample_nodes`
  std::int64_t samples_every = 0;
  vector<std::int32_t> sample_nodes;
  matrix<std::int8_t> samples;         // (chunk, n_sample_nodes)
  matrix<double> energies;             // (chunk, n_chains), by temperature
  matrix<std::int32_t> index_process;  // (chunk, n_machines): chain of every machine
  // rows of the current chunks (the host knows them; kernels get them as arguments)
  std::int64_t samples_in_chunk = 0;
  std::int64_t traces_in_chunk = 0;

  // moments: batches (rows) of the cold chain's sums
  std::int32_t max_batches = 0;    // 2K; 0 when moments are off
  MomentBatchesState layout;       // length, n_batches, in_batch (the vectors stay empty)
  matrix<std::int64_t> node_sums;  // (max_batches, n_nodes)
  matrix<std::int64_t> edge_sums;  // (max_batches, n_edges)
  vector<double> energy_sums;      // per batch
  vector<std::int64_t> abs_magnetization_sums;  // Potts: sums of max_s n_s
  vector<std::int64_t> counts;
  vector<std::int64_t> state_counts;  // Potts: n_s of this round's cold chain (q)

  bool any() const {
    return samples_every > 0 || energies.extent(0) > 0 || index_process.extent(0) > 0 ||
           max_batches > 0;
  }
};

template <class ExecutionSpace>
ObserverBuffers<ExecutionSpace> make_observer_buffers(
    const ExecutionSpace& space, const DeviceModel<typename ExecutionSpace::memory_space>& model,
    const ObserverOptions& options, std::int32_t n_chains) {
  using buffers = ObserverBuffers<ExecutionSpace>;
  buffers b;
  if (options.samples_every > 0) {
    b.samples_every = options.samples_every;
    std::vector<std::int32_t> nodes;
    if (options.sample_nodes.empty()) {
      for (std::int64_t i = 0; i < model.n_nodes; ++i)
        nodes.push_back(static_cast<std::int32_t>(i));
    } else {
      for (std::int64_t i : options.sample_nodes) nodes.push_back(static_cast<std::int32_t>(i));
    }
    b.sample_nodes = to_view(space, nodes, "hamon::sample_nodes");
    b.samples = typename buffers::template matrix<std::int8_t>(
        Kokkos::view_alloc(space, std::string("hamon::samples_chunk")), kTraceChunkRows,
        nodes.size());
  }
  if (options.energies) {
    b.energies = typename buffers::template matrix<double>(
        Kokkos::view_alloc(space, std::string("hamon::energy_chunk")), kTraceChunkRows, n_chains);
  }
  if (options.index_process) {
    b.index_process = typename buffers::template matrix<std::int32_t>(
        Kokkos::view_alloc(space, std::string("hamon::index_chunk")), kTraceChunkRows, n_chains);
  }
  if (options.moments) {
    b.max_batches = 2 * options.moment_batches;
    const auto n_edges = options.edge_moments ? model.edge_i.extent(0) : 0;
    // Potts: one column per (node, state), counting the rounds in that state.
    const std::int64_t per_node = model.n_states > 0 ? model.n_states : 1;
    b.node_sums = typename buffers::template matrix<std::int64_t>(
        Kokkos::view_alloc(space, std::string("hamon::node_sums")), b.max_batches,
        model.n_nodes * per_node);
    if (model.n_states > 0) {
      b.state_counts = typename buffers::template vector<std::int64_t>(
          Kokkos::view_alloc(space, std::string("hamon::state_counts")), model.n_states);
    }
    b.edge_sums = typename buffers::template matrix<std::int64_t>(
        Kokkos::view_alloc(space, std::string("hamon::edge_sums")), b.max_batches, n_edges);
    b.energy_sums = typename buffers::template vector<double>(
        Kokkos::view_alloc(space, std::string("hamon::energy_sums")), b.max_batches);
    b.abs_magnetization_sums = typename buffers::template vector<std::int64_t>(
        Kokkos::view_alloc(space, std::string("hamon::abs_magnetization_sums")), b.max_batches);
    b.counts = typename buffers::template vector<std::int64_t>(
        Kokkos::view_alloc(space, std::string("hamon::moment_counts")), b.max_batches);
  }
  return b;
}

/// The row of `machine` in a state's spins, or -1 when the state does not hold it.
KOKKOS_INLINE_FUNCTION std::int32_t local_row(std::int32_t machine, std::int32_t first,
                                              std::int32_t n_local) {
  const std::int32_t row = machine - first;
  return row >= 0 && row < n_local ? row : -1;
}

/// accumulate_moments for a Potts model: state counts per node, edge agreements, and
/// max_s n_s for the order parameter.
template <class ExecutionSpace>
void accumulate_potts_moments(const ExecutionSpace& space,
                              const DeviceModel<typename ExecutionSpace::memory_space>& model,
                              const ChainState<ExecutionSpace>& state,
                              const ObserverBuffers<ExecutionSpace>& b, std::int64_t batch) {
  const std::int32_t top = static_cast<std::int32_t>(state.betas.extent(0)) - 1;
  const auto machine_of_chain = state.machine_of_chain;
  const auto spins = state.spins;
  const auto node_sums = b.node_sums;
  const auto edge_sums = b.edge_sums;
  const auto edge_i = model.edge_i;
  const auto edge_j = model.edge_j;
  const auto state_counts = b.state_counts;
  const std::int32_t first = state.first_machine;
  const std::int32_t n_local = state.n_local_machines();
  const std::int32_t q = model.n_states;
  small_for(
      space, "hamon::clear_state_counts", q,
      KOKKOS_LAMBDA(const std::int64_t s) { state_counts(s) = 0; });
  launch(
      space, "hamon::observe_potts_nodes", model.n_nodes, model.n_nodes,
      KOKKOS_LAMBDA(const std::int64_t i) {
        const std::int32_t m = local_row(machine_of_chain(top), first, n_local);
        if (m < 0) return;
        const std::int32_t x = potts_state(spins(m, i));
        node_sums(batch, i * q + x) += 1;
        Kokkos::atomic_add(&state_counts(x), std::int64_t(1));
      });
  const auto n_edges = static_cast<std::int64_t>(edge_sums.extent(1));
  launch(
      space, "hamon::observe_potts_edges", n_edges, n_edges, KOKKOS_LAMBDA(const std::int64_t e) {
        const std::int32_t m = local_row(machine_of_chain(top), first, n_local);
        if (m >= 0 && spins(m, edge_i(e)) == spins(m, edge_j(e))) edge_sums(batch, e) += 1;
      });
  const auto energy_sums = b.energy_sums;
  const auto largest = b.abs_magnetization_sums;
  const auto counts = b.counts;
  const auto energy_fixed = state.energy_fixed;
  const int bits = model.energy_fraction_bits;
  small_for(
      space, "hamon::observe_potts_scalars", 1, KOKKOS_LAMBDA(const std::int64_t) {
        std::int64_t most = 0;
        for (std::int32_t s = 0; s < q; ++s) most = state_counts(s) > most ? state_counts(s) : most;
        energy_sums(batch) += fixed_point_energy(energy_fixed(machine_of_chain(top)), bits);
        largest(batch) += most;
        counts(batch) += 1;
      });
}

/// Adds the cold chain's moments of this round to batch `batch`.
template <class ExecutionSpace>
void accumulate_moments(const ExecutionSpace& space,
                        const DeviceModel<typename ExecutionSpace::memory_space>& model,
                        const ChainState<ExecutionSpace>& state,
                        const ObserverBuffers<ExecutionSpace>& b, std::int64_t batch) {
  if (model.n_states > 0) {
    accumulate_potts_moments(space, model, state, b, batch);
    return;
  }
  const std::int32_t top = static_cast<std::int32_t>(state.betas.extent(0)) - 1;
  const auto machine_of_chain = state.machine_of_chain;
  const auto spins = state.spins;
  const auto node_sums = b.node_sums;
  const auto edge_sums = b.edge_sums;
  const auto edge_i = model.edge_i;
  const auto edge_j = model.edge_j;
  const std::int32_t first = state.first_machine;
  const std::int32_t n_local = state.n_local_machines();
  launch(
      space, "hamon::observe_node_moments", model.n_nodes, model.n_nodes,
      KOKKOS_LAMBDA(const std::int64_t i) {
        const std::int32_t m = local_row(machine_of_chain(top), first, n_local);
        if (m >= 0) node_sums(batch, i) += spins(m, i);
      });
  const auto n_edges = static_cast<std::int64_t>(edge_sums.extent(1));
  launch(
      space, "hamon::observe_edge_moments", n_edges, n_edges, KOKKOS_LAMBDA(const std::int64_t e) {
        const std::int32_t m = local_row(machine_of_chain(top), first, n_local);
        if (m >= 0) edge_sums(batch, e) += spins(m, edge_i(e)) * spins(m, edge_j(e));
      });
  const auto energy_sums = b.energy_sums;
  const auto abs_m = b.abs_magnetization_sums;
  const auto counts = b.counts;
  const auto energy_fixed = state.energy_fixed;
  const int bits = model.energy_fraction_bits;
  const std::int64_t n_nodes = model.n_nodes;
  if constexpr (host_style<ExecutionSpace>) {
    if (n_nodes < kInlineHostWork) {
      // Small model: on the calling thread (launch.hpp), same sums.
      Kokkos::Profiling::pushRegion("hamon::observe_scalar_moments");
      const std::int32_t cold = machine_of_chain(top);
      const std::int32_t m = local_row(cold, first, n_local);
      std::int64_t magnetization = 0;
      if (m >= 0) {
        for (std::int64_t i = 0; i < n_nodes; ++i) magnetization += spins(m, i);
      }
      energy_sums(batch) += fixed_point_energy(energy_fixed(cold), bits);
      abs_m(batch) += magnetization < 0 ? -magnetization : magnetization;
      counts(batch) += 1;
      Kokkos::Profiling::popRegion();
      return;
    }
  }
  using team_policy = Kokkos::TeamPolicy<ExecutionSpace>;
  Kokkos::parallel_for(
      "hamon::observe_scalar_moments", team_policy(space, 1, Kokkos::AUTO),
      KOKKOS_LAMBDA(const typename team_policy::member_type& team) {
        const std::int32_t cold = machine_of_chain(top);
        const std::int32_t m = local_row(cold, first, n_local);
        std::int64_t magnetization = 0;
        Kokkos::parallel_reduce(
            Kokkos::TeamThreadRange(team, m >= 0 ? n_nodes : 0),
            [&](const std::int64_t i, std::int64_t& sum) { sum += spins(m, i); }, magnetization);
        Kokkos::single(Kokkos::PerTeam(team), [&]() {
          energy_sums(batch) += fixed_point_energy(energy_fixed(cold), bits);
          abs_m(batch) += magnetization < 0 ? -magnetization : magnetization;
          counts(batch) += 1;
        });
      });
}

/// Rows 2k and 2k+1 of `sums` become row k (k < half), the rows from `half` on are zeroed:
/// column by column, each column's batches merged in place, in batch order.
template <class ExecutionSpace, class Matrix>
void merge_batch_rows(const ExecutionSpace& space, const char* label, const Matrix& sums,
                      std::int64_t half) {
  const auto n_columns = static_cast<std::int64_t>(sums.extent(1));
  launch(
      space, label, n_columns, n_columns * half, KOKKOS_LAMBDA(const std::int64_t i) {
        for (std::int64_t k = 0; k < half; ++k) sums(k, i) = sums(2 * k, i) + sums(2 * k + 1, i);
        for (std::int64_t k = half; k < 2 * half; ++k) sums(k, i) = 0;
      });
}

/// All 2K batches are full: batch k becomes batches 2k + 2k+1 (k < K), the rest is zeroed.
template <class ExecutionSpace>
void merge_moment_batches(const ExecutionSpace& space, const ObserverBuffers<ExecutionSpace>& b) {
  const std::int64_t half = b.max_batches / 2;
  merge_batch_rows(space, "hamon::merge_node_batches", b.node_sums, half);
  merge_batch_rows(space, "hamon::merge_edge_batches", b.edge_sums, half);
  const auto energy_sums = b.energy_sums;
  const auto abs_m = b.abs_magnetization_sums;
  const auto counts = b.counts;
  small_for(
      space, "hamon::merge_scalar_batches", 1, KOKKOS_LAMBDA(const std::int64_t) {
        for (std::int64_t k = 0; k < half; ++k) {
          energy_sums(k) = energy_sums(2 * k) + energy_sums(2 * k + 1);
          abs_m(k) = abs_m(2 * k) + abs_m(2 * k + 1);
          counts(k) = counts(2 * k) + counts(2 * k + 1);
        }
        for (std::int64_t k = half; k < 2 * half; ++k) {
          energy_sums(k) = 0.0;
          abs_m(k) = 0;
          counts(k) = 0;
        }
      });
}

/// Everything the observers record after measured round `r` (0-based). Returns true when
/// a trace chunk is full (the caller flushes it before the next round).
template <class ExecutionSpace>
bool observe_round(const ExecutionSpace& space,
                   const DeviceModel<typename ExecutionSpace::memory_space>& model,
                   const ChainState<ExecutionSpace>& state, ObserverBuffers<ExecutionSpace>& b,
                   std::int64_t r) {
  const std::int32_t top = static_cast<std::int32_t>(state.betas.extent(0)) - 1;
  const auto machine_of_chain = state.machine_of_chain;
  const auto spins = state.spins;
  bool chunk_full = false;
  if (b.samples_every > 0 && (r + 1) % b.samples_every == 0) {
    const std::int64_t row = b.samples_in_chunk++;
    const auto samples = b.samples;
    const auto nodes = b.sample_nodes;
    const auto n_samples = static_cast<std::int64_t>(nodes.extent(0));
    const std::int32_t first = state.first_machine;
    const std::int32_t n_local = state.n_local_machines();
    launch(
        space, "hamon::observe_samples", n_samples, n_samples, KOKKOS_LAMBDA(const std::int64_t k) {
          const std::int32_t m = local_row(machine_of_chain(top), first, n_local);
          samples(row, k) = m >= 0 ? spins(m, nodes(k)) : std::int8_t(0);
        });
    chunk_full = chunk_full || b.samples_in_chunk == kTraceChunkRows;
  }
  if (b.energies.extent(0) > 0 || b.index_process.extent(0) > 0) {
    const std::int64_t row = b.traces_in_chunk++;
    if (b.energies.extent(0) > 0) {
      const auto energies = b.energies;
      const auto energy_fixed = state.energy_fixed;
      const int bits = model.energy_fraction_bits;
      small_for(
          space, "hamon::observe_energies", top + 1, KOKKOS_LAMBDA(const std::int64_t c) {
            energies(row, c) = fixed_point_energy(energy_fixed(machine_of_chain(c)), bits);
          });
    }
    if (b.index_process.extent(0) > 0) {
      const auto trace = b.index_process;
      const auto chain_of_machine = state.chain_of_machine;
      small_for(
          space, "hamon::observe_index_process", top + 1,
          KOKKOS_LAMBDA(const std::int64_t m) { trace(row, m) = chain_of_machine(m); });
    }
    chunk_full = chunk_full || b.traces_in_chunk == kTraceChunkRows;
  }
  if (b.max_batches > 0) {
    MomentBatchesState& at = b.layout;
    accumulate_moments(space, model, state, b, at.n_batches);
    if (++at.in_batch == at.length) {
      at.in_batch = 0;
      if (++at.n_batches == b.max_batches) {
        merge_moment_batches(space, b);
        at.n_batches = b.max_batches / 2;
        at.length *= 2;
      }
    }
  }
  return chunk_full;
}

}  // namespace hamon::detail
