// SPDX-License-Identifier: Apache-2.0
#pragma once
// One NRPT run over several processes (ranks): the machines (state slots) are split into
// contiguous blocks, one per rank (machine_blocks), and each rank sweeps only its block.
// What the ranks share goes through a MachineExchange, which core never implements: the
// MPI one is hamon::MpiExchange (policies/hamon/policies/mpi_exchange.hpp); a Sampler
// without one is the whole run in one process.
//
// Per round only the machines' energies cross (one all_gather: n_machines 64-bit
// fixed-point values, and one word per rank that says whether it asks to stop). Every rank then
// evaluates the same swap decisions from the same counter-based draws, so the permutations,
// counters and ladder stay replicated without being sent. Traces, moments and the state to save
// reach rank 0 in chunks (sum_to_root, gather_machines_to_root). Every sum is of integers, so the
// result does not depend on the order of the ranks' contributions: the bits are those of one
// process.

#include <cstdint>
#include <vector>

#include "hamon/core/families/spin/heat_bath.hpp"

namespace hamon {

/// Machines [first, first + count) of a run.
struct MachineBlock {
  std::int32_t first = 0;
  std::int32_t count = 0;
  friend bool operator==(const MachineBlock& a, const MachineBlock& b) {
    return a.first == b.first && a.count == b.count;
  }
};

/// The machines a rank sweeps together come in whole draw groups (16 machines share one
/// Philox call per node: gibbs_sweep.hpp), so a rank's sweep is the same machine code as one
/// process's.
inline constexpr std::int32_t kMachinesPerRankUnit = detail::kUpdatesPerDraw;

/// Machines [0, n_machines) in `n_ranks` contiguous blocks of whole draw groups, in rank
/// order, as even as that allows (the first ranks get one group more; only the last block
/// may end in a partial group). Ranks beyond the number of groups get empty blocks.
/// Throws std::invalid_argument for n_machines < 1 or n_ranks < 1.
std::vector<MachineBlock> machine_blocks(std::int32_t n_machines, int n_ranks);

/// How gather_machines_to_root moves `per_machine` bytes of every machine with the int
/// counts of an MPI message, however large machines x bytes grows: in units of one whole
/// machine, so every count and offset is a machine count (an int32 already). A machine's
/// bytes are `pieces` pieces of `piece_bytes` and `tail_bytes` more (each fits an int; a
/// machine of up to 2^61 bytes), which an MPI datatype describes as one unit.
struct MachineGatherLayout {
  std::int64_t piece_bytes = 0;
  std::int64_t pieces = 0;
  std::int64_t tail_bytes = 0;
  std::vector<int> counts;   // per rank, in machines
  std::vector<int> offsets;  // per rank, in machines
};

/// Pieces of at most 2^30 bytes: a power of two, far below an int's 2^31 - 1.
inline constexpr std::int64_t kGatherPieceBytes = std::int64_t(1) << 30;

/// The layout of `blocks` (one per rank) with `per_machine` bytes each (>= 1); `piece_bytes`
/// (a test may make it small) in [1, 2^30]. Throws std::invalid_argument otherwise, or when
/// `blocks` do not lie in rank order side by side from machine 0.
MachineGatherLayout machine_gather_layout(const std::vector<MachineBlock>& blocks,
                                          std::int64_t per_machine,
                                          std::int64_t piece_bytes = kGatherPieceBytes);

/// What the ranks of one run share. Every call is collective: every rank makes the same
/// calls in the same order, with the same `blocks` (machine_blocks of the run).
class MachineExchange {
 public:
  virtual ~MachineExchange() = default;
  virtual int rank() const = 0;
  virtual int n_ranks() const = 0;
  bool is_root() const { return rank() == 0; }

  /// Every rank's counts[rank] values (`mine`), concatenated in rank order into `all`, on
  /// every rank.
  virtual void all_gather(const std::int64_t* mine, std::int64_t* all,
                          const std::vector<std::int64_t>& counts) = 0;
  /// Every rank's `per_machine` values for each machine of its block (`mine`, row-major by
  /// machine) into `all` (every machine in order, on every rank).
  void all_gather_machines(const std::int64_t* mine, std::int64_t* all,
                           const std::vector<MachineBlock>& blocks, std::int64_t per_machine) {
    std::vector<std::int64_t> counts;
    for (const MachineBlock& b : blocks) counts.push_back(b.count * per_machine);
    all_gather(mine, all, counts);
  }
  /// The same for bytes, into `all` on rank 0 only (`all` is unused elsewhere).
  virtual void gather_machines_to_root(const std::int8_t* mine, std::int8_t* all,
                                       const std::vector<MachineBlock>& blocks,
                                       std::int64_t per_machine) = 0;
  /// values[k] = the sum over ranks of values[k], on rank 0 (elsewhere left unspecified).
  virtual void sum_to_root(std::int64_t* values, std::int64_t n) = 0;
  virtual void sum_to_root(std::int8_t* values, std::int64_t n) = 0;
  /// The largest of every rank's `value`, on every rank (agreeing on a status or a stop).
  virtual std::int64_t max_over_ranks(std::int64_t value) = 0;
};

}  // namespace hamon
