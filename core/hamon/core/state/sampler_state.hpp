// SPDX-License-Identifier: Apache-2.0
#pragma once
// Everything a Sampler needs to continue exactly where it stopped, on the host, in a form
// that does not depend on the execution space, thread count or memory layout that produced
// it: the variables machine-major (spins[m * n_nodes + i], of the variable kind's storage
// type, variable_kind.hpp: SamplerState is the byte-stored spins and Potts states), counters as
// 64-bit integers, the ladder and the energies by bit pattern. checkpoint.hpp writes it to a file;
// a Sampler built on any space from a SamplerState continues with the same bits as one that never
// stopped.
//
// Each struct lists its fields once (field_list.hpp); the checkpoint file, the sampler's
// snapshot and restore and the tests' comparisons all walk those lists, and the list order
// is the file's byte order.

#include <cstdint>
#include <tuple>
#include <type_traits>
#include <vector>

#include "hamon/core/state/best_records.hpp"
#include "hamon/core/state/detail/machine_records.hpp"
#include "hamon/core/util/field_list.hpp"

namespace hamon {

/// The moment accumulators of the cold chain (sampler/detail/moment_accumulator.hpp): batch b of
/// `length` measured rounds holds sums over its rounds; batches [0, n_batches) are complete and the
/// batch n_batches holds `in_batch` rounds so far. The rows are (n_batches + 1) x extent.
struct MomentBatchesState {
  std::int64_t length = 1;
  std::int64_t n_batches = 0;
  std::int64_t in_batch = 0;
  std::vector<std::int64_t> node_sums;  // rows x n_nodes
  std::vector<std::int64_t> edge_sums;  // rows x n_edges
  std::vector<double> energy_sums;      // rows
  std::vector<std::int64_t> abs_magnetization_sums;
  std::vector<std::int64_t> counts;

  template <class Self>
  static auto fields(Self& m) {
    return std::tuple_cat(
        std::make_tuple(field("length", m.length), field("n_batches", m.n_batches),
                        field("in_batch", m.in_batch)),
        sums(m));
  }
  /// The batch sums, in the order of the sampler's moment buffers.
  template <class Self>
  static auto sums(Self& m) {
    return std::make_tuple(field("node_sums", m.node_sums).with_codec(FieldCodec::packed),
                           field("edge_sums", m.edge_sums).with_codec(FieldCodec::packed),
                           field("energy_sums", m.energy_sums),
                           field("abs_magnetization_sums", m.abs_magnetization_sums),
                           field("counts", m.counts));
  }
};
static_assert(field_list_is_complete<MomentBatchesState>());

/// The replica-overlap accumulators (sampler/detail/overlap_accumulator.hpp), batched like the
/// moments: per batch row and chain, over the round's replica pairs, sums of Q^2, Q^4, |Q|,
/// the link overlap Q_l and |F(k_min)|^2 summed over directions (Q = sum_i (q d_i - 1) over
/// the free nodes, d_i = 1 where the pair agrees, q = 2 for spins; unnormalised, integers
/// but for the powers and F), and per chain the histogram of agreeing nodes (not batched).
struct OverlapBatchesState {
  std::int64_t length = 1;
  std::int64_t n_batches = 0;
  std::int64_t in_batch = 0;
  std::vector<double> q2_sums;           // rows x n_chains
  std::vector<double> q4_sums;           // rows x n_chains
  std::vector<std::int64_t> abs_q_sums;  // rows x n_chains
  std::vector<std::int64_t> link_sums;   // rows x n_chains
  std::vector<double> fourier_sums;      // rows x n_chains
  std::vector<std::int64_t> counts;      // rows: measured rounds (each adds every pair)
  std::vector<std::int64_t> histograms;  // n_chains x (n_free + 1)

