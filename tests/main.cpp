// SPDX-License-Identifier: Apache-2.0
// Test main: Kokkos is initialised before GoogleTest and finalised after it. Listing the
// tests (CTest's discovery) initialises nothing: Kokkos's start-up warnings on stdout
// would otherwise be read as test names.
#include <gtest/gtest.h>

#include <Kokkos_Core.hpp>
#include <cstring>
#include <optional>

int main(int argc, char* argv[]) {
  bool listing = false;
  for (int k = 1; k < argc; ++k) {
    listing = listing || std::strcmp(argv[k], "--gtest_list_tests") == 0;
  }
  std::optional<Kokkos::ScopeGuard> kokkos;
  if (!listing) kokkos.emplace(argc, argv);
  ::testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
