// SPDX-License-Identifier: Apache-2.0
#include "hamon/policies/mpi_exchange.hpp"

#include <climits>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <string>
#include <vector>

namespace hamon {

namespace {

void check(int code, const char* what) {
  if (code == MPI_SUCCESS) return;
  char text[MPI_MAX_ERROR_STRING];
  int length = 0;
  MPI_Error_string(code, text, &length);
  throw std::runtime_error(std::string(what) +
                           " failed: " + std::string(text, static_cast<std::size_t>(length)));
}

int as_count(std::int64_t n, const char* what) {
  if (n < 0 || n > INT_MAX) {
    throw std::length_error(std::string(what) + " of " + std::to_string(n) +
                            " elements exceeds one MPI message (2^31 - 1)");
  }
  return static_cast<int>(n);
}

/// One machine's bytes as one MPI datatype (machine_gather_layout's pieces and tail), freed
/// with its scope.
class MachineType {
 public:
  explicit MachineType(const MachineGatherLayout& l) {
    MPI_Datatype piece = MPI_DATATYPE_NULL;
    check(MPI_Type_contiguous(static_cast<int>(l.piece_bytes), MPI_BYTE, &piece),
          "MPI_Type_contiguous");
    const int lengths[2] = {static_cast<int>(l.pieces), static_cast<int>(l.tail_bytes)};
    const MPI_Aint displacements[2] = {0, static_cast<MPI_Aint>(l.pieces * l.piece_bytes)};
    MPI_Datatype types[2] = {piece, MPI_BYTE};
    MPI_Datatype machine = MPI_DATATYPE_NULL;
    const int code = MPI_Type_create_struct(2, lengths, displacements, types, &machine);
    MPI_Type_free(&piece);
    check(code, "MPI_Type_create_struct");
    // The extent is the machine's bytes exactly, so offsets count machines.
    const int resized = MPI_Type_create_resized(
        machine, 0, static_cast<MPI_Aint>(l.pieces * l.piece_bytes + l.tail_bytes), &type_);
    MPI_Type_free(&machine);
    check(resized, "MPI_Type_create_resized");
    check(MPI_Type_commit(&type_), "MPI_Type_commit");
  }
  ~MachineType() {
    if (type_ != MPI_DATATYPE_NULL) MPI_Type_free(&type_);
  }
  MachineType(const MachineType&) = delete;
  MachineType& operator=(const MachineType&) = delete;
  MPI_Datatype get() const { return type_; }

 private:
  MPI_Datatype type_ = MPI_DATATYPE_NULL;
};

}  // namespace

MpiExchange::MpiExchange(MPI_Comm communicator, std::int64_t gather_piece_bytes)
    : gather_piece_bytes_(gather_piece_bytes) {
  if (gather_piece_bytes < 1 || gather_piece_bytes > kGatherPieceBytes) {
    throw std::invalid_argument("hamon::MpiExchange: gather pieces of " +
                                std::to_string(gather_piece_bytes) + " bytes");
  }
  int initialized = 0;
  MPI_Initialized(&initialized);
  if (!initialized) throw std::runtime_error("hamon::MpiExchange: MPI is not initialised");
  check(MPI_Comm_dup(communicator, &communicator_), "MPI_Comm_dup");
  check(MPI_Comm_rank(communicator_, &rank_), "MPI_Comm_rank");
  check(MPI_Comm_size(communicator_, &n_ranks_), "MPI_Comm_size");
}

MpiExchange::~MpiExchange() {
  int finalized = 0;
  MPI_Finalized(&finalized);
  if (!finalized && communicator_ != MPI_COMM_NULL) MPI_Comm_free(&communicator_);
}

void MpiExchange::all_gather(const std::int64_t* mine, std::int64_t* all,
                             const std::vector<std::int64_t>& counts) {
  if (static_cast<int>(counts.size()) != n_ranks_) {
    throw std::invalid_argument("all_gather: " + std::to_string(counts.size()) + " counts for " +
                                std::to_string(n_ranks_) + " ranks");
  }
  std::vector<int> sizes, offsets;
  std::int64_t at = 0;
  for (std::int64_t c : counts) {
    sizes.push_back(as_count(c, "all_gather"));
    offsets.push_back(as_count(at, "all_gather"));
    at += c;
  }
  check(MPI_Allgatherv(mine, sizes[static_cast<std::size_t>(rank_)], MPI_INT64_T, all, sizes.data(),
                       offsets.data(), MPI_INT64_T, communicator_),
        "MPI_Allgatherv");
}

std::int64_t MpiExchange::max_over_ranks(std::int64_t value) {
  std::int64_t out = 0;
  check(MPI_Allreduce(&value, &out, 1, MPI_INT64_T, MPI_MAX, communicator_), "MPI_Allreduce");
  return out;
}

void MpiExchange::gather_machines_to_root(const std::int8_t* mine, std::int8_t* all,
                                          const std::vector<MachineBlock>& blocks,
                                          std::int64_t per_machine) {
  if (static_cast<int>(blocks.size()) != n_ranks_) {
    throw std::invalid_argument("gather_machines_to_root: " + std::to_string(blocks.size()) +
                                " blocks for " + std::to_string(n_ranks_) + " ranks");
  }
  // Counted in machines, never in bytes: machines x bytes passes 2^31 in the runs that
  // need several ranks.
  const MachineGatherLayout l = machine_gather_layout(blocks, per_machine, gather_piece_bytes_);
  const MachineType machine(l);
  const auto r = static_cast<std::size_t>(rank_);
  check(MPI_Gatherv(mine, l.counts[r], machine.get(), all, l.counts.data(), l.offsets.data(),
                    machine.get(), 0, communicator_),
        "MPI_Gatherv");
}

namespace {
template <class T>
void reduce_sum_to_root(T* values, std::int64_t n, MPI_Datatype type, int rank, MPI_Comm comm) {
  // In pieces of at most 2^30 elements, so any length fits one message count.
  constexpr std::int64_t kPiece = std::int64_t(1) << 30;
  for (std::int64_t at = 0; at < n; at += kPiece) {
    const int count = static_cast<int>(n - at < kPiece ? n - at : kPiece);
    if (rank == 0) {
      check(MPI_Reduce(MPI_IN_PLACE, values + at, count, type, MPI_SUM, 0, comm), "MPI_Reduce");
    } else {
      check(MPI_Reduce(values + at, nullptr, count, type, MPI_SUM, 0, comm), "MPI_Reduce");
    }
  }
}
}  // namespace

void MpiExchange::sum_to_root(std::int64_t* values, std::int64_t n) {
  reduce_sum_to_root(values, n, MPI_INT64_T, rank_, communicator_);
}

void MpiExchange::sum_to_root(std::int8_t* values, std::int64_t n) {
  reduce_sum_to_root(values, n, MPI_INT8_T, rank_, communicator_);
}

NodeLocalRank node_local_rank(MPI_Comm communicator) {
  MPI_Comm node = MPI_COMM_NULL;
  check(MPI_Comm_split_type(communicator, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node),
        "MPI_Comm_split_type");
  NodeLocalRank out;
  MPI_Comm_rank(node, &out.local);
  MPI_Comm_size(node, &out.on_node);
  MPI_Comm_free(&node);
  return out;
}

void abort_all_ranks(const std::string& message, int status) {
  std::fprintf(stderr, "%s\n", message.c_str());
  std::fflush(stderr);
  MPI_Abort(MPI_COMM_WORLD, status);
  std::abort();  // MPI_Abort does not return; for the compiler
}

}  // namespace hamon
