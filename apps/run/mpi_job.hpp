// SPDX-License-Identifier: Apache-2.0
#pragma once
// The MPI job a `hamon` process belongs to. `mpirun -np 4 hamon run exp.yaml` (or srun)
// starts four processes; each finds the others here and runs its block of the machines
// (hamon/core/sampler/machine_exchange.hpp). Rank 0 alone prints and writes the run directory.
//
// MPI is started only in a build with HAMON_ENABLE_MPI and only when a launcher started this
// process (its environment names a rank: Open MPI, PMI/PMIx, MPICH's Hydra), or when
// HAMON_MPI=1 asks; HAMON_MPI=0 never starts it. Otherwise the job is this one process
// and nothing here communicates.
//
// Every rank reads the experiment and the checkpoint itself; before anything is created the
// ranks compare what they read (require_same_inputs) and stop together if they differ.
//
// Failures: a step every rank runs (checking the config, creating the run directory, loading
// a checkpoint) ends in agree(): if it failed on any rank, every rank exits with the same
// status and only the first failing rank prints. Anything that fails later on one rank
// ends the whole job (abort_job: the message, then MPI_Abort) so no rank waits forever.

#include <functional>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "hamon/core/sampler/machine_exchange.hpp"
#include "hamon/core/sampler/rank_agreement.hpp"
#include "hamon/policies/device_spec.hpp"
#include "hamon/policies/resolve_device.hpp"

namespace hamon::cli {

/// Thrown on the ranks where an agreed step did not fail while it failed on another: the
/// exit status to share, nothing to print (the failing rank printed).
class FailedOnAnotherRank : public std::runtime_error {
 public:
  explicit FailedOnAnotherRank(int status)
      : std::runtime_error("failed on another rank"), status_(status) {}
  int status() const { return status_; }

 private:
  int status_;
};

class MpiJob {
 public:
  /// Starts MPI when this process is one of a launched job (see above).
  MpiJob(int& argc, char**& argv);
  ~MpiJob();
  MpiJob(const MpiJob&) = delete;
  MpiJob& operator=(const MpiJob&) = delete;

  /// The job of this process (a one-process job before an MpiJob exists).
  static MpiJob& current();

  int rank() const { return rank_; }
  int size() const { return size_; }
  bool is_root() const { return rank_ == 0; }
  bool distributed() const { return size_ > 1; }
  /// The ranks' exchange for the sampler; null in a one-process job.
  MachineExchange* exchange() const { return exchange_.get(); }
  /// This rank's index among the ranks on its node (0 in a one-process job).
  int node_local_rank() const { return node_local_rank_; }

  /// Runs `step` on this rank, then agrees with every rank on whether it failed anywhere
  /// (one collective). Rethrows this rank's exception when it is the first failing rank;
  /// throws FailedOnAnotherRank(the same status) on every other rank; returns when no rank
  /// failed. The exit status of an exception is set_status_of's.
  void agree(const std::function<void()>& step);
  /// How agree() maps an exception to an exit status (main() sets the CLI's).
  void set_status_of(std::function<int(const std::exception_ptr&)> status_of) {
    status_of_ = std::move(status_of);
  }
  /// Whether the exception being handled was agreed on (so this rank may just exit).
  bool failure_agreed() const { return failure_agreed_; }

  /// Every rank's `text`, in rank order, on rank 0 (empty elsewhere; collective).
  std::vector<std::string> gather_to_root(const std::string& text) const;
  /// The GPU this rank takes among a node's `visible_devices` (one GPU per rank: node-local
  /// rank mod devices); none without devices.
  std::optional<int> device_of_rank(int visible_devices) const {
    if (visible_devices <= 0) return std::nullopt;
    return node_local_rank_ % visible_devices;
  }
  /// Returns when every rank read the same `inputs` (rank_agreement.hpp: fingerprints of
  /// the experiment, the checkpoint); else throws UsageError naming the ranks that differ,
  /// the same on every rank, so that inside agree() rank 0 alone prints it. Collective.
  void require_same_inputs(const std::vector<RankInput>& inputs) const;
  /// Rank 0's `bytes` on every rank (collective; a no-op in a one-process job).
  std::string broadcast_from_root(std::string bytes) const;

  /// The device decision of this rank's part of a run of `n_chains` machines (chains times
  /// replicas) on a model
  /// with `n_free` free nodes: routed with its local work score (its machines x n_free).
  /// In a one-process job: `whole_run` (the decision for every chain).
  DeviceDecision local_decision(const DeviceSpec& device, std::int32_t n_chains,
                                std::int64_t n_free, const DeviceDecision& whole_run) const;

  /// The ranks of this job in groups, each a job of its own over its ranks: the ranks that
  /// pass the same `colour` (>= 0) form one group, ordered by their rank here
  /// (MPI_Comm_split; collective over this job). Nothing the groups do later communicates
  /// between them. Null in a one-process job (this job is the one group).
  std::unique_ptr<MpiJob> split(int colour) const;

  /// Makes `job` the current one (MpiJob::current()) for the scope's lifetime.
  class Scope {
   public:
    explicit Scope(MpiJob& job);
    ~Scope();
    Scope(const Scope&) = delete;
    Scope& operator=(const Scope&) = delete;

   private:
    MpiJob* previous_;
  };

  /// A group's communicator (defined where MPI is).
  struct Communicator;

  /// Ends every rank with `status` after printing `message` (an error line, error_line's;
  /// its "hamon" then names the rank) on stderr. In a one-process job: prints and exits.
  [[noreturn]] void abort_job(const std::string& message, int status) const;

 private:
  MpiJob() = default;  // a group (split)

  int rank_ = 0;
  int size_ = 1;
  int node_local_rank_ = 0;
  bool started_mpi_ = false;
  bool failure_agreed_ = false;
  std::unique_ptr<Communicator> group_;  // null: MPI_COMM_WORLD
  std::unique_ptr<MachineExchange> exchange_;
  std::function<int(const std::exception_ptr&)> status_of_;
};

}  // namespace hamon::cli
