// SPDX-License-Identifier: Apache-2.0
#pragma once
// The DEO swap pass (swap.hpp) for any set of ladders: the sampler's one ladder of a
// ChainState, and training's persistent chains, several ladders of the same betas.
//
// What the pass decides is the same for both: in ladder l, pair (i, i + 1) with
// i = round mod 2, round mod 2 + 2, ... swaps with probability
// min(1, exp((beta_{i+1} - beta_i) (E at i+1 - E at i))), from word 0 of Philox at counter
// (i, l, swap stream, round). What differs is behind a Ladders type:
//   beta(i, l)              the beta of rung i;
//   energy_gap(i, l)        E at rung i+1 minus E at rung i, as a double (the sampler's from
//                           fixed-point energies, training's from its double energies);
//   count(i, accepted)      the pair's swap counters (one ladder writes them without
//                           atomics; several share them);
//   exchange(i, l)          the swap itself (the sampler exchanges temperature labels;
//                           training moves the states, whose random streams follow the
//                           slot, so that its target rung stays in the last rows).
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

/// Work item p: ladder p mod n_ladders, pair parity + 2 (p / n_ladders).
template <class Ladders>
struct DeoPass {
  Ladders ladders;
  std::uint64_t seed;
  std::uint32_t round;
  std::int32_t parity;
  std::int32_t n_ladders;

  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t p) const {
    const auto ladder = static_cast<std::int32_t>(p % n_ladders);
    const auto i = static_cast<std::int32_t>(parity + 2 * (p / n_ladders));
    const bool accepted = deo_accepts(ladders.beta(i, ladder), ladders.beta(i + 1, ladder),
                                      ladders.energy_gap(i, ladder), seed, i, ladder, round);
    ladders.count(i, accepted);
    if (accepted) ladders.exchange(i, ladder);
  }
};

/// One DEO pass of `round` over `n_ladders` ladders of `n_rungs` rungs, as the kernel
/// `label`; `work_per_pair` sizes it for launch (0: bookkeeping, on the calling thread of a
/// host space).
template <class ExecutionSpace, class Ladders>
void deo_pass(const ExecutionSpace& space, const char* label, const Ladders& ladders,
              std::int32_t n_rungs, std::int32_t n_ladders, std::uint64_t seed, std::uint32_t round,
              std::int64_t work_per_pair) {
  const auto parity = static_cast<std::int32_t>(round % 2u);
  const std::int32_t n_pairs = n_rungs - 1 > parity ? (n_rungs - 1 - parity + 1) / 2 : 0;
  if (n_pairs == 0 || n_ladders < 1) return;
  const std::int64_t items = static_cast<std::int64_t>(n_pairs) * n_ladders;
  launch(space, label, items, items * work_per_pair,
         DeoPass<Ladders>{ladders, seed, round, parity, n_ladders});
}

/// The sampler's ladders: chain i of ladder l is machine_of_chain(l * n_rungs + i) of a
/// ChainState (one ladder per replica), energies in fixed point, swaps exchange temperature
/// labels within the ladder. The swap counters are pooled over the ladders.
template <class MemorySpace>
struct ChainStateLadder {
  template <class T>
  using view = Kokkos::View<T*, MemorySpace>;
  // Only the Views the pass touches: the functor is built per pass, and each View copy
  // costs a reference count on the host (a whole ChainState is a measurable share of a
  // pass of a few dozen pairs).
  view<double> betas;
  view<std::int64_t> energy_fixed;
  view<std::int32_t> machine_of_chain;
  view<std::int32_t> chain_of_machine;
  view<std::int64_t> attempted;
  view<std::int64_t> accepted;
  int fraction_bits;
  std::int32_t n_rungs;
  bool shared_counters;  // several ladders' pairs run at once: count atomically

  template <class ExecutionSpace, class Value>
  ChainStateLadder(const ChainState<ExecutionSpace, Value>& state, int bits)
      : betas(state.betas),
        energy_fixed(state.energy_fixed),
        machine_of_chain(state.machine_of_chain),
        chain_of_machine(state.chain_of_machine),
        attempted(state.attempted),
        accepted(state.accepted),
        fraction_bits(bits),
        n_rungs(static_cast<std::int32_t>(state.betas.extent(0))),
        shared_counters(state.n_machines() > n_rungs) {}

  std::int32_t n_ladders() const { return n_rungs > 0 ? n_machines() / n_rungs : 0; }
  std::int32_t n_machines() const { return static_cast<std::int32_t>(chain_of_machine.extent(0)); }

  KOKKOS_INLINE_FUNCTION double beta(std::int32_t i, std::int32_t) const { return betas(i); }
  KOKKOS_INLINE_FUNCTION double energy_gap(std::int32_t i, std::int32_t l) const {
    const std::int32_t at = l * n_rungs + i;
    return fixed_point_energy(
        energy_fixed(machine_of_chain(at + 1)) - energy_fixed(machine_of_chain(at)), fraction_bits);
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
    machine_of_chain(at) = m_hi;
    machine_of_chain(at + 1) = m_lo;
    chain_of_machine(m_hi) = i;
    chain_of_machine(m_lo) = i + 1;
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
