// SPDX-License-Identifier: Apache-2.0
#pragma once
// The sampler's round loop: the machines' state in the execution space (ChainState), the
// round number, and what one round does to them: n_expl sweeps of the model's family
// (families/model_family.hpp), the family's energies, the best states (best_states.hpp), one DEO
// swap pass and the index process.
// Its state is the round, the variables, the machine records and the best states of
// SamplerStateOf<Value>;
// the variables of a run over ranks are gathered to rank 0 to save and each rank restores
// its own block. Nothing here depends on the family or on the variables' type.

#include <Kokkos_Core.hpp>
#include <cstdint>
#include <limits>
#include <string>
#include <type_traits>
#include <vector>

#include "hamon/core/families/family_state.hpp"
#include "hamon/core/families/model_family.hpp"
#include "hamon/core/model/device_model.hpp"
#include "hamon/core/sampler/detail/best_states.hpp"
#include "hamon/core/sampler/detail/machine_rows.hpp"
#include "hamon/core/sampler/detail/rank_link.hpp"
#include "hamon/core/sampler/detail/restore_checks.hpp"
#include "hamon/core/sampler/nrpt.hpp"
#include "hamon/core/state/chain_state.hpp"
#include "hamon/core/state/cluster_scratch.hpp"
#include "hamon/core/state/sampler_state.hpp"
#include "hamon/core/tempering/swap.hpp"
#include "hamon/core/util/host_copies.hpp"

namespace hamon::detail {

/// Rounds are a 32-bit word of the random-number counter.
inline constexpr std::int64_t kMaxRounds = std::numeric_limits<std::uint32_t>::max();

template <class ExecutionSpace, class Value = std::int8_t>
struct RoundLoop {
  using memory_space = typename ExecutionSpace::memory_space;
  using saved_state = SamplerStateOf<Value>;

  ModelFamily<ExecutionSpace, Value> family;
  FamilyState<ExecutionSpace, Value> state;
  BestStatesIn<ExecutionSpace, Value> best;  // started by start_best once `state` is
  std::int64_t rounds_done = 0;              // burn-in included
  /// With cluster moves: the family's scratch lists (derived, not saved); empty: none.
  ClusterScratch<ExecutionSpace> cluster_lists;

  /// The model sampled on the annealing path (DeviceModel::annealed): then the best states
  /// need the model's energies beside the swap energies (model_energies).
  bool annealed = false;

  void start_best(const ExecutionSpace& space, const DeviceModel<memory_space>& model) {
    annealed = model.annealed;
    best.start(space, state);
  }

  /// The round's energies into the best states (every rank's energies in `state`, and on the
  /// annealing path in best.model_energy).
  void track_best(const ExecutionSpace& space) const {
    best.track(space, state, rounds_done, annealed);
  }

  std::int32_t n_chains() const { return static_cast<std::int32_t>(state.betas.extent(0)); }

  /// The sweeps of round `round`, the cluster moves (when on), then (when `energies`) every
  /// local machine's energy.
  void sweep(const ExecutionSpace& space, const DeviceModel<memory_space>& model,
             const NrptOptions& options, bool energies) {
    const auto round = static_cast<std::uint32_t>(rounds_done);
    for (std::int32_t sweep = 0; sweep < options.n_expl; ++sweep) {
      family.sweep(space, model, state, options.seed, round, static_cast<std::uint32_t>(sweep),
                   HostKernel::best);
    }
    if (cluster_lists.extent(0) > 0) {
      family.cluster_move(space, model, state, cluster_lists, options.seed, round);
    }
    if (energies) family.energies(space, model, state);
    if (energies && model.annealed) model_energies(space, model);
  }

  /// Every local machine's model energy E into best.model_energy: the family's own energy
  /// pass on the model off the path (the same terms, in the same fixed point, as a run without
  /// it scores), into a shallow copy of the state whose energies are best.model_energy. A
  /// second pass rather than E_ref beside E - E_ref keeps the families' kernels as they are;
  /// it runs on the annealing path only, whose sweeps (one exp per update) dwarf it.
  void model_energies(const ExecutionSpace& space, const DeviceModel<memory_space>& model) const {
    DeviceModel<memory_space> plain = model;
    plain.annealed = false;
    FamilyState<ExecutionSpace, Value> scored = state;
    scored.energy_fixed = best.model_energy;
    family.energies(space, plain, scored);
  }

