// SPDX-License-Identifier: Apache-2.0
#pragma once
// The DEO swap pass (swap.hpp) over the ladders of a ChainState: one ladder of the sampler,
// several of the same betas (the sampler's replicas, training's persistent chains).
//
// What the pass decides is the same for all: in ladder l, pair (i, i + 1) with
// i = round mod 2, round mod 2 + 2, ... swaps with probability
// min(1, exp((beta_{i+1} - beta_i) (E at i+1 - E at i))), from word 0 of Philox at counter
// (i, l, swap stream, round); the pair's counters (ChainState::attempted / accepted, per
// pair, pooled over the ladders) count it. Chain i of ladder l is machine
// machine_of_chain(l * n_rungs + i). Two things are the caller's, as small types:
//   Energies  gap(lo, hi): E of machine hi minus E of machine lo, as a double. The sampler's
//             are its fixed-point energies (FixedPointEnergies); training keeps doubles
//             (train/detail/rbm_row_swaps.hpp says why).
//   Moves     what a swap moves. SwapLabels: the two machines exchange temperature labels
//             (the sampler: a machine's random stream follows the machine). A type with
//             moves_states = true swaps the machines' states instead and leaves the labels
//             (training: its random streams follow the row, and its gradient reads the
//             beta = 1 chains as fixed rows); swap_states(lo, hi) does it, so every
//             machine's state must be in this process.
//             work_per_pair() sizes the pass for launch (0: bookkeeping, on the calling
//             thread of a host space).
// The pairs of one pass are disjoint, so they are decided and applied at once.

#include <Kokkos_Core.hpp>
#include <cstdint>

#include "hamon/core/families/energy.hpp"
#include "hamon/core/state/chain_state.hpp"
#include "hamon/core/util/counter_rng.hpp"
#include "hamon/core/util/deterministic_math.hpp"
#include "hamon/core/util/launch.hpp"

namespace hamon::detail {

/// Whether pair (i, i + 1) of `ladder` swaps in `round`.
KOKKOS_INLINE_FUNCTION bool deo_accepts(double beta_i, double beta_next, double energy_gap,
                                        std::uint64_t seed, std::int32_t i, std::int32_t ladder,
                                        std::uint32_t round) {
  const double log_ratio = (beta_next - beta_i) * energy_gap;
  const double u = to_unit_interval(philox4(seed, static_cast<std::uint32_t>(i),
                                            static_cast<std::uint32_t>(ladder),
                                            static_cast<std::uint32_t>(Stream::swap), round)
                                        .w[0]);
  return log_ratio >= 0.0 || u < deterministic_exp(log_ratio);
}

/// The sampler's energies: ChainState::energy_fixed, the gap taken in fixed point.
template <class MemorySpace>
struct FixedPointEnergies {
  Kokkos::View<std::int64_t*, MemorySpace> energy_fixed;
  int fraction_bits;

  KOKKOS_INLINE_FUNCTION double gap(std::int32_t lo, std::int32_t hi) const {
    // Wrapping subtraction: the same as hi - lo in range, and defined when one of them is
    // the out-of-range marker (util/fixed_point.hpp), whose run then ends with an error.
    const auto difference = static_cast<std::int64_t>(static_cast<std::uint64_t>(energy_fixed(hi)) -
                                                      static_cast<std::uint64_t>(energy_fixed(lo)));
    return fixed_point_energy(difference, fraction_bits);
  }
};

/// The sampler's swaps: the machines exchange temperature labels.
struct SwapLabels {
  static constexpr bool moves_states = false;
  std::int64_t work_per_pair() const { return 0; }
};

/// The ladders of a ChainState (n_machines / n_chains of them, the counters shared).
template <class MemorySpace, class Energies, class Moves>
struct ChainStateLadder {
  template <class T>
  using view = Kokkos::View<T*, MemorySpace>;
  // Only the Views the pass touches: the functor is built per pass, and each View copy
  // costs a reference count on the host (a whole ChainState is a measurable share of a
  // pass of a few dozen pairs).
  view<double> betas;
  view<std::int32_t> machine_of_chain;
  view<std::int32_t> chain_of_machine;
  view<std::int64_t> attempted;
  view<std::int64_t> accepted;
  Energies energies;
  Moves moves;
  std::int32_t n_rungs;
  bool shared_counters;  // several ladders' pairs run at once: count atomically

