// SPDX-License-Identifier: Apache-2.0
#pragma once
// Wall-clock timing shared by the benchmark binaries (manual time, so asynchronous spaces
// are timed to completion).

#include <benchmark/benchmark.h>

#include <chrono>
#include <cstdint>

#include "hamon/core/sampler/nrpt.hpp"

namespace hamon::perf {

/// A `space` for timed_loop when the body runs on the calling thread.
struct NoFence {
  void fence() const {}
};

/// Runs `body(iteration)` once per benchmark iteration, then fences `space`; each
/// iteration's wall time is its manual time. Returns the total seconds.
template <class Space, class Body>
double timed_loop(benchmark::State& state, const Space& space, Body&& body) {
  double seconds = 0.0;
  std::uint32_t iteration = 0;
  for (auto _ : state) {
    const auto start = std::chrono::steady_clock::now();
    body(iteration++);
    space.fence();
    const double t =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    state.SetIterationTime(t);
    seconds += t;
  }
  return seconds;
}

/// One whole hamon::nrpt run of `model` per iteration; returns node updates per ns.
template <class Space>
double nrpt_updates_per_ns(benchmark::State& state, const SpinModel& model,
                           const NrptOptions& options) {
  std::int64_t updates = 0;
  const Space space;
  const double seconds = timed_loop(state, space, [&](std::uint32_t) {
    const auto result = hamon::nrpt(space, model, options);
    updates += result.spin_updates;
    benchmark::DoNotOptimize(result.total_round_trips);
  });
  return static_cast<double>(updates) / seconds * 1e-9;
}

}  // namespace hamon::perf
