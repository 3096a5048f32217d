// SPDX-License-Identifier: Apache-2.0
#pragma once
// The sampler's trace buffer: samples of the cold chain, energies by temperature and the
// index process are written into chunks in the execution space and leave it when a chunk
// is full or the sampler flushes (a checkpoint, result()): to a TraceSink when one is given
// (memory O(chunk)), else into host vectors that result() returns and the state carries.
// Its state is TraceState (row counts, kept rows).
//
// A chunk holds kTraceChunkRows rows at most, and no more than the run plans to write: a
// short run of a large model (3 sample rows of a million nodes) must not hold 4096 rows of
// it. A run continued past its plan doubles the chunk each time one fills, up to the cap.
//
// Over ranks, a rank writes the cold chain's spins only in rounds when it holds that
// machine (zero otherwise); the sample rows are summed over the ranks before rank 0 hands
// them over. The energies and the index process come from replicated views and are the
// same on every rank.

#include <Kokkos_Core.hpp>
#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include "hamon/core/families/energy.hpp"
#include "hamon/core/model/device_model.hpp"
#include "hamon/core/sampler/detail/rank_link.hpp"
#include "hamon/core/sampler/detail/restore_checks.hpp"
#include "hamon/core/sampler/nrpt.hpp"
#include "hamon/core/sampler/sampler.hpp"
#include "hamon/core/state/chain_rows.hpp"
#include "hamon/core/state/chain_state.hpp"
#include "hamon/core/state/sampler_state.hpp"
#include "hamon/core/util/host_copies.hpp"
#include "hamon/core/util/launch.hpp"
#include "hamon/core/util/view_fields.hpp"

namespace hamon::detail {

/// The most rows of a trace chunk in the execution space (memory O(chunk), not O(rounds)).
inline constexpr std::int64_t kTraceChunkRows = 4096;

/// Rows of the first chunk of a trace that the run plans `planned_rows` rows of: at least
/// one (run() may continue past the plan), at most kTraceChunkRows.
inline std::int64_t trace_chunk_rows(std::int64_t planned_rows) {
  return planned_rows < 1 ? 1 : planned_rows < kTraceChunkRows ? planned_rows : kTraceChunkRows;
}

/// The rows a run of `planned_rounds` measured rounds writes to each trace.
struct PlannedTraceRows {
  std::int64_t samples = 0;
  std::int64_t traces = 0;  // energies and the index process: one row per round
};
inline PlannedTraceRows planned_trace_rows(const ObserverOptions& options,
                                           std::int64_t planned_rounds) {
  PlannedTraceRows p;
  if (options.samples_every > 0) p.samples = planned_rounds / options.samples_every;
  if (options.energies || options.index_process) p.traces = planned_rounds;
  return p;
}

template <class ExecutionSpace, class Value = std::int8_t>
struct TraceChunks : TracesOf<Value, ViewsIn<typename ExecutionSpace::memory_space>> {
  using memory_space = typename ExecutionSpace::memory_space;
  // The traces (TracesOf, sampler_state.hpp): samples (chunk, n_sample_nodes), energies
  // (chunk, n_chains) by temperature, index_process (chunk, n_machines): chain of every machine.
  using Traces = TracesOf<Value, ViewsIn<memory_space>>;
  using spliced_bases = std::tuple<Traces>;
  template <class T>
  using matrix = typename ViewsIn<memory_space>::template matrix<T>;

  // samples: every `samples_every` measured rounds, the cold chain at `sample_nodes`
  std::int64_t samples_every = 0;
  Kokkos::View<std::int32_t*, memory_space> sample_nodes;
  // rows of the current chunks (the host knows them; kernels get them as arguments)
  std::int64_t samples_in_chunk = 0;
  std::int64_t traces_in_chunk = 0;
  PlannedTraceRows planned;  // past these the chunks grow (grow_past_plan)

  bool on() const {
    return samples_every > 0 || this->energies.extent(0) > 0 || this->index_process.extent(0) > 0;
  }

