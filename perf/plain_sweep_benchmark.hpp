// SPDX-License-Identifier: Apache-2.0
#pragma once
// The yardsticks (plain_yardstick.hpp) as Google Benchmark bodies, shared by the benchmark
// binaries so each runs them in the same process as what it measures.

#include <benchmark/benchmark.h>

#include <chrono>
#include <memory>
#include <string>
#include <vector>

#if defined(_OPENMP)
#include <omp.h>
#endif

#include "bench_timing.hpp"
#include "plain_yardstick.hpp"

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

/// Times both builds of a yardstick (plain_yardstick.hpp), one sweep of each per
/// iteration, interleaved so both see the same load; `make(build)` makes one. Counter
/// `counter` gets the faster build's rate (updates per ns): the yardstick at its best;
/// `counter`_project and `counter`_newcomer keep each build's rate, and the label names the
/// faster one. The manual time is the faster build's.
template <class Make>
void time_plain_yardsticks(benchmark::State& state, Make&& make, const std::string& counter) {
  std::unique_ptr<PlainYardstick> sweeps[2];
  double seconds[2] = {0.0, 0.0};
  for (int b = 0; b < 2; ++b) {
    sweeps[b] = make(kPlainBuilds[b]);
    sweeps[b]->sweep();
  }
  for (auto _ : state) {
    double t[2];
    for (int b = 0; b < 2; ++b) {
      const auto start = std::chrono::steady_clock::now();
      sweeps[b]->sweep();
      benchmark::DoNotOptimize(sweeps[b]->state());
      t[b] = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      seconds[b] += t[b];
    }
    state.SetIterationTime(seconds[0] <= seconds[1] ? t[0] : t[1]);
  }
  double best = 0.0;
  int faster = 0;
  for (int b = 0; b < 2; ++b) {
    const double rate = static_cast<double>(sweeps[b]->updates_per_sweep()) *
                        static_cast<double>(state.iterations()) / seconds[b] * 1e-9;
    state.counters[counter + "_" + plain_build_name(kPlainBuilds[b])] = rate;
    if (rate > best) best = rate, faster = b;
  }
  state.counters[counter] = best;
  state.SetLabel(std::string("faster: ") + plain_build_name(kPlainBuilds[faster]));
}

/// The Ising yardstick of an L x L lattice, `chains` chains on `threads` threads.
inline void time_plain_sweep(benchmark::State& state, int side, int chains, int threads,
                             const char* counter) {
  time_plain_yardsticks(
      state, [&](PlainBuild build) { return make_plain_ising(build, side, chains, 7, threads); },
      counter);
}

}  // namespace hamon::perf
