// SPDX-License-Identifier: Apache-2.0
#pragma once
// Definitions of hamon::Sampler (declared in hamon/core/sampler.hpp). Include this only to
// instantiate the sampler for an execution space the library does not already provide.

#include <Kokkos_Core.hpp>
#include <algorithm>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "hamon/core/chain_state.hpp"
#include "hamon/core/device_model.hpp"
#include "hamon/core/energy.hpp"
#include "hamon/core/gibbs_sweep.hpp"
#include "hamon/core/impl/host_copies.hpp"
#include "hamon/core/machine_exchange.hpp"
#include "hamon/core/make_chain_state.hpp"
#include "hamon/core/nrpt.hpp"
#include "hamon/core/observers.hpp"
#include "hamon/core/run_phases.hpp"
#include "hamon/core/sampler.hpp"
#include "hamon/core/schedule.hpp"
#include "hamon/core/statistics.hpp"
#include "hamon/core/swap.hpp"

namespace hamon::detail {

/// Rounds are a 32-bit word of the random-number counter.
inline constexpr std::int64_t kMaxRounds = std::numeric_limits<std::uint32_t>::max();

template <class T>
void append_rows(std::vector<T>& to, const T* rows, std::int64_t n) {
  to.insert(to.end(), rows, rows + n);
}

/// Mean over every measured round; error from the complete batches only (a partial batch
/// would weigh a few rounds like a whole batch).
inline MeanWithError mean_of_batches(const std::vector<double>& sums,
                                     const std::vector<std::int64_t>& counts,
                                     std::size_t complete) {
  MeanWithError all = batch_means(sums, counts);
  const std::vector<double> full_sums(sums.begin(), sums.begin() + complete);
  const std::vector<std::int64_t> full_counts(counts.begin(), counts.begin() + complete);
  all.standard_error = batch_means(full_sums, full_counts).standard_error;
  return all;
}

template <class ExecutionSpace>
struct SamplerCore {
  using memory_space = typename ExecutionSpace::memory_space;

  ExecutionSpace space;
  DeviceModel<memory_space> model_owner;  // holds the model's Views
  DeviceModel<memory_space> model;        // the same Views, untracked: what kernels copy
  NrptOptions options;
  RunPhases phases;
  std::vector<double> betas;  // the current ladder (host copy of state.betas)
  ChainState<ExecutionSpace> state;
  ObserverBuffers<ExecutionSpace> observers;
  TraceSink* sink = nullptr;
  TraceState traces;  // row counts, and the rows themselves without a sink
  std::int64_t rounds_done = 0;
  // A run over ranks (machine_exchange.hpp): every rank's block of machines, this rank's,
  // and the buffer of every machine's energy. Without an exchange: one block, all of them.
  MachineExchange* exchange = nullptr;
  std::vector<MachineBlock> blocks;
  std::vector<std::int64_t> all_energies;
  std::vector<std::int64_t> all_gather_buffer;
  // Words per rank in a round's message: with the energies (the block's count + 1 vote)
  // and without them (the vote only).
  std::vector<std::int64_t> words_with_energies, words_votes_only;
  bool stop_vote = false;  // this rank's should_stop after the last round, not yet shared

  SamplerCore(const ExecutionSpace& space_, const DeviceModel<memory_space>& model_,
              const NrptOptions& options_, TraceSink* sink_, MachineExchange* exchange_)
      : space(space_),
        model_owner(model_),
        model(view_aliases<memory_space>(model_owner)),
        options(options_),
        sink(sink_),
        exchange(exchange_) {
    validate_options(options, model.n_nodes);
    phases = run_phases(options);
    betas = ladder_of(options);
    blocks = machine_blocks(n_chains(), exchange != nullptr ? exchange->n_ranks() : 1);
    all_energies.resize(betas.size());
    for (const MachineBlock& b : blocks) {
      words_with_energies.push_back(b.count + 1);
      words_votes_only.push_back(1);
    }
    all_gather_buffer.resize(betas.size() + blocks.size());
    state = make_chain_state(space, model, betas, options.seed, my_block());
    observers = make_observer_buffers(space, model, options.observers,
                                      static_cast<std::int32_t>(betas.size()));
  }