  template <class Self>
  static auto fields(Self& c) {
    return std::tuple_cat(
        std::make_tuple(field("samples_every", c.samples_every),
                        field("sample_nodes", c.sample_nodes)),
        Traces::fields(c),
        std::make_tuple(field("samples_in_chunk", c.samples_in_chunk),
                        field("traces_in_chunk", c.traces_in_chunk), field("planned", c.planned)));
  }
};
static_assert(field_list_is_complete<TraceChunks<Kokkos::DefaultHostExecutionSpace>>());

/// The chunks of a run of `planned_rounds` measured rounds (NrptOptions::n_rounds),
/// planned (util/view_fields.hpp): what make_trace_chunks allocates and the memory check
/// counts.
template <class ExecutionSpace, class Value = std::int8_t>
TraceChunks<ExecutionSpace, Value> planned_trace_chunks(
    const DeviceModel<typename ExecutionSpace::memory_space>& model, const ObserverOptions& options,
    std::int32_t n_chains, std::int64_t planned_rounds) {
  TraceChunks<ExecutionSpace, Value> b;
  b.planned = planned_trace_rows(options, planned_rounds);
  const std::int64_t trace_rows = trace_chunk_rows(b.planned.traces);
  if (options.samples_every > 0) {
    b.samples_every = options.samples_every;
    const std::int64_t width = options.sample_nodes.empty()
                                   ? model.n_nodes
                                   : static_cast<std::int64_t>(options.sample_nodes.size());
    plan_unfilled(b.sample_nodes, width);
    plan(b.samples, trace_chunk_rows(b.planned.samples), width);
  }
  if (options.energies) plan(b.energies, trace_rows, n_chains);
  if (options.index_process) plan(b.index_process, trace_rows, n_chains);
  return b;
}

/// The chunks of a run of `planned_rounds` measured rounds, with the sampled nodes.
template <class ExecutionSpace, class Value = std::int8_t>
TraceChunks<ExecutionSpace, Value> make_trace_chunks(
    const ExecutionSpace& space, const DeviceModel<typename ExecutionSpace::memory_space>& model,
    const ObserverOptions& options, std::int32_t n_chains, std::int64_t planned_rounds) {
  auto b = planned_trace_chunks<ExecutionSpace, Value>(model, options, n_chains, planned_rounds);
  allocate_planned(space, b);
  if (options.samples_every > 0) {
    std::vector<std::int32_t> nodes;
    if (options.sample_nodes.empty()) {
      for (std::int64_t i = 0; i < model.n_nodes; ++i)
        nodes.push_back(static_cast<std::int32_t>(i));
    } else {
      for (std::int64_t i : options.sample_nodes) nodes.push_back(static_cast<std::int32_t>(i));
    }
    copy_from_host(space, b.sample_nodes, nodes);
  }
  return b;
}

/// A run past its plan (rows handed out beyond the planned ones) writes into chunks twice
/// as long, up to kTraceChunkRows, so that it flushes as rarely as a long run. Call it with
/// the chunks empty (just flushed): a new chunk replaces the old one.
template <class ExecutionSpace, class Value>
void grow_past_plan(const ExecutionSpace& space, TraceChunks<ExecutionSpace, Value>& b,
                    const TraceStateOf<Value>& handed_out) {
  const auto grow = [&space](auto& chunk, std::int64_t done, std::int64_t planned) {
    using Matrix = std::decay_t<decltype(chunk)>;
    const auto rows = static_cast<std::int64_t>(chunk.extent(0));
    if (rows == 0 || rows >= kTraceChunkRows || done <= planned) return;
    const std::string label = chunk.label();
    const auto columns = static_cast<std::int64_t>(chunk.extent(1));
    chunk = Matrix();  // freed before the larger one is allocated
    chunk = Matrix(Kokkos::view_alloc(space, label), std::min(2 * rows, kTraceChunkRows), columns);
  };
  grow(b.samples, handed_out.samples_rows, b.planned.samples);
  grow(b.energies, handed_out.energy_rows, b.planned.traces);
  grow(b.index_process, handed_out.index_rows, b.planned.traces);
}

/// The trace rows of measured round `r` (0-based). Returns true when a chunk is full (the
/// caller flushes it before the next round).
template <class ExecutionSpace, class Value>
bool record_traces(const ExecutionSpace& space,
                   const DeviceModel<typename ExecutionSpace::memory_space>& model,
                   const ChainState<ExecutionSpace, Value>& state,
                   TraceChunks<ExecutionSpace, Value>& b, std::int64_t r) {
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
          samples(row, k) = m >= 0 ? spins(m, nodes(k)) : Value(0);
        });
    chunk_full = chunk_full || b.samples_in_chunk == static_cast<std::int64_t>(samples.extent(0));
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
    const auto capacity = static_cast<std::int64_t>(
        b.energies.extent(0) > 0 ? b.energies.extent(0) : b.index_process.extent(0));
    chunk_full = chunk_full || b.traces_in_chunk == capacity;
  }
  return chunk_full;
}

