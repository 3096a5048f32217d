// SPDX-License-Identifier: Apache-2.0
// machine_blocks (hamon/core/sampler/machine_exchange.hpp): how the machines of one run are split
// over the ranks — contiguous, in rank order, in whole draw groups of 16 machines, as even
// as that allows, the first ranks taking the extra group, only the last non-empty block
// ending in a partial group, and empty blocks for ranks beyond the number of groups. The
// gather of a checkpoint's spins counted in machines (machine_gather_layout), so that no
// MPI count overflows an int however many bytes a machine has. And, in an MPI build,
// MpiExchange refusing to start before MPI does (this binary never initialises MPI).
#include <gtest/gtest.h>

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "hamon/core/sampler/machine_exchange.hpp"
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

// The spins of a checkpoint reach rank 0 in one MPI_Gatherv, whose counts are ints: counted
// in bytes, 16 machines of a 2^28-node model (2^32 bytes) would not fit.
TEST(MachineGatherLayout, counts_machines_so_no_count_overflows_an_int) {
  constexpr std::int64_t kIntMax = 2147483647;
  for (const int ranks : {1, 3, 4}) {
    for (const std::int32_t machines : {16, 40, 1000}) {
      for (const std::int64_t nodes : {std::int64_t(1) << 28, std::int64_t(3) << 30,
                                       (std::int64_t(1) << 40) + 7, std::int64_t(5)}) {
        SCOPED_TRACE(std::to_string(machines) + " machines of " + std::to_string(nodes) +
                     " bytes over " + std::to_string(ranks) + " ranks");
        const auto blocks = machine_blocks(machines, ranks);
        const hamon::MachineGatherLayout l = hamon::machine_gather_layout(blocks, nodes);
        // A machine is whole pieces and a tail, each within an int.
        EXPECT_EQ(l.pieces * l.piece_bytes + l.tail_bytes, nodes);
        EXPECT_LE(l.piece_bytes, kIntMax);
        EXPECT_LE(l.pieces, kIntMax);
        EXPECT_LT(l.tail_bytes, l.piece_bytes);
        // Counts and offsets are the blocks' machines, whatever their bytes.
        ASSERT_EQ(l.counts.size(), blocks.size());
        for (std::size_t r = 0; r < blocks.size(); ++r) {
          EXPECT_EQ(l.counts[r], blocks[r].count);
          EXPECT_EQ(l.offsets[r], blocks[r].first);
        }
      }
    }
  }
  // 2^31 machine-bytes and more on one rank, which a byte count could not say.
  const auto one_rank = machine_blocks(16, 1);
  EXPECT_GE(16 * (std::int64_t(1) << 28), std::int64_t(1) << 31);
  EXPECT_EQ(hamon::machine_gather_layout(one_rank, std::int64_t(1) << 28).counts,
            std::vector<int>{16});
}

TEST(MachineGatherLayout, cuts_a_machine_into_pieces_and_a_tail) {
  const auto blocks = machine_blocks(40, 3);
  const auto l = hamon::machine_gather_layout(blocks, 11, 4);
  EXPECT_EQ(l.pieces, 2);
  EXPECT_EQ(l.tail_bytes, 3);
  EXPECT_EQ(hamon::machine_gather_layout(blocks, 8, 4).tail_bytes, 0);
  EXPECT_EQ(hamon::machine_gather_layout(blocks, 3, 4).pieces, 0);
  EXPECT_EQ(hamon::machine_gather_layout(blocks, std::int64_t(1) << 30).pieces, 1);
  EXPECT_EQ(hamon::machine_gather_layout(blocks, (std::int64_t(1) << 30) - 1).pieces, 0);
}

TEST(MachineGatherLayout, refuses_what_it_cannot_describe) {
  const auto blocks = machine_blocks(40, 3);
  EXPECT_THROW(hamon::machine_gather_layout(blocks, 0), std::invalid_argument);
  EXPECT_THROW(hamon::machine_gather_layout(blocks, 5, 0), std::invalid_argument);
  EXPECT_THROW(hamon::machine_gather_layout(blocks, 5, (std::int64_t(1) << 30) + 1),
               std::invalid_argument);
  EXPECT_THROW(hamon::machine_gather_layout(blocks, std::int64_t(1) << 62), std::invalid_argument);
  EXPECT_THROW(hamon::machine_gather_layout(Blocks{{0, 16}, {20, 16}}, 5), std::invalid_argument);
  EXPECT_THROW(hamon::machine_gather_layout(Blocks{{16, 16}}, 5), std::invalid_argument);
}

#if HAMON_ENABLE_MPI
TEST(MpiExchange, refuses_to_start_before_mpi_is_initialised) {
  EXPECT_THROW(hamon::MpiExchange exchange, std::runtime_error);
}
#endif

}  // namespace
