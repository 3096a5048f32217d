// SPDX-License-Identifier: Apache-2.0
#include "hamon/core/families/multispin/multispin_index_process.hpp"

#include <utility>

namespace hamon {

MultispinIndexProcess::MultispinIndexProcess(const MultispinLadder& ladder)
    : ladder_(ladder), n_systems_(ladder.n_groups * kMultispinSystems) {
  const auto cells = static_cast<std::size_t>(ladder.n_replicas * n_systems_ * ladder.n_rungs);
  machine_.resize(cells);
  phase_.assign(cells, unstarted);
  trips_.assign(static_cast<std::size_t>(ladder.n_replicas * n_systems_), 0);
  for (std::int64_t r = 0; r < ladder.n_replicas; ++r) {
    for (std::int64_t s = 0; s < n_systems_; ++s) {
      for (std::int64_t k = 0; k < ladder.n_rungs; ++k) {
        machine_[at(r, s, k)] = static_cast<std::int32_t>(k);
      }
      arrive(r, s, 0);
    }
  }
}

std::size_t MultispinIndexProcess::at(std::int64_t replica, std::int64_t system,
                                      std::int64_t k) const {
  return static_cast<std::size_t>((replica * n_systems_ + system) * ladder_.n_rungs + k);
}

void MultispinIndexProcess::arrive(std::int64_t replica, std::int64_t system, std::int64_t rung) {
  const std::int32_t m = machine_[at(replica, system, rung)];
  std::int8_t& phase = phase_[at(replica, system, m)];
  if (rung == 0) {
    if (phase == descending) ++trips_[static_cast<std::size_t>(replica * n_systems_ + system)];
    phase = ascending;
  } else if (rung == ladder_.n_rungs - 1 && phase == ascending) {
    phase = descending;
  }
}

void MultispinIndexProcess::record(const std::vector<std::uint64_t>& masks, std::int64_t first_rung,
                                   std::int64_t n_pairs) {
  for (std::int64_t p = 0; p < n_pairs; ++p) {
    const std::int64_t low = first_rung + 2 * p;
    for (std::int64_t r = 0; r < ladder_.n_replicas; ++r) {
      for (std::int64_t g = 0; g < ladder_.n_groups; ++g) {
        for (int l = 0; l < kMultispinLanes; ++l) {
          std::uint64_t mask = masks[static_cast<std::size_t>(
              ((p * ladder_.n_replicas + r) * ladder_.n_groups + g) * kMultispinLanes + l)];
          while (mask != 0) {
            const int b = __builtin_ctzll(mask);
            mask &= mask - 1;
            const std::int64_t s = g * kMultispinSystems + 64 * l + b;
            std::swap(machine_[at(r, s, low)], machine_[at(r, s, low + 1)]);
            if (low == 0) arrive(r, s, 0);
            if (low + 1 == ladder_.n_rungs - 1) arrive(r, s, low + 1);
          }
        }
      }
    }
  }
}

std::int32_t MultispinIndexProcess::machine_at(std::int64_t replica, std::int64_t system,
                                               std::int64_t rung) const {
  return machine_[at(replica, system, rung)];
}

std::int64_t MultispinIndexProcess::round_trips(std::int64_t replica, std::int64_t system) const {
  return trips_[static_cast<std::size_t>(replica * n_systems_ + system)];
}

}  // namespace hamon