  template <class ExecutionSpace, class Value>
  ChainStateLadder(const ChainState<ExecutionSpace, Value>& state, const Energies& e,
                   const Moves& m)
      : betas(state.betas),
        machine_of_chain(state.machine_of_chain),
        chain_of_machine(state.chain_of_machine),
        attempted(state.attempted),
        accepted(state.accepted),
        energies(e),
        moves(m),
        n_rungs(static_cast<std::int32_t>(state.betas.extent(0))),
        shared_counters(state.n_machines() > n_rungs) {}

  std::int32_t n_ladders() const { return n_rungs > 0 ? n_machines() / n_rungs : 0; }
  std::int32_t n_machines() const { return static_cast<std::int32_t>(chain_of_machine.extent(0)); }

  KOKKOS_INLINE_FUNCTION double beta(std::int32_t i) const { return betas(i); }
  KOKKOS_INLINE_FUNCTION double energy_gap(std::int32_t i, std::int32_t l) const {
    const std::int32_t at = l * n_rungs + i;
    return energies.gap(machine_of_chain(at), machine_of_chain(at + 1));
  }
  KOKKOS_INLINE_FUNCTION void count(std::int32_t i, bool accepted_swap) const {
    if (shared_counters) {
      Kokkos::atomic_add(&attempted(i), std::int64_t(1));
      if (accepted_swap) Kokkos::atomic_add(&accepted(i), std::int64_t(1));
      return;
    }
    attempted(i) += 1;
    if (accepted_swap) accepted(i) += 1;
  }
  KOKKOS_INLINE_FUNCTION void exchange(std::int32_t i, std::int32_t l) const {
    const std::int32_t at = l * n_rungs + i;
    const std::int32_t m_lo = machine_of_chain(at);
    const std::int32_t m_hi = machine_of_chain(at + 1);
    if constexpr (Moves::moves_states) {
      moves.swap_states(m_lo, m_hi);
    } else {
      machine_of_chain(at) = m_hi;
      machine_of_chain(at + 1) = m_lo;
      chain_of_machine(m_hi) = i;
      chain_of_machine(m_lo) = i + 1;
    }
  }
};

/// Work item p: ladder p mod n_ladders, pair parity + 2 (p / n_ladders).
template <class Ladder>
struct DeoPass {
  Ladder ladder;
  std::uint64_t seed;
  std::uint32_t round;
  std::int32_t parity;
  std::int32_t n_ladders;

  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t p) const {
    const auto l = static_cast<std::int32_t>(p % n_ladders);
    const auto i = static_cast<std::int32_t>(parity + 2 * (p / n_ladders));
    const bool accepted =
        deo_accepts(ladder.beta(i), ladder.beta(i + 1), ladder.energy_gap(i, l), seed, i, l, round);
    ladder.count(i, accepted);
    if (accepted) ladder.exchange(i, l);
  }
};

/// Where a machine is in its round trip (ChainState::trip_phase).
enum TripPhase : std::int8_t {
  trip_unstarted = 0,  // not at chain 0 since the run started: no trip can be counted yet
  trip_ascending = 1,  // left chain 0, the coldest chain not reached since
  trip_descending = 2  // reached the coldest chain after chain 0: back at 0 is a round trip
};

template <class ExecutionSpace, class Value>
struct IndexProcess {
  ChainState<ExecutionSpace, Value> state;
  std::int32_t top;

  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t m) const {
    const std::int32_t chain = state.chain_of_machine(m);
    const std::int8_t phase = state.trip_phase(m);
    if (chain == 0) {
      if (phase == trip_descending) state.round_trips(m) += 1;
      state.trip_phase(m) = trip_ascending;
    } else if (chain == top && phase == trip_ascending) {
      state.trip_phase(m) = trip_descending;
      state.restarts(m) += 1;
    }
  }
};

}  // namespace hamon::detail