/// Sample rows to a sink: one-byte variables (spins, Potts states) as they are stored,
/// continuous models' doubles as doubles; another storage type has no sink (its samples
/// are kept).
template <class T>
void append_samples_to(TraceSink& sink, const T* rows, std::int64_t n_rows, std::int64_t columns) {
  if constexpr (sizeof(T) == 1) {
    sink.append_samples(reinterpret_cast<const std::int8_t*>(rows), n_rows, columns);
  } else if constexpr (std::is_same_v<T, double>) {
    sink.append_real_samples(rows, n_rows, columns);
  } else {
    (void)sink, (void)rows, (void)n_rows, (void)columns;
    throw std::logic_error("trace sinks take one-byte or double variables; keep these samples");
  }
}

/// The host side: where the rows go, and how many have gone.
template <class ExecutionSpace, class Value = std::int8_t>
struct TraceBuffer {
  TraceChunks<ExecutionSpace, Value> chunks;
  TraceSink* sink = nullptr;
  TraceStateOf<Value> kept;  // row counts, and the rows themselves without a sink

  /// Every row written so far leaves the execution space.
  void flush(const ExecutionSpace& space, const RankLink& link) {
    hand_over(space, link, chunks.samples, chunks.samples_in_chunk, kept.samples_rows, kept.samples,
              append_samples_to<Value>, true);
    chunks.samples_in_chunk = 0;
    hand_over(
        space, link, chunks.energies, chunks.energies.extent(0) > 0 ? chunks.traces_in_chunk : 0,
        kept.energy_rows, kept.energies,
        [](TraceSink& to, const double* rows, std::int64_t n, std::int64_t columns) {
          to.append_energies(rows, n, columns);
        },
        false);
    hand_over(
        space, link, chunks.index_process,
        chunks.index_process.extent(0) > 0 ? chunks.traces_in_chunk : 0, kept.index_rows,
        kept.index_process,
        [](TraceSink& to, const std::int32_t* rows, std::int64_t n, std::int64_t columns) {
          to.append_index_process(rows, n, columns);
        },
        false);
    chunks.traces_in_chunk = 0;
  }

  /// Rows [0, rows) of a chunk to the sink or `to`. Over ranks, only rank 0 hands over;
  /// rows of the cold machine (`held`: zero on the ranks without it) come to rank 0 from
  /// the rank that holds it first. Without a sink, the other ranks keep the replicated
  /// traces (energies, index process) as one process would, and no samples.
  template <class T, class Matrix, class Append>
  void hand_over(const ExecutionSpace& space, const RankLink& link, const Matrix& chunk,
                 std::int64_t rows, std::int64_t& counter, std::vector<T>& to, const Append& append,
                 bool held) {
    if (rows == 0) return;
    counter += rows;
    const auto columns = static_cast<std::int64_t>(chunk.extent(1));
    const auto filled = Kokkos::subview(chunk, std::make_pair(std::int64_t(0), rows), Kokkos::ALL);
    const auto host = host_copy(space, filled);
    std::vector<T> block(static_cast<std::size_t>(rows * columns));
    for (std::int64_t r = 0; r < rows; ++r) {
      for (std::int64_t c = 0; c < columns; ++c) {
        block[static_cast<std::size_t>(r * columns + c)] = host(r, c);
      }
    }
    if (held) block = link.from_holder(std::move(block));
    if (!link.is_root() && (sink != nullptr || held)) return;
    if (sink != nullptr) {  // rank 0's
      append(*sink, block.data(), rows, columns);
    } else {
      to.insert(to.end(), block.begin(), block.end());
    }
  }

  /// The row counts and kept rows (after a flush: every row written has left the chunks).
  void save(SamplerStateOf<Value>& s) const { s.traces = kept; }

  /// Takes over a saved TraceState, refusing kept rows that do not match their counts.
  void restore(const TraceStateOf<Value>& t, const RankLink& link, std::int64_t n_chains) {
    const auto sample_columns = static_cast<std::int64_t>(chunks.samples.extent(1));
    if (t.samples_rows < 0 || t.energy_rows < 0 || t.index_rows < 0) {
      state_misfit("negative trace rows");
    }
    if (sink == nullptr && (!holds_rows(t.samples.size(), t.samples_rows, sample_columns) ||
                            !holds_rows(t.energies.size(), t.energy_rows,
                                        chunks.energies.extent(0) > 0 ? n_chains : 0) ||
                            !holds_rows(t.index_process.size(), t.index_rows,
                                        chunks.index_process.extent(0) > 0 ? n_chains : 0))) {
      state_misfit("the kept traces do not match their row counts");
    }
    kept = t;
    if (!link.is_root()) kept.samples.clear();  // rank 0 keeps them
    if (sink != nullptr) {
      kept.samples.clear();
      kept.energies.clear();
      kept.index_process.clear();
    }
  }
};

}  // namespace hamon::detail
