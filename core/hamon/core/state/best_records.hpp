// SPDX-License-Identifier: Apache-2.0
#pragma once
// What the best-state tracker (sampler/detail/best_states.hpp) keeps per machine besides the
// configuration: the lowest fixed-point energy the machine has had after a round's sweeps,
// and where it had it. Like the machine records (machine_records.hpp) one struct, two
// storages: std::vector in the portable SamplerState, Kokkos::View in the execution space,
// replicated on every rank of a run (the energies are, after they are shared).

#include <cstdint>
#include <limits>
#include <tuple>

#include "hamon/core/state/detail/machine_records.hpp"
#include "hamon/core/util/field_list.hpp"

namespace hamon {

/// The energy a machine holds before its first round: above every energy, so the first
/// round's is an improvement.
inline constexpr std::int64_t kNoBestEnergy = std::numeric_limits<std::int64_t>::max();

template <template <class> class List>
struct BestRecords {
  List<std::int64_t> energy_fixed;    // the lowest energy (kNoBestEnergy: none yet)
  List<std::int64_t> round;           // the round it was seen in, from 0, burn-in included
  List<std::int32_t> chain;           // the temperature index of the machine then (-1: none)
  List<double> beta;                  // that chain's beta then (the ladder may move later)
  List<std::int64_t> round_trips_at;  // the run's round trips (all machines) then

  template <class Self>
  static auto fields(Self& r) {
    return std::make_tuple(field("energy_fixed", r.energy_fixed).labelled("hamon::best_energy"),
                           field("round", r.round), field("chain", r.chain), field("beta", r.beta),
                           field("round_trips_at", r.round_trips_at));
  }
};
static_assert(field_list_is_complete<BestRecords<HostList>>());

}  // namespace hamon
