// SPDX-License-Identifier: Apache-2.0
#include "run/mpi_job.hpp"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <string>

#include "config/config_error.hpp"
#include "hamon/mpi_config.hpp"
#include "run/exit_status.hpp"
#if HAMON_ENABLE_MPI
#include <mpi.h>

#include "hamon/policies/mpi_exchange.hpp"
#endif

namespace hamon::cli {

#if HAMON_ENABLE_MPI
struct MpiJob::Communicator {
  MPI_Comm comm = MPI_COMM_NULL;
  ~Communicator() {
    if (comm != MPI_COMM_NULL) MPI_Comm_free(&comm);
  }
};
#else
struct MpiJob::Communicator {};
#endif

namespace {

MpiJob* the_job = nullptr;

#if HAMON_ENABLE_MPI
MPI_Comm comm_of(const std::unique_ptr<MpiJob::Communicator>& group) {
  return group ? group->comm : MPI_COMM_WORLD;
}
#endif

#if HAMON_ENABLE_MPI
bool launched_as_a_rank() {
  if (const char* forced = std::getenv("HAMON_MPI")) return std::strcmp(forced, "0") != 0;
  for (const char* name :
       {"OMPI_COMM_WORLD_SIZE", "PMIX_RANK", "PMI_RANK", "PMI_SIZE", "MPI_LOCALNRANKS"}) {
    if (std::getenv(name) != nullptr) return true;
  }
  return false;
}
#endif

}  // namespace

MpiJob::MpiJob(int& argc, char**& argv) {
#if HAMON_ENABLE_MPI
  if (launched_as_a_rank()) {
    int initialized = 0;
    MPI_Initialized(&initialized);
    if (!initialized) {
      MPI_Init(&argc, &argv);
      started_mpi_ = true;
    }
    MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
    MPI_Comm_size(MPI_COMM_WORLD, &size_);
    node_local_rank_ = hamon::node_local_rank(MPI_COMM_WORLD).local;
    if (size_ > 1) exchange_ = std::make_unique<MpiExchange>(MPI_COMM_WORLD);
  }
#else
  (void)argc;
  (void)argv;
  // Started as one of several ranks by a launcher, without MPI to find the others: every
  // process would run the whole experiment into the same directory.
  for (const char* name : {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE"}) {
    const char* size = std::getenv(name);
    if (size != nullptr && std::atoi(size) > 1) {
      const std::string line = error_line(
          "started as one of " + std::string(size) + " processes (" + name +
          "), but this hamon was built without MPI (HAMON_ENABLE_MPI=OFF): run it as one "
          "process, or build it with -DHAMON_ENABLE_MPI=ON");
      std::fprintf(stderr, "%s\n", line.c_str());
      std::exit(kExitBadInput);
    }
  }
#endif
  the_job = this;
}

MpiJob::~MpiJob() {
  exchange_.reset();
#if HAMON_ENABLE_MPI
  if (started_mpi_) MPI_Finalize();
#endif
  if (the_job == this) the_job = nullptr;
}

std::unique_ptr<MpiJob> MpiJob::split(int colour) const {
  if (!distributed()) return nullptr;
  std::unique_ptr<MpiJob> group(new MpiJob());
#if HAMON_ENABLE_MPI
  group->group_ = std::make_unique<Communicator>();
  MPI_Comm_split(comm_of(group_), colour, rank_, &group->group_->comm);
  MPI_Comm_rank(group->group_->comm, &group->rank_);
  MPI_Comm_size(group->group_->comm, &group->size_);
  if (group->size_ > 1) group->exchange_ = std::make_unique<MpiExchange>(group->group_->comm);
#else
  static_cast<void>(colour);  // without MPI every job is one process
#endif
  // A GPU per rank of a node, whatever group the rank is in.
  group->node_local_rank_ = node_local_rank_;
  group->status_of_ = status_of_;
  return group;
}

MpiJob::Scope::Scope(MpiJob& job) : previous_(&MpiJob::current()) {
  the_job = &job;
}

MpiJob::Scope::~Scope() {
  the_job = previous_;
}

MpiJob& MpiJob::current() {
  if (the_job == nullptr) {
    static int argc = 0;
    static char** argv = nullptr;
    static MpiJob one_process(argc, argv);
  }
  return *the_job;
}

void MpiJob::agree(const std::function<void()>& step) {
  std::exception_ptr failure;
  int status = 0;
  try {
    step();
  } catch (...) {
    failure = std::current_exception();
    status = status_of_ ? status_of_(failure) : 1;
    if (status == 0) status = 1;
  }
  if (!distributed()) {
    if (failure) std::rethrow_exception(failure);
    return;
  }
  // The highest status wins; among the ranks with it, the lowest rank prints.
  constexpr std::int64_t kRankSlots = std::int64_t(1) << 32;
  const std::int64_t mine =
      failure ? static_cast<std::int64_t>(status) * kRankSlots + (kRankSlots - 1 - rank_) : 0;
  const std::int64_t agreed = exchange_->max_over_ranks(mine);
  if (agreed == 0) return;
  failure_agreed_ = true;
  const auto agreed_status = static_cast<int>(agreed / kRankSlots);
  const auto printer = static_cast<int>(kRankSlots - 1 - agreed % kRankSlots);
  if (printer == rank_) std::rethrow_exception(failure);
  throw FailedOnAnotherRank(agreed_status);
}

std::vector<std::string> MpiJob::gather_to_root(const std::string& text) const {
  if (!distributed()) return {text};
  std::vector<std::string> out;
#if HAMON_ENABLE_MPI
  const int size = static_cast<int>(text.size());
  std::vector<int> sizes(static_cast<std::size_t>(size_)), offsets(sizes.size());
  MPI_Gather(&size, 1, MPI_INT, sizes.data(), 1, MPI_INT, 0, comm_of(group_));
  int total = 0;
  for (std::size_t r = 0; r < sizes.size(); ++r) {
    offsets[r] = total;
    total += sizes[r];
  }
  std::string all(static_cast<std::size_t>(is_root() ? total : 0), '\0');
  MPI_Gatherv(text.data(), size, MPI_CHAR, all.data(), sizes.data(), offsets.data(), MPI_CHAR, 0,
              comm_of(group_));
  if (is_root()) {
    for (std::size_t r = 0; r < sizes.size(); ++r) {
      out.push_back(
          all.substr(static_cast<std::size_t>(offsets[r]), static_cast<std::size_t>(sizes[r])));
    }
  }
#endif
  return out;
}

void MpiJob::require_same_inputs(const std::vector<RankInput>& inputs) const {
  try {
    require_same_on_every_rank(exchange_.get(), inputs);
  } catch (const std::invalid_argument& e) {
    throw UsageError(e.what());
  }
}

std::string MpiJob::broadcast_from_root(std::string bytes) const {
#if HAMON_ENABLE_MPI
  if (distributed()) {
    auto size = static_cast<long long>(bytes.size());
    MPI_Bcast(&size, 1, MPI_LONG_LONG, 0, comm_of(group_));
    bytes.resize(static_cast<std::size_t>(size));
    constexpr long long kPiece = 1LL << 30;
    for (long long at = 0; at < size; at += kPiece) {
      MPI_Bcast(&bytes[static_cast<std::size_t>(at)],
                static_cast<int>(size - at < kPiece ? size - at : kPiece), MPI_CHAR, 0,
                comm_of(group_));
    }
  }
#endif
  return bytes;
}

DeviceDecision MpiJob::local_decision(const DeviceSpec& device, std::int32_t n_chains,
                                      std::int64_t n_free, const DeviceDecision& whole_run) const {
  if (!distributed()) return whole_run;
  const MachineBlock mine = machine_blocks(n_chains, size_)[static_cast<std::size_t>(rank_)];
  return resolve_device(device, std::max<std::int64_t>(1, mine.count) * n_free);
}

void MpiJob::abort_job(const std::string& message, int status) const {
#if HAMON_ENABLE_MPI
  // A group's failure ends the whole job: the other groups would wait for it at the end.
  if (distributed() || group_) {
    // The error line's own "hamon:" says which rank speaks (one prefix, not two).
    const std::string who =
        "hamon (rank " + std::to_string(rank_) + " of " + std::to_string(size_) + ")";
    const std::string prefix = "hamon:";
    const std::string line =
        message.rfind(prefix, 0) == 0 ? who + message.substr(prefix.size()) : who + ": " + message;
    hamon::abort_all_ranks(line + "; ending every rank of the job", status);
  }
#endif
  std::fprintf(stderr, "%s\n", message.c_str());
  std::fflush(stderr);
  std::exit(status);
}

}  // namespace hamon::cli
