// SPDX-License-Identifier: Apache-2.0
#pragma once
// The sampler's best-state tracker: per machine, the lowest fixed-point model energy E it has
// had after a round's sweeps, the round, chain and beta of that round, the run's round trips then
// (for "round trips since the last improvement") and a copy of its variables. Every round of
// a run, burn-in included, calls track() once the round's energies are in every rank's state
// and before the swap pass moves the machines' chains.
//
// The energy is the model's E even on the annealing path, whose swaps see E - E_ref: a search
// is for the model's minimum, and E - E_ref ranks states differently (its minimum need not be
// E's, and a continuous model's is unbounded below). The round loop then scores every machine
// a second time into model_energy (round_loop.hpp).
//
// The compare is of the fixed-point energies, so exact; a tie keeps the earlier state. Its
// kernels: hamon::best_states (the compare, per machine) and hamon::best_states_copy (the
// improved machines' variables, in a round where one improved). The records are replicated on every
// rank (each rank holds every machine's energy), the copies of the variables live where the
// machine's variables do: each rank its block, gathered to rank 0 to save. Like the round loop it
// is written over the variables' storage type, so one tracker serves every family.

#include <Kokkos_Core.hpp>
#include <cstddef>
#include <cstdint>
#include <string>
#include <tuple>
#include <type_traits>
#include <vector>

#include "hamon/core/sampler/detail/machine_rows.hpp"
#include "hamon/core/sampler/detail/rank_link.hpp"
#include "hamon/core/sampler/detail/restore_checks.hpp"
#include "hamon/core/sampler/nrpt.hpp"
#include "hamon/core/state/best_records.hpp"
#include "hamon/core/state/chain_state.hpp"
#include "hamon/core/state/sampler_state.hpp"
#include "hamon/core/util/fixed_point.hpp"
#include "hamon/core/util/host_copies.hpp"
#include "hamon/core/util/view_fields.hpp"

namespace hamon::detail {

template <class ExecutionSpace, class Value = std::int8_t>
struct BestStatesIn : BestRecords<ViewsIn<typename ExecutionSpace::memory_space>::template type> {
  using Records = BestRecords<ViewsIn<typename ExecutionSpace::memory_space>::template type>;
  using saved_state = BestStatesOf<Value>;
  typename ChainState<ExecutionSpace, Value>::spin_view spins;  // rows of the local machines
  Kokkos::View<std::int8_t*, typename ExecutionSpace::memory_space> improved;  // in this round
  // How many local machines improved in this round. A counter rather than a parallel_reduce:
  // a reduction makes the host backends allocate scratch of their own, which the sampler's
  // memory check (space_memory.hpp) cannot count.
  Kokkos::View<std::int64_t, typename ExecutionSpace::memory_space> improved_count;
  // On the annealing path: every machine's model energy E of this round (fixed point, every
  // rank's), which the compare reads instead of the swap energy state.energy_fixed.
  Kokkos::View<std::int64_t*, typename ExecutionSpace::memory_space> model_energy;

  /// Allocated as "hamon::best_" + the name.
  template <class Self>
  static auto fields(Self& b) {
    using RecordsOfSelf = std::conditional_t<std::is_const_v<Self>, const Records, Records>;
    return std::make_tuple(field("records", static_cast<RecordsOfSelf&>(b)),
                           field("spins", b.spins), field("improved", b.improved),
                           field("improved_count", b.improved_count),
                           field("model_energy", b.model_energy));
  }

  /// The tracker of `n_machines` machines, `n_local` of them with variables here (of
  /// `n_nodes` nodes each), planned (util/view_fields.hpp): what start() allocates and the
  /// memory check counts.
  static BestStatesIn planned(std::int64_t n_machines, std::int64_t n_local, std::int64_t n_nodes) {
    BestStatesIn b;
    for_each_field(static_cast<Records&>(b), [&](const auto& f) { plan(f.value, n_machines); });
    plan(b.improved, n_machines);
    plan(b.improved_count);
    plan(b.model_energy, n_machines);
    plan_unfilled(b.spins, n_local, n_nodes);
    return b;
  }

  /// Nothing seen yet; the copies hold the machines' start (valid variables of the family, so a
  /// state saved before the first round restores like any other).
  void start(const ExecutionSpace& space, const ChainState<ExecutionSpace, Value>& state) {
    // Allocated and initialised on the caller's instance, like the chain state's views.
    *this = planned(state.n_machines(), state.n_local_machines(), state.n_nodes());
    allocate_planned(space, *this, "hamon::best_");
    Kokkos::deep_copy(space, this->energy_fixed, kNoBestEnergy);
    Kokkos::deep_copy(space, this->round, -1);
    Kokkos::deep_copy(space, this->chain, -1);
    Kokkos::deep_copy(space, spins, state.spins);
  }

