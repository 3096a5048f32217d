// SPDX-License-Identifier: Apache-2.0
#pragma once
// The yardstick (plain_sweep.hpp) as a Google Benchmark body, shared by the benchmark
// binaries so each runs it in the same process as what it measures.

#include <benchmark/benchmark.h>

#include <chrono>
#include <vector>

#if defined(_OPENMP)
#include <omp.h>
#endif

#include "bench_timing.hpp"
#include "plain_sweep.hpp"

namespace hamon::perf {

/// The thread counts a yardstick runs with: 1 (beside Serial rows) and, where the build
/// has OpenMP, the count an OpenMP space gets by default (beside OpenMP rows; both read
/// OMP_NUM_THREADS), so every ratio compares like with like.
inline std::vector<int> plain_thread_counts() {
  std::vector<int> counts{1};
#if defined(_OPENMP)
  if (omp_get_max_threads() > 1) counts.push_back(omp_get_max_threads());
#endif
  return counts;
}

/// One plain sweep of `chains` chains of an L x L lattice on `threads` threads per
/// iteration, wall-clock timed (manual time); the rate goes to counter `counter` (updates
/// per ns).
inline void time_plain_sweep(benchmark::State& state, int side, int chains, int threads,
                             const char* counter) {
  PlainSweep plain(side, chains, 7, threads);
  plain.sweep();
  const double seconds = timed_loop(state, NoFence{}, [&](std::uint32_t) {
    plain.sweep();
    benchmark::DoNotOptimize(plain.spins());
  });
  state.counters[counter] = static_cast<double>(plain.updates_per_sweep()) *
                            static_cast<double>(state.iterations()) / seconds * 1e-9;
}

}  // namespace hamon::perf
