// SPDX-License-Identifier: Apache-2.0
#pragma once
// Definitions of hamon::Sampler (declared in hamon/core/sampler/sampler.hpp). Include this only to
// instantiate the sampler for an execution space the library does not already provide.
//
// The sampler is wiring between its parts (sampler/detail/: RoundLoop, ModelFamily,
// LadderAdapter, TraceBuffer, MomentBuffers, OverlapBuffers, RankLink; what each holds:
// docs/architecture.md), each of which owns a slice of the state and saves and restores it
// by its field list (sampler_state.hpp).

#include <Kokkos_Core.hpp>
#include <algorithm>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "hamon/core/families/model_families.hpp"
#include "hamon/core/model/device_model.hpp"
#include "hamon/core/model/fingerprint.hpp"
#include "hamon/core/sampler/checkpoint.hpp"
#include "hamon/core/sampler/detail/chain_state_shell.hpp"
#include "hamon/core/sampler/detail/ladder_adapter.hpp"
#include "hamon/core/sampler/detail/magnetization_accumulator.hpp"
#include "hamon/core/sampler/detail/moment_accumulator.hpp"
#include "hamon/core/sampler/detail/overlap_accumulator.hpp"
#include "hamon/core/sampler/detail/rank_link.hpp"
#include "hamon/core/sampler/detail/round_loop.hpp"
#include "hamon/core/sampler/detail/space_memory.hpp"
#include "hamon/core/sampler/detail/trace_buffer.hpp"
#include "hamon/core/sampler/machine_exchange.hpp"
#include "hamon/core/sampler/nrpt.hpp"
#include "hamon/core/sampler/rank_agreement.hpp"
#include "hamon/core/sampler/run_phases.hpp"
#include "hamon/core/sampler/sampler.hpp"
#include "hamon/core/tempering/schedule.hpp"
#include "hamon/core/tempering/swap.hpp"

namespace hamon::detail {

/// The model a SamplerCore keeps: `model` with the options' annealing path as its family
/// allows (std::invalid_argument when no family storing `Value` samples it).
template <class ExecutionSpace, class Value, class MemorySpace>
DeviceModel<MemorySpace> sampled_model(DeviceModel<MemorySpace> model, const NrptOptions& options) {
  const auto family = family_of<ExecutionSpace, Value>(model);
  model.annealed = anneals(options, family.abilities.annealing, family.name(model));
  return model;
}

template <class ExecutionSpace, class Value>
struct SamplerCore {
  using memory_space = typename ExecutionSpace::memory_space;
  using SamplerState = SamplerStateOf<Value>;

  ExecutionSpace space;
  DeviceModel<memory_space> model_owner;  // holds the model's Views
  DeviceModel<memory_space> model;        // the same Views, untracked: what kernels copy
  NrptOptions options;
  RankLink link;
  LadderAdapter<ExecutionSpace, Value> ladder;
  RoundLoop<ExecutionSpace, Value> loop;
  TraceBuffer<ExecutionSpace, Value> traces;
  MomentBuffers<ExecutionSpace> moments;
  OverlapBuffers<ExecutionSpace> overlaps;
  MagnetizationBuffers<ExecutionSpace> magnetization;
  bool stop_vote = false;  // this rank's should_stop after the last round, not yet shared
  // What the ranks compare before their first collective (agree_on_inputs): the model, the
  // options with the planned length (it sizes the trace chunks, so it times the flushes)
  // and the state the run starts from (0: a fresh start).
  std::vector<RankInput> inputs;
  bool inputs_agreed = false;