  /// The round's energies against the best so far (round: the round's number, from 0):
  /// model_energy's on the annealing path (`annealed`), else the state's.
  void track(const ExecutionSpace& space, const ChainState<ExecutionSpace, Value>& state,
             std::int64_t round_number, bool annealed) const {
    const auto energy = annealed ? model_energy : state.energy_fixed;
    const auto chain_of_machine = state.chain_of_machine;
    const auto betas = state.betas;
    const auto trips = state.round_trips;
    const auto best_energy = this->energy_fixed;
    const auto best_round = this->round;
    const auto best_chain = this->chain;
    const auto best_beta = this->beta;
    const auto best_trips = this->round_trips_at;
    const auto flags = improved;
    const std::int64_t first = state.first_machine;
    const auto n_local = static_cast<std::int64_t>(state.spins.extent(0));
    const auto n_machines = static_cast<std::int32_t>(energy.extent(0));
    // The compare, per machine; how many of this rank's machines improved comes back to the
    // host, so that the copy (a pass over their variables) runs only in a round that needs it:
    // once the run settles, improvements are rare.
    const auto count = improved_count;
    Kokkos::deep_copy(space, count, 0);
    Kokkos::parallel_for(
        "hamon::best_states", Kokkos::RangePolicy<ExecutionSpace>(space, 0, n_machines),
        KOKKOS_LAMBDA(const std::int32_t m) {
          const bool better = energy(m) < best_energy(m);
          flags(m) = better ? 1 : 0;
          if (!better) return;
          best_energy(m) = energy(m);
          best_round(m) = round_number;
          const std::int32_t c = chain_of_machine(m);
          best_chain(m) = c;
          best_beta(m) = betas(c);
          std::int64_t total = 0;
          for (std::int32_t k = 0; k < n_machines; ++k) total += trips(k);
          best_trips(m) = total;
          if (m >= first && m < first + n_local) Kokkos::atomic_add(&count(), std::int64_t(1));
        });
    std::int64_t local_improved = 0;
    Kokkos::deep_copy(space, local_improved, count);
    space.fence();
    if (local_improved == 0) return;
    const auto variables = state.spins;
    const auto best_spins = spins;
    // Per node, along its machines (LayoutLeft: side by side), a select rather than a branch
    // so that the host loop vectorises.
    const auto n_nodes = static_cast<std::int64_t>(variables.extent(1));
    Kokkos::parallel_for(
        "hamon::best_states_copy", Kokkos::RangePolicy<ExecutionSpace>(space, 0, n_nodes),
        KOKKOS_LAMBDA(const std::int64_t i) {
          for (std::int64_t m = 0; m < n_local; ++m) {
            best_spins(m, i) = flags(first + m) != 0 ? variables(m, i) : best_spins(m, i);
          }
        });
  }

  /// The run's round-trip counters restart (an adaptation segment, the end of burn-in): the
  /// trips counted since an improvement are then those after the restart.
  void counters_reset(const ExecutionSpace& space) const {
    Kokkos::deep_copy(space, this->round_trips_at, 0);
  }

  /// The records, and the copies of every machine on rank 0.
  void save(const ExecutionSpace& space, saved_state& b, const RankLink& link) const {
    for_each_field_pair(fields_of<const Records>(*this),
                        fields_of<typename saved_state::Records>(b),
                        [&](const auto& view, const auto& saved) {
                          using T = typename std::decay_t<decltype(saved.value)>::value_type;
                          saved.value = to_host_vector<T>(space, view.value);
                        });
    b.spins = gathered_rows<Value>(space, spins, link);
  }

  /// The inverse of save, each field checked first (the variables by the caller, who knows the
  /// family).
  void restore(const ExecutionSpace& space, const saved_state& b, std::int64_t first_machine,
               std::int64_t rounds_done, std::int32_t n_machines, std::int32_t n_chains) {
    // Every replica's machines have a best state; its chain is the rung within its ladder.
    check_best_records(b, rounds_done, n_machines, n_chains);
    if (b.spins.size() != static_cast<std::size_t>(n_machines) * spins.extent(1)) {
      state_misfit("the best states' variables have the wrong size");
    }
    for_each_field_pair(fields_of<const Records>(*this),
                        fields_of<const typename saved_state::Records>(b),
                        [&](const auto& view, const auto& saved) {
                          restore_view(space, view.value, saved.value, saved.name);
                        });
    restore_rows(space, spins, b.spins, first_machine, "the best states' variables");
  }
};
static_assert(field_list_is_complete<BestStatesIn<Kokkos::DefaultHostExecutionSpace>>());

/// The machine that holds the run's best state: the lowest energy, of equal ones the earliest
/// found (so the round trips since it count from the first time the run reached it), then the
/// lowest machine. -1 before the first round.
template <class Value>
std::int32_t overall_best(const BestStatesOf<Value>& b) {
  std::int32_t best = -1;
  for (std::size_t m = 0; m < b.energy_fixed.size(); ++m) {
    if (b.round[m] < 0) continue;
    const auto k = static_cast<std::size_t>(best);
    if (best < 0 || b.energy_fixed[m] < b.energy_fixed[k] ||
        (b.energy_fixed[m] == b.energy_fixed[k] && b.round[m] < b.round[k])) {
      best = static_cast<std::int32_t>(m);
    }
  }
  return best;
}

/// The result's best state from the saved best states (rank 0's, which hold every machine's
/// variables) and the run's round trips so far.
template <class Value>
void add_best_to_result(NrptResult& r, const BestStatesOf<Value>& b, std::int64_t n_nodes,
                        int energy_fraction_bits) {
  for (std::size_t m = 0; m < b.energy_fixed.size(); ++m) {
    r.best_energies.push_back(
        b.round[m] < 0 ? 0.0 : fixed_point_energy(b.energy_fixed[m], energy_fraction_bits));
  }
  const std::int32_t best = overall_best(b);
  if (best < 0) return;
  const auto m = static_cast<std::size_t>(best);
  r.best_energy = r.best_energies[m];
  r.best_round = b.round[m];
  r.best_chain = b.chain[m];
  r.best_beta = b.beta[m];
  r.round_trips_since_best = r.total_round_trips - b.round_trips_at[m];
  const auto n = static_cast<std::size_t>(n_nodes);
  if (b.spins.size() >= (m + 1) * n) {
    stored_best_state(r, Value{})
        .assign(b.spins.begin() + static_cast<std::ptrdiff_t>(m * n),
                b.spins.begin() + static_cast<std::ptrdiff_t>((m + 1) * n));
  }
}

}  // namespace hamon::detail