  std::int32_t n_chains() const { return static_cast<std::int32_t>(betas.size()); }
  MachineBlock my_block() const {
    return blocks[static_cast<std::size_t>(exchange != nullptr ? exchange->rank() : 0)];
  }
  /// Rank 0 (or the only process) keeps and hands over the traces.
  bool is_root() const { return exchange == nullptr || exchange->is_root(); }

  /// Over ranks, the one message of a round: every rank's machines' energies (when
  /// `energies`: after compute_energies) into every rank's state, and every rank's vote to
  /// stop. Returns whether any rank voted so.
  bool exchange_round(bool energies, bool vote) {
    if (exchange == nullptr) return vote;
    std::vector<std::int64_t> mine;
    if (energies) mine = to_host_vector<std::int64_t>(state.local_energy_fixed());
    mine.push_back(vote ? 1 : 0);
    exchange->all_gather(mine.data(), all_gather_buffer.data(),
                         energies ? words_with_energies : words_votes_only);
    bool any_vote = false;
    std::size_t at = 0;
    for (const MachineBlock& b : blocks) {
      if (energies) {
        for (std::int32_t k = 0; k < b.count; ++k) {
          all_energies[static_cast<std::size_t>(b.first + k)] = all_gather_buffer[at++];
        }
      }
      if (all_gather_buffer[at++] != 0) any_vote = true;
    }
    if (energies) copy_from_host(state.energy_fixed, all_energies);
    return any_vote;
  }

  /// An integer buffer summed over the ranks (complete on rank 0).
  template <class T>
  std::vector<T> summed_over_ranks(std::vector<T> values) const {
    if (exchange != nullptr) {
      exchange->sum_to_root(values.data(), static_cast<std::int64_t>(values.size()));
    }
    return values;
  }
  bool measuring() const { return rounds_done >= phases.burn_in; }
  std::int64_t measured() const { return std::max<std::int64_t>(0, rounds_done - phases.burn_in); }

  void reset_counters() {
    Kokkos::deep_copy(space, state.attempted, 0);
    Kokkos::deep_copy(space, state.accepted, 0);
    Kokkos::deep_copy(space, state.round_trips, 0);
    Kokkos::deep_copy(space, state.restarts, 0);
  }

  SwapStatistics swap_stats() const {
    return swap_statistics(betas, to_host_vector<std::int64_t>(state.attempted),
                           to_host_vector<std::int64_t>(state.accepted));
  }

  /// The end of an adaptation segment: move the ladder on its rejection rates. A pair that
  /// was never attempted has no estimate: then the counters carry over to the next segment.
  void update_ladder() {
    const SwapStatistics stats = swap_stats();
    for (std::int64_t a : stats.attempted) {
      if (a == 0) return;
    }
    betas = optimize_schedule(stats.rejection, betas);
    copy_from_host(state.betas, betas);
    refresh_acceptance_thresholds(space, model, state);
    reset_counters();
  }

  /// What happens between rounds at `rounds_done` (so a saved state is always past it).
  void after_round() {
    if (std::binary_search(phases.ladder_updates.begin(), phases.ladder_updates.end(),
                           rounds_done)) {
      update_ladder();
    }
    if (rounds_done == phases.burn_in) reset_counters();
  }

  void report_progress() const {
    Progress p;
    p.rounds_done = rounds_done;
    p.rounds_total = options.burn_in + options.n_rounds;
    p.burning_in = rounds_done <= options.burn_in;
    const SwapStatistics stats = swap_stats();
    p.Lambda = stats.Lambda;
    p.min_acceptance = stats.acceptance.empty()
                           ? 1.0
                           : *std::min_element(stats.acceptance.begin(), stats.acceptance.end());
    options.on_progress(p);
  }