  SamplerCore(const ExecutionSpace& space_, const DeviceModel<memory_space>& model_,
              const NrptOptions& options_, TraceSink* sink, MachineExchange* exchange)
      : space(space_),
        model_owner(sampled_model<ExecutionSpace, Value>(model_, options_)),
        model(view_aliases<memory_space>(model_owner)),
        options((validate_options(options_, model_.n_nodes, sizeof(Value)), options_)),
        link(exchange,
             static_cast<std::int32_t>(ladder_of(options_).size()) * options_.n_replicas) {
    ladder.phases = run_phases(options);
    ladder.betas = ladder_of(options);
    loop.family = family_of<ExecutionSpace, Value>(model);
    const FamilyAbilities& abilities = loop.family.abilities;
    if (abilities.max_machines > 0 && n_machines() > abilities.max_machines) {
      throw std::invalid_argument("NRPT options: " + std::to_string(n_machines()) +
                                  " machines; a " + loop.family.name(model) +
                                  " model allows at most " +
                                  std::to_string(abilities.max_machines));
    }
    if (options.cluster_moves == ClusterMoves::houdayer) {
      // The move flips spins at q = -1 nodes of two machines that one process holds.
      if (!abilities.cluster_moves) {
        throw std::invalid_argument(
            "NRPT options: cluster_moves houdayer needs Ising spins, not a " +
            loop.family.name(model) + " model");
      }
      if (link.blocks().size() > 1) {
        throw std::invalid_argument(
            "NRPT options: cluster_moves houdayer runs in one process, not over " +
            std::to_string(link.blocks().size()) + " ranks");
      }
    }
    // Before any of it is allocated: the state, the trace chunks and the moment sums.
    require_space_memory<ExecutionSpace>(sampler_space_parts<Value>(
        model, options, n_chains(), link.my_block(), loop.family.node_columns(model),
        loop.family.table_bytes(model, n_chains())));
    loop.state = make_family_state(space, loop.family, model, ladder.betas, options.seed,
                                   link.my_block(), options.n_replicas);
    if (options.cluster_moves == ClusterMoves::houdayer) {
      loop.cluster_lists =
          make_cluster_scratch(space, n_chains(), options.n_replicas, model.n_nodes);
    }
    loop.start_best(space, model);
    traces.chunks = make_trace_chunks<ExecutionSpace, Value>(space, model, options.observers,
                                                             n_chains(), options.n_rounds);
    traces.sink = sink;
    moments = make_moment_buffers(space, model, options.observers, loop.family.node_columns(model));
    // Replica overlaps count agreeing variables: a family of discrete values only.
    overlaps = make_overlap_buffers(
        space, model, options.observers, n_chains(), options.n_replicas,
        loop.family.values_per_variable(model),
        abilities.replica_overlaps && overlaps_apply(options.n_replicas, link.blocks().size()));
    magnetization = make_magnetization_buffers(
        space, options.observers, abilities.magnetization, n_chains(), options.n_replicas,
        model.n_states,
        magnetization_applies(options.observers, abilities.magnetization, link.blocks().size()));
    inputs = {
        {"model", model.fingerprint},
        {"options", Fingerprint().add(options_fingerprint(options)).add(options.n_rounds).value()},
        {"state it starts from", 0}};
  }

  /// Before the first collective of the run: every rank read the same model, options and
  /// state (a rank that did not would leave the others waiting in a collective).
  void agree_on_inputs() {
    if (inputs_agreed) return;
    link.require_same_inputs(inputs);
    inputs_agreed = true;
  }

  std::int32_t n_chains() const { return static_cast<std::int32_t>(ladder.betas.size()); }
  std::int32_t n_machines() const { return n_chains() * options.n_replicas; }
  std::int64_t rounds_done() const { return loop.rounds_done; }
  bool measuring() const { return loop.rounds_done >= ladder.phases.burn_in; }
  std::int64_t measured() const {
    return std::max<std::int64_t>(0, loop.rounds_done - ladder.phases.burn_in);
  }

  void report_progress() const {
    Progress p;
    p.rounds_done = loop.rounds_done;
    p.rounds_total = options.burn_in + options.n_rounds;
    p.burning_in = loop.rounds_done <= options.burn_in;
    const SwapStatistics stats = ladder.swap_stats(space, loop.state);
    p.Lambda = stats.Lambda;
    p.min_acceptance = stats.acceptance.empty()
                           ? 1.0
                           : *std::min_element(stats.acceptance.begin(), stats.acceptance.end());
    options.on_progress(p);
  }

