// SPDX-License-Identifier: Apache-2.0
// machine_blocks (hamon/core/machine_exchange.hpp): how the machines of one run are split
// over the ranks — contiguous, in rank order, in whole draw groups of 16 machines, as even
// as that allows, the first ranks taking the extra group, only the last non-empty block
// ending in a partial group, and empty blocks for ranks beyond the number of groups. And,
// in an MPI build, MpiExchange refusing to start before MPI does (this binary never
// initialises MPI).
#include <gtest/gtest.h>

#include <cstdint>
#include <stdexcept>
#include <vector>

#include "hamon/core/machine_exchange.hpp"
#include "hamon/mpi_config.hpp"
#if HAMON_ENABLE_MPI
#include "hamon/policies/mpi_exchange.hpp"
#endif

namespace {

using hamon::machine_blocks;
using hamon::MachineBlock;
using Blocks = std::vector<MachineBlock>;

TEST(MachineBlocks, come_in_whole_groups_of_sixteen_machines) {
  EXPECT_EQ(hamon::kMachinesPerRankUnit, 16);
  EXPECT_EQ(machine_blocks(1, 1), (Blocks{{0, 1}}));
  EXPECT_EQ(machine_blocks(40, 1), (Blocks{{0, 40}}));
  EXPECT_EQ(machine_blocks(32, 2), (Blocks{{0, 16}, {16, 16}}));
  // 40 machines are 3 groups (16, 16, 8): uneven over 2 or 3 ranks, one empty over 4.
  EXPECT_EQ(machine_blocks(40, 2), (Blocks{{0, 32}, {32, 8}}));
  EXPECT_EQ(machine_blocks(40, 3), (Blocks{{0, 16}, {16, 16}, {32, 8}}));
  EXPECT_EQ(machine_blocks(40, 4), (Blocks{{0, 16}, {16, 16}, {32, 8}, {40, 0}}));
  // 100 machines are 7 groups: 3 + 2 + 2 over 3 ranks, the last one partial (4 of 16).
  EXPECT_EQ(machine_blocks(100, 3), (Blocks{{0, 48}, {48, 32}, {80, 20}}));
  // Fewer groups than ranks: the ranks after the groups get empty blocks at the end.
  EXPECT_EQ(machine_blocks(8, 4), (Blocks{{0, 8}, {8, 0}, {8, 0}, {8, 0}}));
  EXPECT_EQ(machine_blocks(17, 3), (Blocks{{0, 16}, {16, 1}, {17, 0}}));
}

TEST(MachineBlocks, cover_every_machine_once_as_evenly_as_whole_groups_allow) {
  for (std::int32_t n_machines = 1; n_machines <= 200; ++n_machines) {
    for (int n_ranks = 1; n_ranks <= 9; ++n_ranks) {
      const Blocks blocks = machine_blocks(n_machines, n_ranks);
      ASSERT_EQ(blocks.size(), static_cast<std::size_t>(n_ranks));
      const std::int32_t groups = (n_machines + 15) / 16;
      std::int32_t next = 0;
      for (int r = 0; r < n_ranks; ++r) {
        const MachineBlock& b = blocks[static_cast<std::size_t>(r)];
        SCOPED_TRACE(testing::Message()
                     << n_machines << " machines, rank " << r << " of " << n_ranks);
        EXPECT_EQ(b.first, next);  // contiguous, in rank order
        if (b.count > 0) {         // an empty block sits where the machines end
          EXPECT_EQ(b.first % 16, 0);
        }
        EXPECT_GE(b.count, 0);
        // Whole groups, except where the machines end.
        if (b.first + b.count < n_machines) {
          EXPECT_EQ(b.count % 16, 0);
        }
        // groups / n_ranks each, one more for the first groups % n_ranks ranks.
        const std::int32_t my_groups = groups / n_ranks + (r < groups % n_ranks ? 1 : 0);
        EXPECT_EQ((b.count + 15) / 16, my_groups);
        next = b.first + b.count;
      }
      EXPECT_EQ(next, n_machines);
    }
  }
}

TEST(MachineBlocks, refuse_no_machines_or_no_ranks) {
  EXPECT_THROW(machine_blocks(0, 1), std::invalid_argument);
  EXPECT_THROW(machine_blocks(-16, 2), std::invalid_argument);
  EXPECT_THROW(machine_blocks(16, 0), std::invalid_argument);
  EXPECT_THROW(machine_blocks(16, -1), std::invalid_argument);
}

#if HAMON_ENABLE_MPI
TEST(MpiExchange, refuses_to_start_before_mpi_is_initialised) {
  EXPECT_THROW(hamon::MpiExchange exchange, std::runtime_error);
}
#endif

}  // namespace
