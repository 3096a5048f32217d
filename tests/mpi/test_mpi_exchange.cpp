// SPDX-License-Identifier: Apache-2.0
// hamon::MpiExchange's collectives, run by every rank of the job (1 to 4 under CTest):
// each rank fills its block of machines with values that name the machine and the slot,
// and the gathered or summed result is checked against what those values must give,
// computed by hand from the rank count. The blocks are machine_blocks' (whole draw groups
// of 16 machines), so they are uneven (40 machines over 3 ranks: 16, 16, 8) and, with more
// ranks than groups, empty (8 machines over 4 ranks: 8, 0, 0, 0).
#include <gtest/gtest.h>
#include <mpi.h>

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "hamon/core/sampler/machine_exchange.hpp"
#include "hamon/policies/mpi_exchange.hpp"

namespace {

using hamon::MachineBlock;

int world_rank() {
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  return rank;
}

int world_size() {
  int size = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  return size;
}

/// Slot j of machine m: 64-bit, of both signs, different for every (m, j).
std::int64_t value_of(std::int64_t m, std::int64_t j) {
  const std::int64_t magnitude = ((m + 1) << 34) + j * 1'000'003 + 17;
  return (m + j) % 2 == 0 ? magnitude : -magnitude;
}

/// The same for bytes: m * 5 + j taken into [-100, 100].
std::int8_t byte_of(std::int64_t m, std::int64_t j) {
  return static_cast<std::int8_t>((m * 5 + j) % 201 - 100);
}

constexpr std::int64_t kGuard = 8;  // sentinel slots after every receive buffer
constexpr std::int64_t kSentinel = 0x5A5A5A5A5A5A5A5A;
constexpr std::int8_t kSentinelByte = 0x5A;

/// "" when `all` holds expected(m, j) at m * per_machine + j for every machine and slot and
/// `sentinel` in the guard slots after them; else the first difference and how many there
/// are. (A test never stops early between collectives: the other ranks would wait for it.)
template <class T, class Expected>
std::string mismatches(const std::vector<T>& all, std::int64_t n_machines, std::int64_t per_machine,
                       Expected expected, T sentinel) {
  std::string first;
  std::int64_t count = 0;
  const std::int64_t total = n_machines * per_machine;
  for (std::int64_t k = 0; k < total + kGuard; ++k) {
    const T want = k < total ? expected(k / per_machine, k % per_machine) : sentinel;
    const T got = all[static_cast<std::size_t>(k)];
    if (got == want) continue;
    if (count++ == 0) {
      first = (k < total ? "machine " + std::to_string(k / per_machine) + " slot " +
                               std::to_string(k % per_machine)
                         : "guard slot " + std::to_string(k - total)) +
              ": " + std::to_string(got) + ", want " + std::to_string(want);
    }
  }
  return count == 0 ? "" : first + " (" + std::to_string(count) + " slots differ)";
}

TEST(MpiExchange, has_the_ranks_of_its_communicator) {
  hamon::MpiExchange exchange;
  EXPECT_EQ(exchange.rank(), world_rank());
  EXPECT_EQ(exchange.n_ranks(), world_size());
  EXPECT_EQ(exchange.is_root(), world_rank() == 0);
  // Its own duplicate: the same group, another context.
  int comparison = MPI_UNEQUAL;
  MPI_Comm_compare(exchange.communicator(), MPI_COMM_WORLD, &comparison);
  EXPECT_EQ(comparison, MPI_CONGRUENT);
}

// The blocks the other tests use, written out for the rank counts CTest runs.
TEST(MpiExchange, blocks_of_the_tests_are_uneven_and_may_be_empty) {
  const int n = world_size();
  if (n > 4) GTEST_SKIP() << "blocks written out for 1 to 4 ranks only";
  const std::vector<std::vector<MachineBlock>> forty = {
      {{0, 40}},
      {{0, 32}, {32, 8}},
      {{0, 16}, {16, 16}, {32, 8}},
      {{0, 16}, {16, 16}, {32, 8}, {40, 0}},
  };
  const std::vector<std::vector<MachineBlock>> eight = {
      {{0, 8}},
      {{0, 8}, {8, 0}},
      {{0, 8}, {8, 0}, {8, 0}},
      {{0, 8}, {8, 0}, {8, 0}, {8, 0}},
  };
  EXPECT_EQ(hamon::machine_blocks(40, n), forty[static_cast<std::size_t>(n - 1)]);
  EXPECT_EQ(hamon::machine_blocks(8, n), eight[static_cast<std::size_t>(n - 1)]);
}

/// Every rank's slots of its own block, row-major by machine.
std::vector<std::int64_t> my_values(const MachineBlock& mine, std::int64_t per_machine) {
  std::vector<std::int64_t> out;
  for (std::int64_t m = mine.first; m < mine.first + mine.count; ++m) {
    for (std::int64_t j = 0; j < per_machine; ++j) out.push_back(value_of(m, j));
  }
  return out;
}

TEST(MpiExchange, all_gather_puts_every_machine_in_its_place_on_every_rank) {
  hamon::MpiExchange exchange;
  for (const std::int32_t n_machines : {40, 8, 1, 33, 100}) {
    for (const std::int64_t per_machine : {1, 3}) {
      const auto blocks = hamon::machine_blocks(n_machines, exchange.n_ranks());
      const auto mine = my_values(blocks[static_cast<std::size_t>(exchange.rank())], per_machine);
      const std::int64_t total = n_machines * per_machine;
      std::vector<std::int64_t> all(static_cast<std::size_t>(total + kGuard), kSentinel);
      exchange.all_gather_machines(mine.data(), all.data(), blocks, per_machine);
      EXPECT_EQ(mismatches(all, n_machines, per_machine, value_of, kSentinel), "")
          << n_machines << " machines x " << per_machine;
    }
  }
}

TEST(MpiExchange, all_gather_from_an_empty_block_needs_no_buffer) {
  hamon::MpiExchange exchange;
  const auto blocks = hamon::machine_blocks(8, exchange.n_ranks());  // 8, 0, 0, ...
  const MachineBlock& own = blocks[static_cast<std::size_t>(exchange.rank())];
  EXPECT_EQ(own.count, exchange.is_root() ? 8 : 0);
  const auto mine = my_values(own, 2);
  std::vector<std::int64_t> all(16 + kGuard, kSentinel);
  exchange.all_gather_machines(own.count == 0 ? nullptr : mine.data(), all.data(), blocks, 2);
  EXPECT_EQ(mismatches(all, 8, 2, value_of, kSentinel), "");
}

TEST(MpiExchange, gather_to_root_puts_every_machines_bytes_in_place_on_rank_0) {
  // A machine's bytes travel as one datatype of pieces and a tail: in pieces of 2 bytes the
  // cut that machines of 2^30 bytes or more meet, with machines of a few bytes.
  for (const std::int64_t piece : {hamon::kGatherPieceBytes, std::int64_t(2)}) {
    hamon::MpiExchange exchange(MPI_COMM_WORLD, piece);
    for (const std::int32_t n_machines : {40, 8, 33}) {
      for (const std::int64_t per_machine : {5, 4, 1}) {
        const auto blocks = hamon::machine_blocks(n_machines, exchange.n_ranks());
        const MachineBlock& own = blocks[static_cast<std::size_t>(exchange.rank())];
        std::vector<std::int8_t> mine;
        for (std::int64_t m = own.first; m < own.first + own.count; ++m) {
          for (std::int64_t j = 0; j < per_machine; ++j) mine.push_back(byte_of(m, j));
        }
        const std::int64_t total = n_machines * per_machine;
        // Only rank 0 receives: the others pass no buffer.
        std::vector<std::int8_t> all;
        if (exchange.is_root()) all.assign(static_cast<std::size_t>(total + kGuard), kSentinelByte);
        exchange.gather_machines_to_root(mine.empty() ? nullptr : mine.data(),
                                         exchange.is_root() ? all.data() : nullptr, blocks,
                                         per_machine);
        if (!exchange.is_root()) continue;
        EXPECT_EQ(mismatches(all, n_machines, per_machine, byte_of, kSentinelByte), "")
            << n_machines << " machines x " << per_machine << " in pieces of " << piece;
      }
    }
  }
}

TEST(MpiExchange, sum_to_root_adds_every_ranks_int64_values) {
  hamon::MpiExchange exchange;
  const std::int64_t r = exchange.rank();
  const std::int64_t n = exchange.n_ranks();
  constexpr std::int64_t kLength = 101;
  std::vector<std::int64_t> values(kLength);
  for (std::int64_t k = 0; k < kLength; ++k) {
    values[static_cast<std::size_t>(k)] = (r + 1) * (k - 50) * (std::int64_t(1) << 33) + r;
  }
  exchange.sum_to_root(values.data(), kLength);
  if (!exchange.is_root()) return;  // elsewhere unspecified
  // sum over r of (r + 1) = n (n + 1) / 2, of r = n (n - 1) / 2
  for (std::int64_t k = 0; k < kLength; ++k) {
    const std::int64_t expected =
        (k - 50) * (std::int64_t(1) << 33) * (n * (n + 1) / 2) + n * (n - 1) / 2;
    EXPECT_EQ(values[static_cast<std::size_t>(k)], expected) << "k = " << k;
  }
}

TEST(MpiExchange, sum_to_root_adds_every_ranks_int8_values) {
  hamon::MpiExchange exchange;
  const int r = exchange.rank();
  const int n = exchange.n_ranks();
  constexpr int kLength = 1000;
  std::vector<std::int8_t> values(kLength);
  for (int k = 0; k < kLength; ++k) {
    // One rank adds 1 to slot k; every rank adds (k % 3) - 1.
    values[static_cast<std::size_t>(k)] =
        static_cast<std::int8_t>((k % n == r ? 1 : 0) + k % 3 - 1);
  }
  exchange.sum_to_root(values.data(), kLength);
  if (!exchange.is_root()) return;
  for (int k = 0; k < kLength; ++k) {
    EXPECT_EQ(values[static_cast<std::size_t>(k)], 1 + n * (k % 3 - 1)) << "k = " << k;
  }
}

TEST(MpiExchange, sum_to_root_of_nothing_sends_nothing) {
  hamon::MpiExchange exchange;
  exchange.sum_to_root(static_cast<std::int64_t*>(nullptr), 0);
  exchange.sum_to_root(static_cast<std::int8_t*>(nullptr), 0);
  // The ranks are still in step: the next collective matches.
  std::int64_t one = 1;
  exchange.sum_to_root(&one, 1);
  if (exchange.is_root()) {
    EXPECT_EQ(one, exchange.n_ranks());
  }
}

// Refused on every rank before any message, so the ranks stay in step.
TEST(MpiExchange, refuses_blocks_for_another_rank_count_or_too_long_a_message) {
  hamon::MpiExchange exchange;
  const auto wrong = hamon::machine_blocks(40, exchange.n_ranks() + 1);
  std::vector<std::int64_t> all(40);
  std::vector<std::int8_t> bytes(40);
  EXPECT_THROW(exchange.all_gather_machines(all.data(), all.data(), wrong, 1),
               std::invalid_argument);
  EXPECT_THROW(exchange.gather_machines_to_root(bytes.data(), bytes.data(), wrong, 1),
               std::invalid_argument);
  // 40 machines of 2^31 slots: more than one MPI message counts.
  const auto blocks = hamon::machine_blocks(40, exchange.n_ranks());
  EXPECT_THROW(exchange.all_gather_machines(nullptr, nullptr, blocks, std::int64_t(1) << 31),
               std::length_error);
  std::int64_t one = 1;
  exchange.sum_to_root(&one, 1);
  if (exchange.is_root()) {
    EXPECT_EQ(one, exchange.n_ranks());
  }
}

TEST(MpiExchange, all_gather_concatenates_counts_of_any_size_in_rank_order) {
  hamon::MpiExchange exchange;
  const int n = exchange.n_ranks();
  // Rank r sends r + 1 values (r * 100 + k); the Sampler's round message has this shape.
  std::vector<std::int64_t> counts;
  for (int r = 0; r < n; ++r) counts.push_back(r + 1);
  std::vector<std::int64_t> mine;
  for (int k = 0; k <= exchange.rank(); ++k) mine.push_back(exchange.rank() * 100 + k);
  std::vector<std::int64_t> all(static_cast<std::size_t>(n * (n + 1) / 2), -1);
  exchange.all_gather(mine.data(), all.data(), counts);
  std::size_t at = 0;
  for (int r = 0; r < n; ++r) {
    for (int k = 0; k <= r; ++k) EXPECT_EQ(all[at++], r * 100 + k) << "rank " << r << " slot " << k;
  }
  EXPECT_THROW(exchange.all_gather(mine.data(), all.data(), std::vector<std::int64_t>(n + 1, 1)),
               std::invalid_argument);
}

TEST(MpiExchange, max_over_ranks_is_the_largest_value_on_every_rank) {
  hamon::MpiExchange exchange;
  const int n = exchange.n_ranks();
  EXPECT_EQ(exchange.max_over_ranks(exchange.rank()), n - 1);
  EXPECT_EQ(exchange.max_over_ranks(-exchange.rank()), 0);
  // One rank's large value wins whatever the others say (a status, a stop vote).
  const std::int64_t big = std::int64_t(1) << 40;
  EXPECT_EQ(exchange.max_over_ranks(exchange.rank() == n - 1 ? big : -big), big);
}

/// The world's ranks split by parity (even ranks, odd ranks), in world order.
MPI_Comm parity_communicator() {
  MPI_Comm out = MPI_COMM_NULL;
  MPI_Comm_split(MPI_COMM_WORLD, world_rank() % 2, world_rank(), &out);
  return out;
}

TEST(MpiExchange, runs_on_the_communicator_it_is_given) {
  MPI_Comm parity = parity_communicator();
  {
    hamon::MpiExchange exchange(parity);
    const int w = world_rank();
    const int n = world_size();
    const int same_parity = (n - w % 2 + 1) / 2;  // ranks w % 2, w % 2 + 2, ... below n
    EXPECT_EQ(exchange.n_ranks(), same_parity);
    EXPECT_EQ(exchange.rank(), w / 2);
    // Rank 0 of each half sums its half's world ranks + 1.
    std::int64_t value = w + 1;
    exchange.sum_to_root(&value, 1);
    if (exchange.is_root()) {
      std::int64_t expected = 0;
      for (int other = w % 2; other < n; other += 2) expected += other + 1;
      EXPECT_EQ(value, expected);
    }
    const auto blocks = hamon::machine_blocks(40, exchange.n_ranks());
    const auto mine = my_values(blocks[static_cast<std::size_t>(exchange.rank())], 1);
    std::vector<std::int64_t> all(40 + kGuard, kSentinel);
    exchange.all_gather_machines(mine.data(), all.data(), blocks, 1);
    EXPECT_EQ(mismatches(all, 40, 1, value_of, kSentinel), "");
  }
  MPI_Comm_free(&parity);
}

/// Every rank's processor name (its node), in rank order of `communicator`.
std::vector<std::string> node_names(MPI_Comm communicator) {
  char name[MPI_MAX_PROCESSOR_NAME] = {};
  int length = 0;
  MPI_Get_processor_name(name, &length);
  int size = 0;
  MPI_Comm_size(communicator, &size);
  std::vector<char> all(static_cast<std::size_t>(size) * MPI_MAX_PROCESSOR_NAME);
  MPI_Allgather(name, MPI_MAX_PROCESSOR_NAME, MPI_CHAR, all.data(), MPI_MAX_PROCESSOR_NAME,
                MPI_CHAR, communicator);
  std::vector<std::string> out;
  for (int r = 0; r < size; ++r)
    out.emplace_back(&all[static_cast<std::size_t>(r) * MPI_MAX_PROCESSOR_NAME]);
  return out;
}

/// node_local_rank(communicator) against the ranks of `communicator` that have this
/// rank's node name: its index among them and their number (on one node, as under CTest:
/// the rank itself and the communicator's size).
void expect_node_local_rank(MPI_Comm communicator) {
  const hamon::NodeLocalRank got = hamon::node_local_rank(communicator);
  const std::vector<std::string> names = node_names(communicator);
  int rank = 0;
  MPI_Comm_rank(communicator, &rank);
  int local = 0;
  int on_node = 0;
  for (int r = 0; r < static_cast<int>(names.size()); ++r) {
    if (names[static_cast<std::size_t>(r)] != names[static_cast<std::size_t>(rank)]) continue;
    if (r < rank) ++local;
    ++on_node;
  }
  EXPECT_EQ(got.local, local);
  EXPECT_EQ(got.on_node, on_node);
  EXPECT_LT(got.local, got.on_node);
}

TEST(NodeLocalRank, is_the_index_among_the_ranks_of_the_node) {
  expect_node_local_rank(MPI_COMM_WORLD);
  MPI_Comm parity = parity_communicator();
  expect_node_local_rank(parity);
  MPI_Comm_free(&parity);
}

}  // namespace
