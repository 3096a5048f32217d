// SPDX-License-Identifier: Apache-2.0
#pragma once
// Which row of a ChainState's variables holds a machine (a run over ranks holds a block).

#include <Kokkos_Core.hpp>
#include <cstdint>

#include "hamon/core/state/chain_state.hpp"

namespace hamon::detail {

/// The row of `machine` in a state's variables, or -1 when the state does not hold it.
KOKKOS_INLINE_FUNCTION std::int32_t local_row(std::int32_t machine, std::int32_t first,
                                              std::int32_t n_local) {
  const std::int32_t row = machine - first;
  return row >= 0 && row < n_local ? row : -1;
}

/// What a kernel reads to find a chain's variables in a state, by value: the machine at
/// each chain (every rank knows them all), the block of machines this state holds, and the
/// coldest chain (the observers' and the best states' chain).
template <class ExecutionSpace, class Value>
struct ChainRows {
  typename ChainState<ExecutionSpace, Value>::spin_view values;
  Kokkos::View<std::int32_t*, typename ExecutionSpace::memory_space> machine_of_chain;
  std::int32_t first = 0;
  std::int32_t n_local = 0;
  std::int32_t coldest = 0;

  explicit ChainRows(const ChainState<ExecutionSpace, Value>& state)
      : values(state.spins),
        machine_of_chain(state.machine_of_chain),
        first(state.first_machine),
        n_local(state.n_local_machines()),
        coldest(static_cast<std::int32_t>(state.betas.extent(0)) - 1) {}

  /// The row of the machine at `chain` (r * n_chains + chain for replica r), or -1.
  KOKKOS_INLINE_FUNCTION std::int32_t row(std::int32_t chain) const {
    return local_row(machine_of_chain(chain), first, n_local);
  }
};

}  // namespace hamon::detail
