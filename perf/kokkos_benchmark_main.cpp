// SPDX-License-Identifier: Apache-2.0
// main() for hamon's Google Benchmark binaries: Kokkos lives for the whole run.
//
//   --vector-target=NAME  the host kernels' vector path runs on instruction set NAME only
//                         (AVX3, AVX2, SSE4, SCALAR, NEON, ...: one this build dispatches
//                         to and this CPU runs), so one binary measures every target.
#include <benchmark/benchmark.h>

#include <Kokkos_Core.hpp>
#include <cstdio>
#include <cstring>
#include <string>

#include "hamon/core/families/detail/host_vectors.hpp"

namespace {

/// Applies and removes --vector-target=NAME; false (after a message) for an unknown name.
bool take_vector_target(int& argc, char** argv) {
  constexpr const char* kOption = "--vector-target=";
  for (int i = 1; i < argc; ++i) {
    if (std::strncmp(argv[i], kOption, std::strlen(kOption)) != 0) continue;
    const std::string name = argv[i] + std::strlen(kOption);
    for (int j = i; j + 1 < argc; ++j) argv[j] = argv[j + 1];
    --argc;
#if HAMON_HOST_SIMD
    std::string known;
    for (const std::int64_t target : hamon::detail::host_vector_targets()) {
      const std::string target_name = hamon::detail::host_vector_target_name(target);
      if (target_name == name) {
        hamon::detail::restrict_host_vector_target(target);
        return true;
      }
      known += " " + target_name;
    }
    std::fprintf(stderr, "--vector-target=%s: not one of this build's targets on this CPU:%s\n",
                 name.c_str(), known.c_str());
#else
    std::fprintf(stderr, "--vector-target=%s: this build has no vector path\n", name.c_str());
#endif
    return false;
  }
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  Kokkos::ScopeGuard kokkos(argc, argv);
  if (!take_vector_target(argc, argv)) return 2;
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
