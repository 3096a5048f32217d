// SPDX-License-Identifier: Apache-2.0
#pragma once
// What training's persistent chains give the sampler's DEO pass (deo_swap_pass,
// tempering/swap.hpp) beside their ChainState (several ladders of the same betas, the
// machines of a chain side by side: make_ladders_state):
//   DoubleEnergies  the energies of RbmChains::compute_energies, doubles. The sampler keeps
//                   fixed point with the model's fraction bits; an RBM's energy is a sum of
//                   multiples of 2^-32 of up to (H + 1) 2^19 in magnitude, which a double
//                   holds rounded where it passes 2^21 and 32 fraction bits of an int64 do
//                   not hold at all past 2^31. Training has always decided on the doubles,
//                   and a gap of two doubles is what it keeps deciding on.
//   RbmRowMoves     a swap moves the states (spins, both +-1 layers and the energy) between
//                   the two rows and leaves the labels: the sweeps draw their random numbers
//                   by row, and the gradient reads the beta = 1 chains as the last n_ladders
//                   rows.

#include <Kokkos_Core.hpp>
#include <cstdint>

#include "hamon/core/state/chain_state.hpp"
#include "hamon/core/train/detail/rbm_views.hpp"

namespace hamon::detail {

template <class ExecutionSpace>
struct DoubleEnergies {
  typename TrainViews<ExecutionSpace>::vector energy;  // per machine

  KOKKOS_INLINE_FUNCTION double gap(std::int32_t lo, std::int32_t hi) const {
    return energy(hi) - energy(lo);
  }
};

template <class ExecutionSpace>
struct RbmRowMoves {
  using views = TrainViews<ExecutionSpace>;
  static constexpr bool moves_states = true;

  typename ChainState<ExecutionSpace>::spin_view spins;  // (machines, V + H)
  typename views::matrix visible;                        // (machines, V)
  typename views::matrix hidden;                         // (machines, H)
  typename views::vector energy;                         // per machine

  std::int64_t work_per_pair() const { return static_cast<std::int64_t>(spins.extent(1)); }

  KOKKOS_INLINE_FUNCTION void swap_states(std::int32_t a, std::int32_t b) const {
    for (std::int64_t k = 0; k < static_cast<std::int64_t>(spins.extent(1)); ++k) {
      swap_entries(spins(a, k), spins(b, k));
    }
    for (std::int64_t k = 0; k < static_cast<std::int64_t>(visible.extent(1)); ++k) {
      swap_entries(visible(a, k), visible(b, k));
    }
    for (std::int64_t k = 0; k < static_cast<std::int64_t>(hidden.extent(1)); ++k) {
      swap_entries(hidden(a, k), hidden(b, k));
    }
    swap_entries(energy(a), energy(b));
  }

  template <class T>
  KOKKOS_INLINE_FUNCTION static void swap_entries(T& x, T& y) {
    const T t = x;
    x = y;
    y = t;
  }
};

}  // namespace hamon::detail
