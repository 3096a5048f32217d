// SPDX-License-Identifier: Apache-2.0
#include "commands/kokkos_session.hpp"

#include <cstdlib>
#include <vector>

#include "hamon/policies/compile_cache.hpp"

namespace hamon::cli {

KokkosSession::KokkosSession() {
  enable_persistent_compile_cache();
  // Kokkos's advice (e.g. "OMP_PROC_BIND not set") is not an error: keep stderr for errors
  // unless the user decides otherwise with KOKKOS_DISABLE_WARNINGS (Kokkos rejects the flag
  // when that variable is set too).
  char name[] = "hamon";
  char quiet[] = "--kokkos-disable-warnings";
  std::vector<char*> argv = {name};
  if (std::getenv("KOKKOS_DISABLE_WARNINGS") == nullptr) argv.push_back(quiet);
  int argc = static_cast<int>(argv.size());
  argv.push_back(nullptr);
  guard_.emplace(argc, argv.data());
}

}  // namespace hamon::cli