  /// One round; returns whether a rank asked to stop (over ranks, the votes of the round
  /// before, shared in this round's message; in one process, always false).
  bool one_round() {
    const auto round = static_cast<std::uint32_t>(rounds_done);
    const bool has_pairs = n_chains() > 1;
    for (std::int32_t sweep = 0; sweep < options.n_expl; ++sweep) {
      gibbs_sweep(space, model, state, options.seed, round, static_cast<std::uint32_t>(sweep));
    }
    const bool observing = measuring() && observers.any();
    const bool energies = has_pairs || observing;
    if (energies) compute_energies(space, model, state);
    const bool asked_to_stop = exchange_round(energies, stop_vote) && exchange != nullptr;
    stop_vote = false;
    if (has_pairs) {
      deo_swap_pass(space, state, options.seed, round, model.energy_fraction_bits);
      update_index_process(space, state);
    }
    if (observing && observe_round(space, model, state, observers, measured())) flush_traces();
    ++rounds_done;
    after_round();
    if (options.progress_every > 0 && options.on_progress &&
        rounds_done % options.progress_every == 0) {
      report_progress();
    }
    return asked_to_stop;
  }

  std::int64_t run(std::int64_t n_rounds, const std::function<bool()>& should_stop) {
    if (n_rounds < 0) throw std::invalid_argument("Sampler::run: negative round count");
    if (n_rounds > kMaxRounds - rounds_done) {
      throw std::invalid_argument("Sampler::run: the run would pass 2^32 rounds (" +
                                  std::to_string(rounds_done) + " done, " +
                                  std::to_string(n_rounds) + " more asked)");
    }
    std::int64_t done = 0;
    while (done < n_rounds) {
      const bool asked = one_round();
      ++done;
      if (exchange == nullptr) {
        if (should_stop && should_stop()) break;
      } else {
        // Over ranks every rank stops at the same round: a vote reaches the others with the
        // next round's message, so the run stops one round after the first rank asked (or
        // at the end of this call; the caller then agrees on why: max_over_ranks).
        if (asked) break;
        stop_vote = should_stop && should_stop();
      }
    }
    stop_vote = false;
    return done;
  }

