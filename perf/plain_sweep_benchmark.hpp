// SPDX-License-Identifier: Apache-2.0
#pragma once
// The yardstick (plain_sweep.hpp) as a Google Benchmark body, shared by the benchmark
// binaries so each runs it in the same process as what it measures.

#include <benchmark/benchmark.h>

#include <chrono>

#include "bench_timing.hpp"
#include "plain_sweep.hpp"

namespace hamon::perf {

/// One plain sweep of `chains` chains of an L x L lattice per iteration, wall-clock timed
/// (manual time); the rate goes to counter `counter` (updates per ns).
inline void time_plain_sweep(benchmark::State& state, int side, int chains, const char* counter) {
  PlainSweep plain(side, chains, 7);
  plain.sweep();
  const double seconds = timed_loop(state, NoFence{}, [&](std::uint32_t) {
    plain.sweep();
    benchmark::DoNotOptimize(plain.spins());
  });
  state.counters[counter] = static_cast<double>(plain.updates_per_sweep()) *
                            static_cast<double>(state.iterations()) / seconds * 1e-9;
}

}  // namespace hamon::perf
