// SPDX-License-Identifier: Apache-2.0
#pragma once
// The state of all machines (state slots) of an NRPT run, in one execution space.
//
// The variables are one value of `Value` (a variable kind's storage_type,
// variable_kind.hpp: std::int8_t for spins and Potts states) per (machine, node), in
// LayoutLeft: the machines of one node lie side by
// side. On a GPU a warp updating one node then reads coalesced bytes; on the host the
// sweep runs over the machines of a node in vectorised loops (measured: a machine-major
// layout with one machine per work item was 3x slower, bound by scalar exp and Philox).
// Swaps exchange temperature labels (chain_of_machine / machine_of_chain), never spins.
//
// One process may hold the spins of a block of the machines only (a run over several
// ranks: machine_exchange.hpp): `spins` then has the rows of machines
// [first_machine, first_machine + n_local_machines()), while the ladder, the permutations,
// the energies, the counters and the trip phases (MachineRecords) cover every machine
// (replicated).
//
// The chains know no model family: a family's tables (decision thresholds, weights) ride
// beside them in families/family_state.hpp's FamilyState, which the samplers hold.

#include <Kokkos_Core.hpp>
#include <cstdint>
#include <utility>

#include "hamon/core/state/detail/machine_records.hpp"

namespace hamon {

template <class ExecutionSpace, class Value = std::int8_t>
struct ChainState : MachineRecords<ViewsIn<typename ExecutionSpace::memory_space>::template type> {
  using execution_space = ExecutionSpace;
  using memory_space = typename ExecutionSpace::memory_space;
  using value_type = Value;
  using spin_view = Kokkos::View<Value**, Kokkos::LayoutLeft, memory_space>;
  template <class T>
  using view = Kokkos::View<T*, memory_space>;

  spin_view spins;                 // the variables (n_local_machines, n_nodes); clamped nodes
                                   // hold their value (Potts: the state's bits, read as uint8)
  std::int32_t first_machine = 0;  // the machine of spins' row 0 (a multiple of 16)
  view<double> betas;              // per chain (temperature index), ascending

  /// Every machine of the run.
  std::int32_t n_machines() const {
    return static_cast<std::int32_t>(this->chain_of_machine.extent(0));
  }
  /// The machines whose spins this state holds.
  std::int32_t n_local_machines() const { return static_cast<std::int32_t>(spins.extent(0)); }
  std::pair<std::int64_t, std::int64_t> local_range() const {
    return {first_machine, first_machine + n_local_machines()};
  }
  /// chain_of_machine and energy_fixed of the local machines (indexed by spins' rows).
  view<std::int32_t> local_chain_of_machine() const {
    return Kokkos::subview(this->chain_of_machine, local_range());
  }
  view<std::int64_t> local_energy_fixed() const {
    return Kokkos::subview(this->energy_fixed, local_range());
  }
  std::int64_t n_nodes() const { return static_cast<std::int64_t>(spins.extent(1)); }
};

}  // namespace hamon