  /// Rows [0, rows) of a trace chunk to the sink or `kept`. Over ranks, only rank 0 hands
  /// over; the samples (bytes, zero on the ranks without the cold machine) are summed first.
  /// Without a sink, the other ranks keep the replicated traces (energies, index process)
  /// as one process would, and no samples.
  template <class T, class Matrix>
  void hand_over(const Matrix& chunk, std::int64_t rows, std::int64_t& counter,
                 std::vector<T>& kept,
                 void (TraceSink::*append)(const T*, std::int64_t, std::int64_t)) {
    if (rows == 0) return;
    counter += rows;
    const auto columns = static_cast<std::int64_t>(chunk.extent(1));
    const auto filled = Kokkos::subview(chunk, std::make_pair(std::int64_t(0), rows), Kokkos::ALL);
    const auto host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), filled);
    std::vector<T> block(static_cast<std::size_t>(rows * columns));
    for (std::int64_t r = 0; r < rows; ++r) {
      for (std::int64_t c = 0; c < columns; ++c) {
        block[static_cast<std::size_t>(r * columns + c)] = host(r, c);
      }
    }
    constexpr bool replicated = !std::is_same_v<T, std::int8_t>;
    if constexpr (!replicated) block = summed_over_ranks(std::move(block));
    if (!is_root() && (sink != nullptr || !replicated)) return;
    if (sink != nullptr) {  // rank 0's
      (sink->*append)(block.data(), rows, columns);
    } else {
      append_rows(kept, block.data(), static_cast<std::int64_t>(block.size()));
    }
  }

  void flush_traces() {
    hand_over(observers.samples, observers.samples_in_chunk, traces.samples_rows, traces.samples,
              &TraceSink::append_samples);
    observers.samples_in_chunk = 0;
    hand_over(observers.energies, observers.energies.extent(0) > 0 ? observers.traces_in_chunk : 0,
              traces.energy_rows, traces.energies, &TraceSink::append_energies);
    hand_over(observers.index_process,
              observers.index_process.extent(0) > 0 ? observers.traces_in_chunk : 0,
              traces.index_rows, traces.index_process, &TraceSink::append_index_process);
    observers.traces_in_chunk = 0;
  }

  Moments moments() const {
    Moments out;
    const MomentBatchesState& at = observers.layout;
    const std::size_t rows = static_cast<std::size_t>(at.n_batches) + (at.in_batch > 0 ? 1 : 0);
    if (rows == 0) return out;
    const auto counts_all = to_host_vector<std::int64_t>(observers.counts);
    const std::vector<std::int64_t> counts(counts_all.begin(), counts_all.begin() + rows);
    const auto complete = static_cast<std::size_t>(at.n_batches);
    for (auto c : counts) out.n_samples += c;
    const std::size_t n_nodes = observers.node_sums.extent(1);
    const std::size_t n_edges = observers.edge_sums.extent(1);
    const auto node_sums = summed_over_ranks(to_host_vector<std::int64_t>(observers.node_sums));
    const auto edge_sums = summed_over_ranks(to_host_vector<std::int64_t>(observers.edge_sums));
    auto column_stats = [&](const std::vector<std::int64_t>& sums, std::size_t width,
                            std::size_t col) {
      std::vector<double> s(rows);
      for (std::size_t k = 0; k < rows; ++k) s[k] = static_cast<double>(sums[k * width + col]);
      return mean_of_batches(s, counts, complete);
    };
    for (std::size_t i = 0; i < n_nodes; ++i) {
      const MeanWithError m = column_stats(node_sums, n_nodes, i);
      out.node_means.push_back(m.mean);
      out.node_means_stderr.push_back(m.standard_error);
    }
    for (std::size_t e = 0; e < n_edges; ++e) {
      const MeanWithError m = column_stats(edge_sums, n_edges, e);
      out.edge_means.push_back(m.mean);
      out.edge_means_stderr.push_back(m.standard_error);
    }
    const double per_node = 1.0 / static_cast<double>(model.n_nodes);
    std::vector<double> energy = to_host_vector<double>(observers.energy_sums);
    energy.resize(rows);
    for (auto& v : energy) v *= per_node;
    std::vector<double> magnetization;
    const auto abs_m =
        summed_over_ranks(to_host_vector<std::int64_t>(observers.abs_magnetization_sums));
    const double q = model.n_states;
    for (std::size_t k = 0; k < rows; ++k) {
      const double mean_abs = static_cast<double>(abs_m[k]) * per_node;
      // Potts: sum over the batch's rounds of (q max_s n_s / N - 1) / (q - 1).
      magnetization.push_back(q > 0 ? (q * mean_abs - static_cast<double>(counts[k])) / (q - 1.0)
                                    : mean_abs);
    }
    out.energy_per_node = mean_of_batches(energy, counts, complete);
    out.abs_magnetization_per_node = mean_of_batches(magnetization, counts, complete);
    return out;
  }

  /// Over ranks: collective, and complete on rank 0 only.
  NrptResult result() {
    flush_traces();
    compute_energies(space, model, state);
    exchange_round(true, false);
    space.fence();
    NrptResult r;
    r.betas = betas;
    r.n_rounds = measured();
    r.swaps = swap_stats();
    r.round_trips = to_host_vector<std::int64_t>(state.round_trips);
    r.restarts = to_host_vector<std::int64_t>(state.restarts);
    for (auto t : r.round_trips) r.total_round_trips += t;
    r.tau_observed =
        r.n_rounds > 0 ? static_cast<double>(r.total_round_trips) / static_cast<double>(r.n_rounds)
                       : 0.0;
    r.efficiency = n_chains() > 1 && r.swaps.tau_predicted > 0.0
                       ? r.tau_observed / r.swaps.tau_predicted
                       : 0.0;
    r.chain_of_machine = to_host_vector<std::int32_t>(state.chain_of_machine);
    r.machine_of_chain = to_host_vector<std::int32_t>(state.machine_of_chain);
    const auto energy_fixed = to_host_vector<std::int64_t>(state.energy_fixed);
    for (std::int32_t c = 0; c < n_chains(); ++c) {
      r.final_energies.push_back(fixed_point_energy(
          energy_fixed[static_cast<std::size_t>(r.machine_of_chain[static_cast<std::size_t>(c)])],
          model.energy_fraction_bits));
    }
    r.spin_updates = model.n_free * n_chains() * options.n_expl * rounds_done;
    if (observers.samples_every > 0) {
      for (auto v : to_host_vector<std::int32_t>(observers.sample_nodes))
        r.sample_nodes.push_back(v);
      r.n_samples = traces.samples_rows;
      r.samples = traces.samples;
    }
    r.energies = traces.energies;
    r.index_process = traces.index_process;
    if (observers.max_batches > 0) r.moments = moments();
    return r;
  }

  /// Over ranks: collective, and complete on rank 0 only.
  SamplerState snapshot() {
    flush_traces();
    if (sink != nullptr) sink->sync();
    space.fence();
    SamplerState s;
    s.rounds_done = rounds_done;
    s.n_machines = n_chains();
    s.n_nodes = model.n_nodes;
    s.betas = betas;
    const auto spins = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), state.spins);
    const std::int32_t n_local = state.n_local_machines();
    std::vector<std::int8_t> mine(static_cast<std::size_t>(n_local * s.n_nodes));
    for (std::int32_t m = 0; m < n_local; ++m) {
      for (std::int64_t i = 0; i < s.n_nodes; ++i) {
        mine[static_cast<std::size_t>(m * s.n_nodes + i)] = spins(m, i);
      }
    }
    if (exchange == nullptr) {
      s.spins = std::move(mine);
    } else {
      s.spins.resize(static_cast<std::size_t>(s.n_machines * s.n_nodes));
      exchange->gather_machines_to_root(mine.data(), s.spins.data(), blocks, s.n_nodes);
    }
    s.chain_of_machine = to_host_vector<std::int32_t>(state.chain_of_machine);
    s.machine_of_chain = to_host_vector<std::int32_t>(state.machine_of_chain);
    s.trip_phase = to_host_vector<std::int8_t>(state.trip_phase);
    s.energy_fixed = to_host_vector<std::int64_t>(state.energy_fixed);
    s.attempted = to_host_vector<std::int64_t>(state.attempted);
    s.accepted = to_host_vector<std::int64_t>(state.accepted);
    s.round_trips = to_host_vector<std::int64_t>(state.round_trips);
    s.restarts = to_host_vector<std::int64_t>(state.restarts);
    if (observers.max_batches > 0) {
      MomentBatchesState& mb = s.moments;
      mb = observers.layout;
      const std::size_t rows = static_cast<std::size_t>(mb.n_batches) + 1;
      auto rows_of = [rows](const auto& view) {
        auto all = to_host_vector<typename std::decay_t<decltype(view)>::value_type>(view);
        const std::size_t width = view.extent(0) == 0 ? 0 : all.size() / view.extent(0);
        all.resize(std::min(all.size(), rows * width));
        return all;
      };
      mb.node_sums = summed_over_ranks(rows_of(observers.node_sums));
      mb.edge_sums = summed_over_ranks(rows_of(observers.edge_sums));
      mb.energy_sums = rows_of(observers.energy_sums);
      mb.abs_magnetization_sums = summed_over_ranks(rows_of(observers.abs_magnetization_sums));
      mb.counts = rows_of(observers.counts);
    }
    s.traces = traces;
    return s;
  }

  [[noreturn]] static void misfit(const std::string& what) {
    throw std::invalid_argument("Sampler: the saved state does not fit this run: " + what);
  }

  template <class View, class T>
  static void restore_view(const View& view, const std::vector<T>& values, const char* name) {
    if (values.size() != view.extent(0)) {
      misfit(std::string(name) + " has " + std::to_string(values.size()) + " entries, expected " +
             std::to_string(view.extent(0)));
    }
    copy_from_host(view, values);
  }

  template <class Matrix, class T>
  static void restore_rows(const Matrix& matrix, const std::vector<T>& values, std::size_t rows,
                           const char* name) {
    const std::size_t width = matrix.extent(1);
    if (values.size() != rows * width || rows > matrix.extent(0)) {
      misfit(std::string("moment batches (") + name + ") have the wrong size");
    }
    auto host = Kokkos::create_mirror_view(matrix);
    Kokkos::deep_copy(host, T(0));
    for (std::size_t r = 0; r < rows; ++r) {
      for (std::size_t c = 0; c < width; ++c) host(r, c) = values[r * width + c];
    }
    Kokkos::deep_copy(matrix, host);
  }

  template <class Vector, class T>
  static void restore_batches(const Vector& vector, const std::vector<T>& values,
                              const char* name) {
    if (values.size() > vector.extent(0)) misfit(std::string("too many batches of ") + name);
    std::vector<T> padded = values;
    padded.resize(vector.extent(0), T(0));
    copy_from_host(vector, padded);
  }

  void start_from(const SamplerState& s) {
    if (rounds_done != 0) {
      throw std::logic_error("Sampler::start_from: the sampler has already run");
    }
    if (s.n_machines != n_chains() || s.n_nodes != model.n_nodes ||
        s.spins.size() != static_cast<std::size_t>(s.n_machines * s.n_nodes)) {
      throw std::invalid_argument("Sampler::start_from: a configuration of another shape");
    }
    restore_spins(s);
    restore_view(state.chain_of_machine, s.chain_of_machine, "chain_of_machine");
    restore_view(state.machine_of_chain, s.machine_of_chain, "machine_of_chain");
    // Trip phases of the new permutation, as for a fresh start (only the machine at chain 0
    // may start a trip).
    Kokkos::deep_copy(space, state.trip_phase, 0);
    update_index_process(space, state);
    space.fence();
  }

  /// The spins of this state's machines (all of them in one process) from a whole state.
  void restore_spins(const SamplerState& s) {
    auto spins = Kokkos::create_mirror_view(state.spins);
    const std::int32_t first = state.first_machine;
    for (std::int32_t m = 0; m < state.n_local_machines(); ++m) {
      for (std::int64_t i = 0; i < s.n_nodes; ++i) {
        spins(m, i) = s.spins[static_cast<std::size_t>((first + m) * s.n_nodes + i)];
      }
    }
    Kokkos::deep_copy(state.spins, spins);
  }

  /// Sums over ranks live on rank 0 (the others start from zero, so they add up again).
  template <class T>
  std::vector<T> own_share(const std::vector<T>& sums) const {
    return is_root() ? sums : std::vector<T>(sums.size(), T(0));
  }

  void restore(const SamplerState& s) {
    if (s.n_machines != n_chains()) {
      misfit(std::to_string(s.n_machines) + " machines, the options have " +
             std::to_string(n_chains()) + " chains");
    }
    if (s.n_nodes != model.n_nodes) {
      misfit(std::to_string(s.n_nodes) + " nodes, the model has " + std::to_string(model.n_nodes));
    }
    if (s.betas.size() != betas.size()) misfit("the ladder has another length");
    if (s.rounds_done < 0 || s.rounds_done > kMaxRounds) misfit("impossible round number");
    validate_ladder(s.betas);
    rounds_done = s.rounds_done;
    betas = s.betas;
    copy_from_host(state.betas, betas);
    refresh_acceptance_thresholds(space, model, state);
    if (s.spins.size() != static_cast<std::size_t>(s.n_machines * s.n_nodes)) {
      misfit("the spins have the wrong size");
    }
    restore_spins(s);
    restore_view(state.chain_of_machine, s.chain_of_machine, "chain_of_machine");
    restore_view(state.machine_of_chain, s.machine_of_chain, "machine_of_chain");
    restore_view(state.trip_phase, s.trip_phase, "trip_phase");
    restore_view(state.energy_fixed, s.energy_fixed, "energy_fixed");
    restore_view(state.attempted, s.attempted, "attempted");
    restore_view(state.accepted, s.accepted, "accepted");
    restore_view(state.round_trips, s.round_trips, "round_trips");
    restore_view(state.restarts, s.restarts, "restarts");
    if (observers.max_batches > 0) {
      const MomentBatchesState& mb = s.moments;
      if (mb.length < 1 || mb.n_batches < 0 || mb.n_batches >= observers.max_batches ||
          mb.in_batch < 0 || mb.in_batch >= mb.length) {
        misfit("the moment batches are inconsistent");
      }
      const auto rows = static_cast<std::size_t>(mb.n_batches) + 1;
      restore_rows(observers.node_sums, own_share(mb.node_sums), rows, "nodes");
      restore_rows(observers.edge_sums, own_share(mb.edge_sums), rows, "edges");
      restore_batches(observers.energy_sums, mb.energy_sums, "energy");
      restore_batches(observers.abs_magnetization_sums, own_share(mb.abs_magnetization_sums),
                      "magnetization");
      restore_batches(observers.counts, mb.counts, "counts");
      observers.layout.length = mb.length;
      observers.layout.n_batches = mb.n_batches;
      observers.layout.in_batch = mb.in_batch;
    } else if (!s.moments.counts.empty()) {
      misfit("it has moments, the options record none");
    }
    const TraceState& t = s.traces;
    const auto sample_columns = static_cast<std::int64_t>(observers.samples.extent(1));
    const auto chains = static_cast<std::int64_t>(n_chains());
    if (t.samples_rows < 0 || t.energy_rows < 0 || t.index_rows < 0) misfit("negative trace rows");
    if (sink == nullptr &&
        (static_cast<std::int64_t>(t.samples.size()) != t.samples_rows * sample_columns ||
         static_cast<std::int64_t>(t.energies.size()) !=
             (observers.energies.extent(0) > 0 ? t.energy_rows * chains : 0) ||
         static_cast<std::int64_t>(t.index_process.size()) !=
             (observers.index_process.extent(0) > 0 ? t.index_rows * chains : 0))) {
      misfit("the kept traces do not match their row counts");
    }
    traces = t;
    if (!is_root()) traces.samples.clear();  // rank 0 keeps them
    if (sink != nullptr) {
      traces.samples.clear();
      traces.energies.clear();
      traces.index_process.clear();
    }
    space.fence();
  }
};

}  // namespace hamon::detail

