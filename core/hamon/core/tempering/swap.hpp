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
// (several ladders in one ChainState) run the same pass with their own energies and moves
// (tempering/deo_pass.hpp): ladder l draws at counter (i, l, swap stream, round).

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

/// One DEO pass for `round` (parity round % 2) in every ladder of the state (n_machines /
/// n_chains of them; ladder r draws at counter (i, r, swap stream, round)), the energies
/// and what a swap moves given by `energies` and `moves` (tempering/deo_pass.hpp). The one
/// pass of the library: the sampler's and training's swaps both come here.
template <class ExecutionSpace, class Value, class Energies, class Moves>
void deo_swap_pass(const ExecutionSpace& space, const ChainState<ExecutionSpace, Value>& state,
                   std::uint64_t seed, std::uint32_t round, const Energies& energies,
                   const Moves& moves) {
  using ladder_type =
      detail::ChainStateLadder<typename ExecutionSpace::memory_space, Energies, Moves>;
  const ladder_type ladder(state, energies, moves);
  const std::int32_t n_ladders = ladder.n_ladders();
  const auto parity = static_cast<std::int32_t>(round % 2u);
  const std::int32_t n_pairs =
      ladder.n_rungs - 1 > parity ? (ladder.n_rungs - 1 - parity + 1) / 2 : 0;
  if (n_pairs == 0 || n_ladders < 1) return;
  const std::int64_t items = static_cast<std::int64_t>(n_pairs) * n_ladders;
  detail::launch(space, "hamon::deo_swap", items, items * moves.work_per_pair(),
                 detail::DeoPass<ladder_type>{ladder, seed, round, parity, n_ladders});
}

/// The sampler's pass: the energies in state.energy_fixed (`fraction_bits` fractional
/// bits), swaps exchange temperature labels.
template <class ExecutionSpace, class Value>
void deo_swap_pass(const ExecutionSpace& space, const ChainState<ExecutionSpace, Value>& state,
                   std::uint64_t seed, std::uint32_t round, int fraction_bits) {
  using energies_type = detail::FixedPointEnergies<typename ExecutionSpace::memory_space>;
  deo_swap_pass(space, state, seed, round, energies_type{state.energy_fixed, fraction_bits},
                detail::SwapLabels{});
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
