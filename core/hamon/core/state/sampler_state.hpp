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

#include "hamon/core/state/batch_sums.hpp"
#include "hamon/core/state/best_records.hpp"
#include "hamon/core/state/detail/machine_records.hpp"
#include "hamon/core/util/field_list.hpp"
#include "hamon/core/util/view_fields.hpp"

namespace hamon {

/// The moment accumulators of the cold chain (sampler/detail/moment_accumulator.hpp): the
/// batch layout and the sums (batch_sums.hpp), (n_batches + 1) rows of them.
struct MomentBatchesState : BatchLayout, MomentSums<OnHost> {
  using Sums = MomentSums<OnHost>;
  using spliced_bases = std::tuple<BatchLayout, Sums>;

  template <class Self>
  static auto fields(Self& m) {
    return std::tuple_cat(BatchLayout::fields(m), Sums::fields(m));
  }
};
static_assert(field_list_is_complete<MomentBatchesState>());

/// The replica-overlap accumulators (sampler/detail/overlap_accumulator.hpp), batched like the
/// moments: per batch row and chain the sums of batch_sums.hpp's OverlapSums (Q = sum_i
/// (q d_i - 1) over the free nodes, d_i = 1 where the pair agrees, q = 2 for spins;
/// unnormalised, integers but for the powers and F), and per chain the histogram of
/// agreeing nodes (not batched).
struct OverlapBatchesState : BatchLayout, OverlapSums<OnHost> {
  using Sums = OverlapSums<OnHost>;
  using spliced_bases = std::tuple<BatchLayout, Sums>;
  std::vector<std::int64_t> histograms;  // n_chains x (n_free + 1)

  template <class Self>
  static auto fields(Self& m) {
    return std::tuple_cat(
        BatchLayout::fields(m), Sums::fields(m),
        std::make_tuple(field("histograms", m.histograms).with_codec(FieldCodec::packed)));
  }
};
static_assert(field_list_is_complete<OverlapBatchesState>());

/// The magnetisation accumulators per temperature (sampler/detail/magnetization_accumulator.hpp),
/// batched like the moments: per batch row and chain the sums of batch_sums.hpp's
/// MagnetizationSums.
struct MagnetizationBatchesState : BatchLayout, MagnetizationSums<OnHost> {
  using Sums = MagnetizationSums<OnHost>;
  using spliced_bases = std::tuple<BatchLayout, Sums>;

  template <class Self>
  static auto fields(Self& m) {
    return std::tuple_cat(BatchLayout::fields(m), Sums::fields(m));
  }
};
static_assert(field_list_is_complete<MagnetizationBatchesState>());

/// The three traces, over a storage (OnHost: the rows a sampler keeps, ViewsIn: the
/// sampler's chunks in its execution space): the cold chain's samples (values of `Value`,
/// a variable kind's storage_type), the energies by temperature and the index process.
template <class Value, class Storage>
struct TracesOf {
  typename Storage::template matrix<Value> samples;
  typename Storage::template matrix<double> energies;
  typename Storage::template matrix<std::int32_t> index_process;

  template <class Self>
  static auto fields(Self& t) {
    return std::make_tuple(field("samples", t.samples).labelled("hamon::samples_chunk"),
                           field("energies", t.energies).labelled("hamon::energy_chunk"),
                           field("index_process", t.index_process).labelled("hamon::index_chunk"));
  }
};

/// The traces a sampler without a sink keeps on the host (a sink's rows are the sink's).
template <class Value>
struct TraceStateOf : TracesOf<Value, OnHost> {
  using Traces = TracesOf<Value, OnHost>;
  using spliced_bases = std::tuple<Traces>;
  std::int64_t samples_rows = 0;  // rows handed out so far (to the sink or kept here)
  std::int64_t energy_rows = 0;
  std::int64_t index_rows = 0;

  template <class Self>
  static auto fields(Self& t) {
    return std::tuple_cat(
        std::make_tuple(field("samples_rows", t.samples_rows), field("energy_rows", t.energy_rows),
                        field("index_rows", t.index_rows)),
        Traces::fields(t));
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
  OverlapBatchesState overlaps;             // empty rows without replica overlaps
  MagnetizationBatchesState magnetization;  // empty rows without it (moments off, over ranks)

  /// The checkpoint sections, in file order: STAT (the round, the shape, the ladder and the
  /// machine records), SPIN, MOMT, TRAC, BEST, OVLP and MAGN.
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
                           field("overlaps", s.overlaps).starts_section("OVLP"),
                           field("magnetization", s.magnetization).starts_section("MAGN"));
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
