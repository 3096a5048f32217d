// SPDX-License-Identifier: Apache-2.0
#pragma once
// What the round loop keeps per machine (state slot) and per neighbouring pair of chains,
// on every rank of a run: the permutation both ways, trip phases, energies, swap and
// round-trip counters. One struct, two storages: std::vector in the portable SamplerState,
// Kokkos::View in an execution space's ChainState, so the field list that the checkpoint,
// the snapshot and the restore walk is written once.

#include <cstdint>
#include <tuple>

#include "hamon/core/util/field_list.hpp"
#include "hamon/core/util/view_fields.hpp"

namespace hamon {

template <template <class> class List>
struct MachineRecords {
  List<std::int32_t> chain_of_machine;  // which temperature each machine runs at
  List<std::int32_t> machine_of_chain;  // the inverse permutation
  List<std::int8_t> trip_phase;         // per machine: TripPhase (swap.hpp)
  List<std::int64_t> energy_fixed;      // per machine, fixed point (see energy.hpp)
  List<std::int64_t> attempted;         // per pair (i, i+1)
  List<std::int64_t> accepted;
  List<std::int64_t> round_trips;  // per machine
  List<std::int64_t> restarts;     // per machine

  template <class Self>
  static auto fields(Self& r) {
    return std::make_tuple(field("chain_of_machine", r.chain_of_machine),
                           field("machine_of_chain", r.machine_of_chain),
                           field("trip_phase", r.trip_phase), field("energy_fixed", r.energy_fixed),
                           field("attempted", r.attempted), field("accepted", r.accepted),
                           field("round_trips", r.round_trips), field("restarts", r.restarts));
  }
};
static_assert(field_list_is_complete<MachineRecords<HostList>>());

}  // namespace hamon
