// SPDX-License-Identifier: Apache-2.0
#include "run/kokkos_session.hpp"

#include <cstdlib>
#include <string>
#include <vector>

#include "hamon/policies/accelerator.hpp"
#include "hamon/policies/compile_cache.hpp"
#include "hamon/policies/host_load.hpp"
#include "run/mpi_job.hpp"

namespace hamon::cli {

void fit_to_machine(DeviceDecision& decision) {
  if (host_threads_chosen_by_user() || MpiJob::current().distributed()) return;
  static const std::optional<HostLoad> load = sample_host_load();
  if (load) fit_to_idle_cores(decision, *load);
}

int host_threads_for(const DeviceDecision& decision) {
  if (decision.placement == Placement::serial) return 1;
  if (decision.host_tier && decision.host_tier->threads) return *decision.host_tier->threads;
  return 0;
}

KokkosSession::KokkosSession(int host_threads) {
  enable_persistent_compile_cache();
  // Kokkos's advice (e.g. "OMP_PROC_BIND not set") is not an error: keep stderr for errors
  // unless the user decides otherwise with KOKKOS_DISABLE_WARNINGS (Kokkos rejects the flag
  // when that variable is set too).
  char name[] = "hamon";
  char quiet[] = "--kokkos-disable-warnings";
  std::vector<char*> argv = {name};
  if (std::getenv("KOKKOS_DISABLE_WARNINGS") == nullptr) argv.push_back(quiet);
  // In a job over ranks with GPUs, one GPU per rank: rank k of a node takes device k mod
  // the node's devices (the node-local rank from MPI_Comm_split_type, run/mpi_job.hpp).
  std::string device_id;
  const MpiJob& job = MpiJob::current();
  if (job.distributed() && accelerator_compiled_in()) {
    if (const auto device = job.device_of_rank(probe_accelerator().visible_devices)) {
      device_id = "--kokkos-device-id=" + std::to_string(*device);
      argv.push_back(device_id.data());
    }
  }
  // A thread count set by the user (KOKKOS_NUM_THREADS) wins: Kokkos refuses a flag that
  // disagrees with it.
#if KOKKOS_VERSION >= 30700
  std::string threads_flag = "--kokkos-num-threads=" + std::to_string(host_threads);
#else
  std::string threads_flag = "--kokkos-threads=" + std::to_string(host_threads);
#endif
  if (host_threads > 0 && std::getenv("KOKKOS_NUM_THREADS") == nullptr) {
    argv.push_back(threads_flag.data());
  }
  int argc = static_cast<int>(argv.size());
  argv.push_back(nullptr);
  guard_.emplace(argc, argv.data());
}

}  // namespace hamon::cli
