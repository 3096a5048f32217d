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
// wall time when the machine is busy). Results never depend on the space or its threads.

#include <Kokkos_Core.hpp>
#include <optional>

namespace hamon::cli {

class KokkosSession {
 public:
  enum class HostThreads { all, one };
  explicit KokkosSession(HostThreads threads = HostThreads::all);
  KokkosSession(const KokkosSession&) = delete;
  KokkosSession& operator=(const KokkosSession&) = delete;

 private:
  std::optional<Kokkos::ScopeGuard> guard_;
};

}  // namespace hamon::cli