  template <class Self>
  static auto fields(Self& m) {
    return std::tuple_cat(
        std::make_tuple(field("length", m.length), field("n_batches", m.n_batches),
                        field("in_batch", m.in_batch)),
        sums(m), std::make_tuple(field("histograms", m.histograms).with_codec(FieldCodec::packed)));
  }
  /// The batch sums, in the order of the sampler's overlap buffers.
  template <class Self>
  static auto sums(Self& m) {
    return std::make_tuple(field("q2_sums", m.q2_sums), field("q4_sums", m.q4_sums),
                           field("abs_q_sums", m.abs_q_sums), field("link_sums", m.link_sums),
                           field("fourier_sums", m.fourier_sums), field("counts", m.counts));
  }
};
static_assert(field_list_is_complete<OverlapBatchesState>());

/// The traces a sampler without a sink keeps on the host (a sink's rows are the sink's);
/// the samples are values of `Value` (a variable kind's storage_type).
template <class Value>
struct TraceStateOf {
  std::int64_t samples_rows = 0;  // rows handed out so far (to the sink or kept here)
  std::int64_t energy_rows = 0;
  std::int64_t index_rows = 0;
  std::vector<Value> samples;  // kept rows (empty with a sink)
  std::vector<double> energies;
  std::vector<std::int32_t> index_process;

  template <class Self>
  static auto fields(Self& t) {
    return std::make_tuple(field("samples_rows", t.samples_rows),
                           field("energy_rows", t.energy_rows), field("index_rows", t.index_rows),
                           field("samples", t.samples), field("energies", t.energies),
                           field("index_process", t.index_process));
  }
};

/// The best state of every machine (best_records.hpp) and its configuration, machine-major
/// like SamplerStateOf::spins (a machine that has not run a round yet holds its start).
template <class Value>
struct BestStatesOf : BestRecords<HostList> {
  using Records = BestRecords<HostList>;
  std::vector<Value> spins;

  template <class Self>
  static auto fields(Self& b) {
    using RecordsOfSelf = std::conditional_t<std::is_const_v<Self>, const Records, Records>;
    return std::make_tuple(field("records", static_cast<RecordsOfSelf&>(b)),
                           field("spins", b.spins));
  }
};

/// The machine records (machine_records.hpp) are SamplerState's base: s.attempted etc.
/// `Value`: the variables' storage type (variable_kind.hpp).
template <class Value>
struct SamplerStateOf : MachineRecords<HostList> {
  using Records = MachineRecords<HostList>;
  std::int64_t rounds_done = 0;  // burn-in included
  std::int32_t n_machines = 0;
  std::int64_t n_nodes = 0;
  std::vector<double> betas;   // the current ladder
  std::vector<Value> spins;    // the variables, machine-major
  MomentBatchesState moments;  // empty rows when moments are off
  TraceStateOf<Value> traces;
  BestStatesOf<Value> best;
  OverlapBatchesState overlaps;  // empty rows without replica overlaps

  /// The checkpoint sections, in file order: STAT (the round, the shape, the ladder and the
  /// machine records), SPIN, MOMT, TRAC, BEST and OVLP.
  template <class Self>
  static auto fields(Self& s) {
    using RecordsOfSelf = std::conditional_t<std::is_const_v<Self>, const Records, Records>;
    return std::make_tuple(field("rounds_done", s.rounds_done).starts_section("STAT"),
                           field("n_machines", s.n_machines), field("n_nodes", s.n_nodes),
                           field("betas", s.betas),
                           field("machine_records", static_cast<RecordsOfSelf&>(s)),
                           field("spins", s.spins).starts_section("SPIN"),
                           field("moments", s.moments).starts_section("MOMT"),
                           field("traces", s.traces).starts_section("TRAC"),
                           field("best", s.best).starts_section("BEST"),
                           field("overlaps", s.overlaps).starts_section("OVLP"));
  }
};

/// The state of the built-in families (spins and Potts states, one byte each).
using TraceState = TraceStateOf<std::int8_t>;
using SamplerState = SamplerStateOf<std::int8_t>;
using BestStates = BestStatesOf<std::int8_t>;
static_assert(field_list_is_complete<TraceState>());
static_assert(field_list_is_complete<BestStates>());
static_assert(field_list_is_complete<SamplerState>());

}  // namespace hamon
