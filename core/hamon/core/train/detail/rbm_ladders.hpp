// SPDX-License-Identifier: Apache-2.0
#pragma once
// Training's persistent chains as the Ladders of the sampler's DEO pass
// (tempering/deo_pass.hpp): `n_ladders` ladders of the same betas, rung i of ladder l in slot
// (row) i * n_ladders + l. Energies are the doubles of RbmChains::compute_energies. A swap
// moves the states (spins, both +-1 layers and the energy) between the two rows rather
// than relabelling them: the sweeps draw their random numbers by row, and the gradient
// reads the target rung as the last n_ladders rows. Every ladder adds to the counters of
// its rung pair, so they are counted atomically.

#include <Kokkos_Core.hpp>
#include <cstdint>

#include "hamon/core/state/chain_state.hpp"
#include "hamon/core/train/detail/rbm_views.hpp"

namespace hamon::detail {

template <class ExecutionSpace>
struct RbmLadders {
  using views = TrainViews<ExecutionSpace>;
  using counters = Kokkos::View<std::int64_t*, typename ExecutionSpace::memory_space>;

  typename ChainState<ExecutionSpace>::spin_view spins;              // (rows, V + H)
  typename ChainState<ExecutionSpace>::template view<double> betas;  // per row
  typename views::matrix visible;                                    // (rows, V)
  typename views::matrix hidden;                                     // (rows, H)
  typename views::vector energy;                                     // per row
  counters attempted;                                                // per rung pair
  counters accepted;
  std::int32_t n_ladders;

  KOKKOS_INLINE_FUNCTION std::int32_t row(std::int32_t i, std::int32_t ladder) const {
    return i * n_ladders + ladder;
  }
  KOKKOS_INLINE_FUNCTION double beta(std::int32_t i, std::int32_t ladder) const {
    return betas(row(i, ladder));
  }
  KOKKOS_INLINE_FUNCTION double energy_gap(std::int32_t i, std::int32_t ladder) const {
    return energy(row(i + 1, ladder)) - energy(row(i, ladder));
  }
  KOKKOS_INLINE_FUNCTION void count(std::int32_t i, bool was_accepted) const {
    Kokkos::atomic_add(&attempted(i), std::int64_t{1});
    if (was_accepted) Kokkos::atomic_add(&accepted(i), std::int64_t{1});
  }
  KOKKOS_INLINE_FUNCTION void exchange(std::int32_t i, std::int32_t ladder) const {
    const std::int32_t a = row(i, ladder);
    const std::int32_t b = row(i + 1, ladder);
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