  /// One round; returns whether a rank asked to stop (over ranks, the votes of the round
  /// before, shared in this round's message; in one process, always false).
  bool one_round() {
    const bool has_pairs = n_chains() > 1;
    const bool observing =
        measuring() && (traces.chunks.on() || moments.on() || overlaps.on() || magnetization.on());
    // Every round's energies, even with one chain and nothing observed: the best states
    // follow every round (an energy pass costs a fraction of a sweep).
    loop.sweep(space, model, options, true);
    bool asked_to_stop = false;
    if (link.distributed()) loop.share_energies(space, link, true, stop_vote, asked_to_stop);
    stop_vote = false;
    loop.track_best(space);
    if (has_pairs) loop.swap(space, model, options);
    if (observing) {
      const bool chunk_full = record_traces(space, model, loop.state, traces.chunks, measured());
      if (moments.on()) accumulate_moment_round(space, model, loop.family, loop.state, moments);
      if (overlaps.on()) {
        accumulate_overlap_round(space, model, loop.state, options.n_replicas, overlaps);
      }
      if (magnetization.on()) {
        accumulate_magnetization_round(space, model, loop.state, magnetization);
      }
      if (chunk_full) {
        traces.flush(space, link);
        grow_past_plan(space, traces.chunks, traces.kept);
      }
    }
    ++loop.rounds_done;
    ladder.after_round(space, model, loop);
    if (options.progress_every > 0 && options.on_progress &&
        loop.rounds_done % options.progress_every == 0) {
      report_progress();
    }
    return asked_to_stop;
  }

