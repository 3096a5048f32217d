// SPDX-License-Identifier: Apache-2.0
#pragma once
// Kokkos for the commands that sample or list devices (run, demo, devices); validate and
// resolve never start it. The persistent CUDA JIT cache is configured first (it must
// precede CUDA's initialisation). Kokkos gets no command-line arguments: it is tuned
// through its environment variables (KOKKOS_NUM_THREADS / OMP_NUM_THREADS, ...), and its
// warnings are off unless KOKKOS_DISABLE_WARNINGS says otherwise.

#include <Kokkos_Core.hpp>
#include <optional>

namespace hamon::cli {

class KokkosSession {
 public:
  KokkosSession();
  KokkosSession(const KokkosSession&) = delete;
  KokkosSession& operator=(const KokkosSession&) = delete;

 private:
  std::optional<Kokkos::ScopeGuard> guard_;
};

}  // namespace hamon::cli
