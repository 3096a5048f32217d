// SPDX-License-Identifier: Apache-2.0
// Throughput of the full NRPT round loop (sweeps + energies + swaps + index process) on a
// 2D +-J Edwards-Anderson lattice, per enabled execution space.
//
//   build/bin/bench_round_loop --benchmark_filter=... [--benchmark_format=json]
//
// Counter spin_updates_per_ns = heat-bath updates / wall time (burn-in none, observers off).
// plain_sweep is the yardstick (plain_sweep.hpp) in the same run: the recorded table gives
// every rate as a ratio to it (x_plain, same L, same thread count: 1 for Serial, the
// OpenMP space's for OpenMP).
#include <benchmark/benchmark.h>

#include <Kokkos_Core.hpp>
#include <algorithm>
#include <chrono>
#include <map>
#include <memory>

#include "bench_timing.hpp"
#include "hamon/backend_list.hpp"
#include "hamon/core/model/model_builders.hpp"
#include "hamon/core/sampler/nrpt.hpp"
#include "plain_sweep_benchmark.hpp"

namespace {

const hamon::SpinModel& ea_lattice(int side) {
  static std::map<int, std::unique_ptr<hamon::SpinModel>> cache;
  auto& slot = cache[side];
  if (!slot) {
    slot = std::make_unique<hamon::SpinModel>(
        hamon::make_lattice({side, side}, true, hamon::ValueDistribution::pm_one(1)));
  }
  return *slot;
}

template <class Space>
void round_loop(benchmark::State& state) {
  const int side = static_cast<int>(state.range(0));
  const auto& model = ea_lattice(side);
  hamon::NrptOptions options;
  options.n_chains = static_cast<std::int32_t>(state.range(1));
  options.n_expl = static_cast<std::int32_t>(state.range(2));
  options.beta_max = 1.0;
  options.seed = 7;
  // About 1e8 updates per iteration, at least 100 rounds, so set-up (model copy, random
  // start) stays a small part of the time, as in a real run.
  const double per_round = static_cast<double>(model.n_nodes()) * options.n_chains * options.n_expl;
  options.n_rounds = std::max<std::int64_t>(100, static_cast<std::int64_t>(1e8 / per_round));
  state.counters["spin_updates_per_ns"] =
      hamon::perf::nrpt_updates_per_ns<Space>(state, model, options);
  state.counters["rounds"] = static_cast<double>(options.n_rounds);
}

/// The yardstick: one plain scalar sweep per iteration, 32 chains.
void plain_sweep(benchmark::State& state) {
  hamon::perf::time_plain_sweep(state, static_cast<int>(state.range(0)), 32,
                                static_cast<int>(state.range(1)), "spin_updates_per_ns");
}

void plain_args(benchmark::internal::Benchmark* b) {
  for (int side : {32, 64, 128}) {
    for (int threads : hamon::perf::plain_thread_counts()) b->Args({side, threads});
  }
  b->ArgNames({"L", "threads"})->UseManualTime()->Unit(benchmark::kMicrosecond);
}

void lattice_sizes(benchmark::internal::Benchmark* b) {
  for (int side : {32, 64, 128}) {
    for (int chains : {8, 16, 32}) {
      for (int n_expl : {1, 4}) b->Args({side, chains, n_expl});
    }
  }
  b->ArgNames({"L", "chains", "n_expl"})->UseManualTime()->Unit(benchmark::kMillisecond);
}

BENCHMARK(plain_sweep)->Apply(plain_args);
// One per backend of cmake/HamonBackends.cmake's list that this build has.
#define HAMON_BENCHMARK_BACKEND(name, Class, OPTION, tier) \
  BENCHMARK_TEMPLATE(round_loop, Kokkos::Class)->Apply(lattice_sizes);
HAMON_FOR_EACH_ENABLED_BACKEND(HAMON_BENCHMARK_BACKEND)
#undef HAMON_BENCHMARK_BACKEND

}  // namespace
