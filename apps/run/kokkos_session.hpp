// SPDX-License-Identifier: Apache-2.0
#pragma once
// Kokkos for the commands that sample or list devices (run, demo, devices); validate and
// resolve never start it. The persistent CUDA JIT cache is configured first (it must
// precede CUDA's initialisation). Kokkos gets no command-line arguments: it is tuned
// through its environment variables (KOKKOS_NUM_THREADS / OMP_NUM_THREADS, ...), and its
// warnings are off unless KOKKOS_DISABLE_WARNINGS says otherwise.
//
// A run that samples on Serial gets one host thread: Kokkos would otherwise start the
// OpenMP space's worker threads, which then only spin-wait after Kokkos's own start-up
// regions, taking a core from the run on a small machine (tens of ms of a short run's
// wall time when the machine is busy). A run the host tier put on OpenMP gets the cores
// other processes leave idle (fit_to_machine). A thread count the user set
// (OMP_NUM_THREADS, KOKKOS_NUM_THREADS) is never changed. Results never depend on the space
// or its threads.

#include <Kokkos_Core.hpp>
#include <optional>

#include "hamon/policies/placement.hpp"

namespace hamon::cli {

/// Fits a decision the host tier made to the cores other processes leave idle now
/// (fit_to_idle_cores, hamon/policies/host_load.hpp), unless the user chose the thread count
/// or the job runs over several ranks (their placement is the launcher's). The load is
/// sampled once per process, so every run of an ensemble is fitted alike.
void fit_to_machine(DeviceDecision& decision);

/// The host threads to start Kokkos with for runs placed by `decision`: 1 on Serial, the
/// fitted count when fit_to_machine set one, else 0 (Kokkos's own count).
int host_threads_for(const DeviceDecision& decision);

class KokkosSession {
 public:
  /// `host_threads` > 0: start the host spaces with that many threads (unless the user set
  /// KOKKOS_NUM_THREADS, which Kokkos would find in conflict); 0: Kokkos's own count.
  explicit KokkosSession(int host_threads = 0);
  KokkosSession(const KokkosSession&) = delete;
  KokkosSession& operator=(const KokkosSession&) = delete;

 private:
  std::optional<Kokkos::ScopeGuard> guard_;
};

}  // namespace hamon::cli
