// SPDX-License-Identifier: Apache-2.0
// main() for hamon's Google Benchmark binaries: Kokkos lives for the whole run.
#include <benchmark/benchmark.h>

#include <Kokkos_Core.hpp>

int main(int argc, char** argv) {
  Kokkos::ScopeGuard kokkos(argc, argv);
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
