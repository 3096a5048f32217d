// SPDX-License-Identifier: Apache-2.0
#pragma once
// The index process of a multispin ensemble, per system: every instance (and every replica
// of it) has its own machines, which move between rungs as its swaps are accepted
// (multispin_swaps.hpp's masks), and its own round trips, counted as the byte engine counts
// them (tempering/deo_pass.hpp's IndexProcess): a machine that left rung 0, reached the top
// rung and came back to rung 0 has made one round trip. Host bookkeeping: a pass reads the
// masks of one swap pass (a few words per pair).

#include <cstdint>
#include <vector>

#include "hamon/core/families/multispin/multispin_swaps.hpp"

namespace hamon {

class MultispinIndexProcess {
 public:
  /// Machine k of (replica, system) starts at rung k, its trip not started.
  explicit MultispinIndexProcess(const MultispinLadder& ladder);

  /// The swaps of one pass: masks[((pair * n_replicas + replica) * n_groups + group) * 8 +
  /// lane], pair p exchanging rungs first_rung + 2 p and first_rung + 2 p + 1.
  void record(const std::vector<std::uint64_t>& masks, std::int64_t first_rung,
              std::int64_t n_pairs);

  /// The machine at `rung` of (replica, system).
  std::int32_t machine_at(std::int64_t replica, std::int64_t system, std::int64_t rung) const;
  /// The round trips of (replica, system), all its machines together.
  std::int64_t round_trips(std::int64_t replica, std::int64_t system) const;

 private:
  enum Phase : std::int8_t { unstarted = 0, ascending = 1, descending = 2 };
  std::size_t at(std::int64_t replica, std::int64_t system, std::int64_t k) const;
  void arrive(std::int64_t replica, std::int64_t system, std::int64_t rung);

  MultispinLadder ladder_;
  std::int64_t n_systems_;
  std::vector<std::int32_t> machine_;  // [(replica, system, rung)]
  std::vector<std::int8_t> phase_;     // [(replica, system, machine)]
  std::vector<std::int64_t> trips_;    // [(replica, system)]
};

}  // namespace hamon
