// SPDX-License-Identifier: Apache-2.0
#pragma once
// Deterministic even-odd (DEO) swaps and the index process (Syed et al. 2022).
//
// Round r attempts pairs (i, i+1) with i = r mod 2, r mod 2 + 2, ...: one parity per
// round, never both (two passes would make the scheme reversible again). A pair swaps
// with probability min(1, exp((beta_{i+1} - beta_i) (E(x at i+1) - E(x at i)))), one
// uniform per pair from Philox at counter (i, r, swap stream, round) in the ladder of
// replica r (NrptOptions::n_replicas; r = 0 for a run of one replica). The pairs of one
// pass are disjoint, so they are decided and applied at once. Training's tempered chains
// run the same pass (tempering/deo_pass.hpp) over several ladders: ladder l draws at counter
// (i, l, swap stream, round).

#include <Kokkos_Core.hpp>
#include <cstdint>

#include "hamon/core/state/chain_state.hpp"
#include "hamon/core/tempering/deo_pass.hpp"
#include "hamon/core/util/launch.hpp"

namespace hamon {

/// The log acceptance ratio of swapping the states at chains i and i+1.
KOKKOS_INLINE_FUNCTION double swap_log_ratio(double beta_i, double beta_next, double energy_i,
                                             double energy_next) {
  return (beta_next - beta_i) * (energy_next - energy_i);
}

/// One DEO pass for `round` (parity round % 2) on the energies in state.energy_fixed, in
/// every ladder of the state (one per replica: n_machines / n_chains; ladder r draws at
/// counter (i, r, swap stream, round)).
template <class ExecutionSpace, class Value>
void deo_swap_pass(const ExecutionSpace& space, const ChainState<ExecutionSpace, Value>& state,
                   std::uint64_t seed, std::uint32_t round, int fraction_bits) {
  const detail::ChainStateLadder<typename ExecutionSpace::memory_space> ladders(state,
                                                                                fraction_bits);
  detail::deo_pass(space, "hamon::deo_swap", ladders, ladders.n_rungs, ladders.n_ladders(), seed,
                   round, 0);
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