  std::int64_t run(std::int64_t n_rounds, const std::function<bool()>& should_stop) {
    if (n_rounds < 0) throw std::invalid_argument("Sampler::run: negative round count");
    if (n_rounds > kMaxRounds - loop.rounds_done) {
      throw std::invalid_argument("Sampler::run: the run would pass 2^32 rounds (" +
                                  std::to_string(loop.rounds_done) + " done, " +
                                  std::to_string(n_rounds) + " more asked)");
    }
    agree_on_inputs();
    std::int64_t done = 0;
    while (done < n_rounds) {
      const bool asked = one_round();
      ++done;
      if (!link.distributed()) {
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

  /// Over ranks: collective, and complete on rank 0 only.
  NrptResult result() {
    agree_on_inputs();
    traces.flush(space, link);
    loop.family.energies(space, model, loop.state);
    if (link.distributed()) {
      bool ignored = false;
      loop.share_energies(space, link, true, false, ignored);
    }
    space.fence();
    const auto& state = loop.state;
    NrptResult r;
    r.betas = ladder.betas;
    r.annealed = model.annealed;
    r.n_rounds = measured();
    r.swaps = ladder.swap_stats(space, state);
    r.round_trips = to_host_vector<std::int64_t>(space, state.round_trips);
    r.restarts = to_host_vector<std::int64_t>(space, state.restarts);
    for (auto t : r.round_trips) r.total_round_trips += t;
    // Per ladder: each replica's ladder makes its own round trips.
    r.tau_observed = r.n_rounds > 0 ? static_cast<double>(r.total_round_trips) /
                                          static_cast<double>(r.n_rounds) /
                                          static_cast<double>(options.n_replicas)
                                    : 0.0;
    r.efficiency = n_chains() > 1 && r.swaps.tau_predicted > 0.0
                       ? r.tau_observed / r.swaps.tau_predicted
                       : 0.0;
    r.chain_of_machine = to_host_vector<std::int32_t>(space, state.chain_of_machine);
    r.machine_of_chain = to_host_vector<std::int32_t>(space, state.machine_of_chain);
    const auto energy_fixed = to_host_vector<std::int64_t>(space, state.energy_fixed);
    BestStatesOf<Value> best;
    loop.best.save(space, best, link);
    require_energies_in_range(energy_fixed, best.energy_fixed);
    for (std::int32_t c = 0; c < n_chains(); ++c) {
      r.final_energies.push_back(fixed_point_energy(
          energy_fixed[static_cast<std::size_t>(r.machine_of_chain[static_cast<std::size_t>(c)])],
          model.energy_fraction_bits));
    }
    r.spin_updates = model.n_free * n_machines() * options.n_expl * loop.rounds_done;
    add_best_to_result(r, best, model.n_nodes, model.energy_fraction_bits);
    if (traces.chunks.samples_every > 0) {
      for (auto v : to_host_vector<std::int32_t>(space, traces.chunks.sample_nodes))
        r.sample_nodes.push_back(v);
      r.n_samples = traces.kept.samples_rows;
      stored_samples(r, Value{}) = traces.kept.samples;
    }
    r.energies = traces.kept.energies;
    r.index_process = traces.kept.index_process;
    if (moments.on()) r.moments = moments_of(space, moments, model, loop.family, link);
    if (overlaps.on()) r.overlaps = overlaps_of(space, overlaps, model, ladder.betas);
    if (magnetization.on()) {
      r.magnetization = magnetization_of(space, magnetization, model, ladder.betas);
    }
    return r;
  }

  /// Over ranks: collective, and complete on rank 0 only.
  SamplerState snapshot() {
    agree_on_inputs();
    traces.flush(space, link);
    if (traces.sink != nullptr) traces.sink->sync();
    space.fence();
    SamplerState s;
    ladder.save(s);
    loop.save(space, s, link);
    if (moments.on()) s.moments = snapshot_moments(space, moments, link);
    if (overlaps.on()) s.overlaps = snapshot_overlaps(space, overlaps);
    if (magnetization.on()) s.magnetization = snapshot_magnetization(space, magnetization);
    traces.save(s);
    return s;
  }

  void start_from(const SamplerState& s) {
    if (loop.rounds_done != 0) {
      throw std::logic_error("Sampler::start_from: the sampler has already run");
    }
    if (s.n_machines != n_machines() || s.n_nodes != model.n_nodes ||
        s.spins.size() != static_cast<std::size_t>(s.n_machines * s.n_nodes)) {
      throw std::invalid_argument("Sampler::start_from: a configuration of another shape");
    }
    check_permutations(s.chain_of_machine, s.machine_of_chain, n_chains(), options.n_replicas);
    check_variables(s.spins, loop.family, model);
    auto& state = loop.state;
    loop.restore_spins(space, s);
    loop.start_best(space, model);  // a new run from this configuration: nothing seen yet
    restore_view(space, state.chain_of_machine, s.chain_of_machine, "chain_of_machine");
    restore_view(space, state.machine_of_chain, s.machine_of_chain, "machine_of_chain");
    // Trip phases of the new permutation, as for a fresh start (only the machine at chain 0
    // may start a trip).
    Kokkos::deep_copy(space, state.trip_phase, 0);
    update_index_process(space, state);
    space.fence();
    inputs.back().fingerprint = state_fingerprint(s);
  }

  /// Each part checks and restores its slice of the state: every value check before
  /// anything is restored, each part's sizes as it restores them.
  void restore(const SamplerState& s) {
    loop.check(s, model);
    ladder.check(s);
    ladder.restore(space, model, loop, s);
    loop.restore(space, s);
    if (moments.on()) {
      restore_moments(space, moments, s.moments, link);
    } else if (!s.moments.counts.empty()) {
      state_misfit("it has moments, the options record none");
    }
    // A state saved over ranks has no overlaps (they start here); over ranks a saved
    // state's overlaps are dropped (docs/overlaps.md).
    if (overlaps.on() && !s.overlaps.counts.empty()) restore_overlaps(space, overlaps, s.overlaps);
    // The same for the magnetisation per temperature.
    if (magnetization.on() && !s.magnetization.counts.empty()) {
      restore_magnetization(space, magnetization, s.magnetization);
    }
    traces.restore(s.traces, link, n_chains());
    space.fence();
    inputs.back().fingerprint = state_fingerprint(s);
  }
};

}  // namespace hamon::detail

namespace hamon {

template <class ExecutionSpace, class Value>
Sampler<ExecutionSpace, Value>::Sampler(const ExecutionSpace& space, const SpinModel& model,
                                        const NrptOptions& options, TraceSink* sink,
                                        MachineExchange* exchange)
    : Sampler(space, (validate_options(options, model.n_nodes()), make_device_model(space, model)),
              options, sink, exchange) {}

template <class ExecutionSpace, class Value>
Sampler<ExecutionSpace, Value>::Sampler(const ExecutionSpace& space,
                                        const DeviceModel<memory_space>& model,
                                        const NrptOptions& options, TraceSink* sink,
                                        MachineExchange* exchange)
    : core_(std::make_unique<detail::SamplerCore<ExecutionSpace, Value>>(space, model, options,
                                                                         sink, exchange)) {}

template <class ExecutionSpace, class Value>
Sampler<ExecutionSpace, Value>::Sampler(const ExecutionSpace& space, const SpinModel& model,
                                        const NrptOptions& options, const SamplerState& state,
                                        TraceSink* sink, MachineExchange* exchange)
    : Sampler(space, model, options, sink, exchange) {
  core_->restore(state);
}

template <class ExecutionSpace, class Value>
Sampler<ExecutionSpace, Value>::Sampler(const ExecutionSpace& space,
                                        const DeviceModel<memory_space>& model,
                                        const NrptOptions& options, const SamplerState& state,
                                        TraceSink* sink, MachineExchange* exchange)
    : Sampler(space, model, options, sink, exchange) {
  core_->restore(state);
}

template <class ExecutionSpace, class Value>
Sampler<ExecutionSpace, Value>::Sampler(const ExecutionSpace& space, const SpinModel& model,
                                        const NrptOptions& options, const Checkpoint& checkpoint,
                                        TraceSink* sink, MachineExchange* exchange)
    : Sampler(space, (validate_options(options, model.n_nodes()), make_device_model(space, model)),
              options, checkpoint, sink, exchange) {}

template <class ExecutionSpace, class Value>
Sampler<ExecutionSpace, Value>::Sampler(const ExecutionSpace& space,
                                        const DeviceModel<memory_space>& model,
                                        const NrptOptions& options, const Checkpoint& checkpoint,
                                        TraceSink* sink, MachineExchange* exchange)
    : Sampler(space, model, options, sink, exchange) {
  check_identity(checkpoint.identity, identity(), "the checkpoint");
  core_->restore(checkpoint.state);
}

template <class ExecutionSpace, class Value>
Sampler<ExecutionSpace, Value>::~Sampler() = default;

template <class ExecutionSpace, class Value>
std::int64_t Sampler<ExecutionSpace, Value>::run(std::int64_t n_rounds,
                                                 const std::function<bool()>& should_stop) {
  return core_->run(n_rounds, should_stop);
}

template <class ExecutionSpace, class Value>
std::int64_t Sampler<ExecutionSpace, Value>::rounds_done() const {
  return core_->rounds_done();
}

template <class ExecutionSpace, class Value>
std::int64_t Sampler<ExecutionSpace, Value>::measured_rounds() const {
  return core_->measured();
}

template <class ExecutionSpace, class Value>
NrptResult Sampler<ExecutionSpace, Value>::result() {
  return core_->result();
}

template <class ExecutionSpace, class Value>
SamplerStateOf<Value> Sampler<ExecutionSpace, Value>::state() {
  return core_->snapshot();
}

template <class ExecutionSpace, class Value>
const NrptOptions& Sampler<ExecutionSpace, Value>::options() const {
  return core_->options;
}

template <class ExecutionSpace, class Value>
CheckpointIdentity Sampler<ExecutionSpace, Value>::identity() const {
  return identity_of(core_->model.fingerprint, core_->options);
}

template <class ExecutionSpace, class Value>
std::string Sampler<ExecutionSpace, Value>::execution_space() const {
  return ExecutionSpace::name();
}

template <class ExecutionSpace, class Value>
void Sampler<ExecutionSpace, Value>::start_from(const SamplerState& configuration) {
  core_->start_from(configuration);
}

}  // namespace hamon
