// SPDX-License-Identifier: Apache-2.0
#pragma once
// hamon::MachineExchange (hamon/core/sampler/machine_exchange.hpp) over MPI: one NRPT run across
// the ranks of a communicator. Built only with HAMON_ENABLE_MPI (hamon/mpi_config.hpp defines it 1
// or 0).
//
// Per round: one MPI_Allgatherv of the machines' fixed-point energies (and a stop word per
// rank). At a flush, a
// checkpoint or the result: MPI_Reduce (sum) of the integer trace and moment chunks, and
// MPI_Gatherv of the spins, to rank 0, counted in machines (a derived datatype), so that
// machines x nodes may pass 2^31.

#include <mpi.h>

#include <string>

#include "hamon/core/sampler/machine_exchange.hpp"

namespace hamon {

class MpiExchange final : public MachineExchange {
 public:
  /// Uses a duplicate of `communicator` (its own context: hamon's messages never match the
  /// caller's). MPI must be initialised; throws std::runtime_error otherwise.
  /// `gather_piece_bytes`: how gather_machines_to_root cuts a machine's bytes
  /// (machine_gather_layout; tests make it small to reach the cut with small machines).
  explicit MpiExchange(MPI_Comm communicator = MPI_COMM_WORLD,
                       std::int64_t gather_piece_bytes = kGatherPieceBytes);
  ~MpiExchange() override;
  MpiExchange(const MpiExchange&) = delete;
  MpiExchange& operator=(const MpiExchange&) = delete;

  int rank() const override { return rank_; }
  int n_ranks() const override { return n_ranks_; }
  void all_gather(const std::int64_t* mine, std::int64_t* all,
                  const std::vector<std::int64_t>& counts) override;
  void gather_machines_to_root(const std::int8_t* mine, std::int8_t* all,
                               const std::vector<MachineBlock>& blocks,
                               std::int64_t per_machine) override;
  void sum_to_root(std::int64_t* values, std::int64_t n) override;
  void sum_to_root(std::int8_t* values, std::int64_t n) override;
  std::int64_t max_over_ranks(std::int64_t value) override;

  MPI_Comm communicator() const { return communicator_; }

 private:
  MPI_Comm communicator_ = MPI_COMM_NULL;
  int rank_ = 0;
  int n_ranks_ = 1;
  std::int64_t gather_piece_bytes_ = kGatherPieceBytes;
};

/// This rank's index among the ranks on its node (MPI_Comm_split_type with
/// MPI_COMM_TYPE_SHARED), and how many share the node: with one GPU per rank, rank `local`
/// of a node takes device `local % devices`.
struct NodeLocalRank {
  int local = 0;
  int on_node = 1;
};
NodeLocalRank node_local_rank(MPI_Comm communicator = MPI_COMM_WORLD);

/// Ends every rank of MPI_COMM_WORLD with `status` after printing `message` on this rank's
/// stderr (MPI_Abort): for a failure on one rank that the others cannot know of.
[[noreturn]] void abort_all_ranks(const std::string& message, int status);

}  // namespace hamon