namespace hamon {

template <class ExecutionSpace>
Sampler<ExecutionSpace>::Sampler(const ExecutionSpace& space, const SpinModel& model,
                                 const NrptOptions& options, TraceSink* sink,
                                 MachineExchange* exchange)
    : Sampler(space, (validate_options(options, model.n_nodes()), make_device_model(space, model)),
              options, sink, exchange) {}

template <class ExecutionSpace>
Sampler<ExecutionSpace>::Sampler(const ExecutionSpace& space,
                                 const DeviceModel<memory_space>& model, const NrptOptions& options,
                                 TraceSink* sink, MachineExchange* exchange)
    : core_(std::make_unique<detail::SamplerCore<ExecutionSpace>>(space, model, options, sink,
                                                                  exchange)) {}

template <class ExecutionSpace>
Sampler<ExecutionSpace>::Sampler(const ExecutionSpace& space, const SpinModel& model,
                                 const NrptOptions& options, const SamplerState& state,
                                 TraceSink* sink, MachineExchange* exchange)
    : Sampler(space, model, options, sink, exchange) {
  core_->restore(state);
}

template <class ExecutionSpace>
Sampler<ExecutionSpace>::Sampler(const ExecutionSpace& space,
                                 const DeviceModel<memory_space>& model, const NrptOptions& options,
                                 const SamplerState& state, TraceSink* sink,
                                 MachineExchange* exchange)
    : Sampler(space, model, options, sink, exchange) {
  core_->restore(state);
}

template <class ExecutionSpace>
Sampler<ExecutionSpace>::~Sampler() = default;

template <class ExecutionSpace>
std::int64_t Sampler<ExecutionSpace>::run(std::int64_t n_rounds,
                                          const std::function<bool()>& should_stop) {
  return core_->run(n_rounds, should_stop);
}

template <class ExecutionSpace>
std::int64_t Sampler<ExecutionSpace>::rounds_done() const {
  return core_->rounds_done;
}

template <class ExecutionSpace>
std::int64_t Sampler<ExecutionSpace>::measured_rounds() const {
  return core_->measured();
}

template <class ExecutionSpace>
NrptResult Sampler<ExecutionSpace>::result() {
  return core_->result();
}

template <class ExecutionSpace>
SamplerState Sampler<ExecutionSpace>::state() {
  return core_->snapshot();
}

template <class ExecutionSpace>
const NrptOptions& Sampler<ExecutionSpace>::options() const {
  return core_->options;
}

template <class ExecutionSpace>
std::string Sampler<ExecutionSpace>::execution_space() const {
  return ExecutionSpace::name();
}

template <class ExecutionSpace>
void Sampler<ExecutionSpace>::start_from(const SamplerState& configuration) {
  core_->start_from(configuration);
}

}  // namespace hamon
