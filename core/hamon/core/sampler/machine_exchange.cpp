// SPDX-License-Identifier: Apache-2.0
#include "hamon/core/sampler/machine_exchange.hpp"

#include <algorithm>
#include <limits>
#include <stdexcept>
#include <string>

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

MachineGatherLayout machine_gather_layout(const std::vector<MachineBlock>& blocks,
                                          std::int64_t per_machine, std::int64_t piece_bytes) {
  const auto refuse = [&](const std::string& why) {
    throw std::invalid_argument("machine_gather_layout: " + why);
  };
  if (per_machine < 1) refuse(std::to_string(per_machine) + " bytes per machine");
  if (piece_bytes < 1 || piece_bytes > kGatherPieceBytes) {
    refuse("pieces of " + std::to_string(piece_bytes) + " bytes");
  }
  MachineGatherLayout l;
  l.piece_bytes = piece_bytes;
  l.pieces = per_machine / piece_bytes;
  l.tail_bytes = per_machine % piece_bytes;
  if (l.pieces > std::numeric_limits<int>::max()) {
    refuse(std::to_string(per_machine) + " bytes per machine");
  }
  std::int32_t next = 0;
  for (const MachineBlock& b : blocks) {
    if (b.first != next || b.count < 0) {
      refuse("the blocks do not follow each other from machine 0");
    }
    l.counts.push_back(b.count);
    l.offsets.push_back(b.first);
    next = b.first + b.count;
  }
  return l;
}

}  // namespace hamon
