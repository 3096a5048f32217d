// SPDX-License-Identifier: Apache-2.0
#pragma once
// Deterministic even-odd (DEO) swaps and the index process (Syed et al. 2022).
//
// Round r attempts pairs (i, i+1) with i = r mod 2, r mod 2 + 2, ...: one parity per
// round, never both (two passes would make the scheme reversible again). A pair swaps
// with probability min(1, exp((beta_{i+1} - beta_i) (E(x at i+1) - E(x at i)))), one
// uniform per pair from Philox at counter (i, 0, swap stream, round). The pairs of one
// pass are disjoint, so they are decided and applied at once.

#include <Kokkos_Core.hpp>
#include <cmath>
#include <cstdint>

#include "hamon/core/chain_state.hpp"
#include "hamon/core/energy.hpp"
#include "hamon/core/impl/counter_rng.hpp"
#include "hamon/core/impl/deterministic_math.hpp"
#include "hamon/core/impl/launch.hpp"

namespace hamon {

/// The log acceptance ratio of swapping the states at chains i and i+1.
KOKKOS_INLINE_FUNCTION double swap_log_ratio(double beta_i, double beta_next, double energy_i,
                                             double energy_next) {
  return (beta_next - beta_i) * (energy_next - energy_i);
}

namespace detail {

template <class ExecutionSpace, class Value>
struct DeoSwapPass {
  ChainState<ExecutionSpace, Value> state;
  std::uint64_t seed;
  std::uint32_t round;
  std::int32_t parity;
  int fraction_bits;

  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t p) const {
    const auto i = static_cast<std::int32_t>(parity + 2 * p);
    const std::int32_t m_lo = state.machine_of_chain(i);
    const std::int32_t m_hi = state.machine_of_chain(i + 1);
    const double energy_gap =
        fixed_point_energy(state.energy_fixed(m_hi) - state.energy_fixed(m_lo), fraction_bits);
    const double log_ratio = swap_log_ratio(state.betas(i), state.betas(i + 1), 0.0, energy_gap);
    const double u = to_unit_interval(philox4(seed, static_cast<std::uint32_t>(i), 0u,
                                              static_cast<std::uint32_t>(Stream::swap), round)
                                          .w[0]);
    state.attempted(i) += 1;
    if (log_ratio >= 0.0 || u < deterministic_exp(log_ratio)) {
      state.accepted(i) += 1;
      state.machine_of_chain(i) = m_hi;
      state.machine_of_chain(i + 1) = m_lo;
      state.chain_of_machine(m_hi) = i;
      state.chain_of_machine(m_lo) = i + 1;
    }
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

}  // namespace detail

/// One DEO pass for `round` (parity round % 2) on the energies in state.energy_fixed.
template <class ExecutionSpace, class Value>
void deo_swap_pass(const ExecutionSpace& space, const ChainState<ExecutionSpace, Value>& state,
                   std::uint64_t seed, std::uint32_t round, int fraction_bits) {
  const std::int32_t n_chains = static_cast<std::int32_t>(state.betas.extent(0));
  const std::int32_t parity = static_cast<std::int32_t>(round % 2);
  const std::int32_t n_pairs = n_chains - 1 > parity ? (n_chains - 1 - parity + 1) / 2 : 0;
  if (n_pairs == 0) return;
  detail::small_for(
      space, "hamon::deo_swap", n_pairs,
      detail::DeoSwapPass<ExecutionSpace, Value>{state, seed, round, parity, fraction_bits});
}

/// Index process after a pass (and once before the first round, for the initial
/// permutation): a machine that reaches the coldest chain after chain 0 counts a restart;
/// one that comes back to chain 0 after that counts a round trip. A machine that starts
/// elsewhere than chain 0 counts nothing until it has been there (no pseudo trips from the
/// initial permutation).
template <class ExecutionSpace, class Value>
void update_index_process(const ExecutionSpace& space,
                          const ChainState<ExecutionSpace, Value>& state) {
  const std::int32_t top = static_cast<std::int32_t>(state.betas.extent(0)) - 1;
  detail::small_for(space, "hamon::index_process", state.n_machines(),
                    detail::IndexProcess<ExecutionSpace, Value>{state, top});
}

}  // namespace hamon