  /// The ranks' energies of this round into every rank's state.
  void share_energies(const ExecutionSpace& space, RankLink& link, bool energies, bool vote,
                      bool& any_vote) {
    std::vector<std::int64_t> mine;
    if (energies) mine = to_host_vector<std::int64_t>(space, state.local_energy_fixed());
    const auto all = link.exchange_round(std::move(mine), energies, vote, any_vote);
    if (energies) copy_from_host(space, state.energy_fixed, all);
    if (energies && annealed) {
      // The model energies as well: the best states are replicated on every rank.
      bool ignored = false;
      const auto model_all =
          link.exchange_round(to_host_vector<std::int64_t>(
                                  space, Kokkos::subview(best.model_energy, state.local_range())),
                              true, false, ignored);
      copy_from_host(space, best.model_energy, model_all);
    }
  }

  /// One DEO pass (even or odd pairs by the round's parity) and the index process.
  void swap(const ExecutionSpace& space, const DeviceModel<memory_space>& model,
            const NrptOptions& options) {
    deo_swap_pass(space, state, options.seed, static_cast<std::uint32_t>(rounds_done),
                  model.energy_fraction_bits);
    update_index_process(space, state);
  }

  void reset_swap_counters(const ExecutionSpace& space) {
    Kokkos::deep_copy(space, state.attempted, 0);
    Kokkos::deep_copy(space, state.accepted, 0);
    Kokkos::deep_copy(space, state.round_trips, 0);
    Kokkos::deep_copy(space, state.restarts, 0);
    best.counters_reset(space);
  }

  /// The round, the shape, the spins (every machine's, on rank 0), the machine records and the
  /// best states.
  void save(const ExecutionSpace& space, saved_state& s, const RankLink& link) const {
    s.rounds_done = rounds_done;
    s.n_machines = state.n_machines();
    s.n_nodes = state.n_nodes();
    s.spins = gathered_rows<Value>(space, state.spins, link);
    for_each_field_pair(fields_of(state), fields_of<typename saved_state::Records>(s),
                        [&](const auto& view, const auto& saved) {
                          using T = typename std::decay_t<decltype(saved.value)>::value_type;
                          saved.value = to_host_vector<T>(space, view.value);
                        });
    best.save(space, s.best, link);
  }

  /// Before anything is restored: a state of this loop's shape (machines, nodes, ladder
  /// length, a round the counter can take), whose values the kernels index by or decide from
  /// fit (restore_checks.hpp). The sizes of the rest are checked as they are restored.
  void check(const saved_state& s, const DeviceModel<memory_space>& model) const {
    const std::int32_t n_replicas = state.n_machines() / n_chains();
    if (s.n_machines != state.n_machines()) {
      state_misfit(
          std::to_string(s.n_machines) + " machines, the options have " +
          std::to_string(n_chains()) + " chains" +
          (n_replicas > 1 ? " in " + std::to_string(n_replicas) + " replicas" : std::string()));
    }
    if (s.n_nodes != model.n_nodes) {
      state_misfit(std::to_string(s.n_nodes) + " nodes, the model has " +
                   std::to_string(model.n_nodes));
    }
    if (s.betas.size() != static_cast<std::size_t>(n_chains())) {
      state_misfit("the ladder has another length");
    }
    if (s.rounds_done < 0 || s.rounds_done > kMaxRounds) state_misfit("impossible round number");
    check_permutations(s.chain_of_machine, s.machine_of_chain, n_chains(), n_replicas);
    check_trip_phases(s.trip_phase);
    check_variables(s.spins, family, model);
    check_variables(s.best.spins, family, model);
  }

  /// The spins of this state's machines (all of them in one process) from a whole state.
  void restore_spins(const ExecutionSpace& space, const saved_state& s) {
    if (s.spins.size() != static_cast<std::size_t>(s.n_machines * s.n_nodes)) {
      state_misfit("the spins have the wrong size");
    }
    restore_rows(space, state.spins, s.spins, state.first_machine, "the spins");
  }

  /// The inverse of save (the caller has checked the shape and restored the ladder).
  void restore(const ExecutionSpace& space, const saved_state& s) {
    rounds_done = s.rounds_done;
    restore_spins(space, s);
    for_each_field_pair(fields_of(state), fields_of<const typename saved_state::Records>(s),
                        [&](const auto& view, const auto& saved) {
                          restore_view(space, view.value, saved.value, saved.name);
                        });
    best.restore(space, s.best, state.first_machine, rounds_done, state.n_machines(), n_chains());
  }
};

}  // namespace hamon::detail
