// SPDX-License-Identifier: Apache-2.0
#include <algorithm>
#include <stdexcept>
#include <string>

#include "hamon/core/machine_exchange.hpp"

namespace hamon {

std::vector<MachineBlock> machine_blocks(std::int32_t n_machines, int n_ranks) {
  if (n_machines < 1 || n_ranks < 1) {
    throw std::invalid_argument("machine_blocks: " + std::to_string(n_machines) +
                                " machines over " + std::to_string(n_ranks) +
                                " ranks (both must be at least 1)");
  }
  const std::int32_t units = (n_machines + kMachinesPerRankUnit - 1) / kMachinesPerRankUnit;
  const std::int32_t base = units / n_ranks;
  const std::int32_t extra = units % n_ranks;
  std::vector<MachineBlock> blocks(static_cast<std::size_t>(n_ranks));
  std::int32_t next = 0;
  for (int r = 0; r < n_ranks; ++r) {
    const std::int32_t my_units = base + (r < extra ? 1 : 0);
    const std::int32_t end = std::min(n_machines, next + my_units * kMachinesPerRankUnit);
    blocks[static_cast<std::size_t>(r)] = MachineBlock{next, end - next};
    next = end;
  }
  return blocks;
}

}  // namespace hamon
