// SPDX-License-Identifier: Apache-2.0
// Potts (q-state) throughput, per enabled execution space, with the yardstick in the same
// run:
//
//   plain_potts_sweep   plain_potts_sweep.hpp: a plain scalar q-state heat-bath sweep of
//                       the same lattice (q expf per update) on 1 thread and on the OpenMP
//                       space's threads; every rate below is also recorded as a ratio to it
//                       (x_plain, same L, same thread count);
//   potts_sweep         one sweep of every machine (hamon::gibbs_sweep) of a 2D periodic
//                       L x L Potts lattice: `path` 0 the lattice fast path (ferromagnet,
//                       J = 1: weight tables), 1 the CSR path on the same model, 2 the CSR
//                       path of a Gaussian Potts glass (deterministic exp per state);
//   potts_energy        one energy evaluation of every machine;
//   potts_round_loop    whole NRPT runs (hamon::nrpt: sweeps, energies, swaps) of the
//                       ferromagnet, betas spaced linearly in [0, 1.2] around beta_c;
//   ising_round_loop    the same runs of the Ising ferromagnet on the same lattice: the
//                       yardstick of the Potts round loop's rate (q = 3 is about 3 Ising
//                       updates' arithmetic per update).
//
// Arguments: L, chains, q (and path, or n_expl for the round loop). Counters:
// updates_per_ns (node updates), node_machines_per_ns (energy).
//
//   build/bin/bench_potts [--benchmark_filter=...]
//   python3 perf/tools/record_benchmark.py build/bin/bench_potts potts/$(date -u +%F)-full-grid
#include <benchmark/benchmark.h>

#include <Kokkos_Core.hpp>
#include <algorithm>
#include <chrono>
#include <map>
#include <memory>
#include <tuple>
#include <vector>

#include "bench_timing.hpp"
#include "hamon/backend_list.hpp"
#include "hamon/core/families/energy.hpp"
#include "hamon/core/families/gibbs_sweep.hpp"
#include "hamon/core/model/device_model.hpp"
#include "hamon/core/model/model_builders.hpp"
#include "hamon/core/sampler/make_chain_state.hpp"
#include "hamon/core/sampler/nrpt.hpp"
#include "hamon/core/state/chain_state.hpp"
#include "plain_sweep_benchmark.hpp"

namespace {

enum Path : int { kLattice = 0, kCsr = 1, kCsrGaussian = 2 };

const hamon::SpinModel& potts_lattice(int side, int q, bool gaussian) {
  static std::map<std::tuple<int, int, bool>, std::unique_ptr<hamon::SpinModel>> cache;
  auto& slot = cache[{side, q, gaussian}];
  if (!slot) {
    const auto coupling =
        gaussian ? hamon::ValueDistribution::gaussian(1) : hamon::ValueDistribution::constant(1.0);
    slot = std::make_unique<hamon::SpinModel>(
        hamon::make_potts_lattice({side, side}, true, q, coupling));
  }
  return *slot;
}

std::vector<double> linear_ladder(int chains, double top) {
  std::vector<double> betas(static_cast<std::size_t>(chains));
  for (int k = 0; k < chains; ++k) {
    betas[static_cast<std::size_t>(k)] = chains > 1 ? top * k / (chains - 1) : top;
  }
  return betas;
}

using hamon::perf::timed_loop;

template <class Space>
void potts_sweep(benchmark::State& state) {
  const int side = static_cast<int>(state.range(0));
  const int chains = static_cast<int>(state.range(1));
  const int q = static_cast<int>(state.range(2));
  const int path = static_cast<int>(state.range(3));
  Space space;
  auto model = hamon::make_device_model(space, potts_lattice(side, q, path == kCsrGaussian));
  if (path != kLattice) model.lattice.enabled = false;
  if (path == kLattice && !model.lattice.enabled) {
    state.SkipWithError("the lattice fast path does not apply to this model");
    return;
  }
  auto chain_state = hamon::make_chain_state(space, model, linear_ladder(chains, 1.0), 7);
  hamon::gibbs_sweep(space, model, chain_state, 7, 0, 0);
  space.fence();
  const double seconds = timed_loop(state, space, [&](std::uint32_t it) {
    hamon::gibbs_sweep(space, model, chain_state, 7, it / 4 + 1, it % 4);
  });
  state.counters["updates_per_ns"] = static_cast<double>(model.n_free) * chains *
                                     static_cast<double>(state.iterations()) / seconds * 1e-9;
  state.counters["table"] = chain_state.tables.potts_weight.extent(0) > 0 ? 1 : 0;
}

template <class Space>
void potts_energy(benchmark::State& state) {
  const int side = static_cast<int>(state.range(0));
  const int chains = static_cast<int>(state.range(1));
  const int q = static_cast<int>(state.range(2));
  Space space;
  const auto model = hamon::make_device_model(space, potts_lattice(side, q, false));
  auto chain_state = hamon::make_chain_state(space, model, linear_ladder(chains, 1.0), 7);
  space.fence();
  const double seconds = timed_loop(
      state, space, [&](std::uint32_t) { hamon::compute_energies(space, model, chain_state); });
  state.counters["node_machines_per_ns"] = static_cast<double>(model.n_nodes) * chains *
                                           static_cast<double>(state.iterations()) / seconds * 1e-9;
}

template <class Space>
void potts_round_loop(benchmark::State& state) {
  const int side = static_cast<int>(state.range(0));
  const int q = static_cast<int>(state.range(2));
  const auto& model = potts_lattice(side, q, false);
  hamon::NrptOptions options;
  options.n_chains = static_cast<std::int32_t>(state.range(1));
  options.n_expl = static_cast<std::int32_t>(state.range(3));
  options.beta_max = 1.2;
  options.seed = 7;
  const double per_round = static_cast<double>(model.n_nodes()) * options.n_chains * options.n_expl;
  options.n_rounds = std::max<std::int64_t>(50, static_cast<std::int64_t>(3e7 / per_round));
  state.counters["updates_per_ns"] = hamon::perf::nrpt_updates_per_ns<Space>(state, model, options);
}

template <class Space>
void ising_round_loop(benchmark::State& state) {
  const int side = static_cast<int>(state.range(0));
  static std::map<int, std::unique_ptr<hamon::SpinModel>> cache;
  auto& model = cache[side];
  if (!model) {
    model = std::make_unique<hamon::SpinModel>(
        hamon::make_lattice({side, side}, true, hamon::ValueDistribution::constant(1.0)));
  }
  hamon::NrptOptions options;
  options.n_chains = static_cast<std::int32_t>(state.range(1));
  options.n_expl = static_cast<std::int32_t>(state.range(2));
  options.beta_max = 1.2;
  options.seed = 7;
  const double per_round =
      static_cast<double>(model->n_nodes()) * options.n_chains * options.n_expl;
  options.n_rounds = std::max<std::int64_t>(50, static_cast<std::int64_t>(3e7 / per_round));
  state.counters["updates_per_ns"] =
      hamon::perf::nrpt_updates_per_ns<Space>(state, *model, options);
}

void plain_potts_sweep(benchmark::State& state) {
  const int side = static_cast<int>(state.range(0));
  const int chains = static_cast<int>(state.range(1)), q = static_cast<int>(state.range(2));
  const int threads = static_cast<int>(state.range(3));
  hamon::perf::time_plain_yardsticks(
      state,
      [&](hamon::perf::PlainBuild build) {
        return hamon::perf::make_plain_potts(build, side, chains, q, 7, threads);
      },
      "updates_per_ns");
}

void sides(benchmark::internal::Benchmark* b, std::vector<std::vector<std::int64_t>> rest,
           const std::vector<std::string>& names) {
  for (int side : {64, 128}) {
    for (auto args : rest) {
      args.insert(args.begin(), side);
      b->Args(args);
    }
  }
  b->ArgNames(names)->UseManualTime()->Unit(benchmark::kMicrosecond);
}

void plain_args(benchmark::internal::Benchmark* b) {
  std::vector<std::vector<std::int64_t>> rest;
  for (int threads : hamon::perf::plain_thread_counts()) rest.push_back({32, 3, threads});
  sides(b, rest, {"L", "chains", "q", "threads"});
}
void sweep_args(benchmark::internal::Benchmark* b) {
  sides(b,
        {{8, 3, kLattice},
         {32, 3, kLattice},
         {32, 3, kCsr},
         {32, 3, kCsrGaussian},
         {32, 8, kLattice},
         {32, 8, kCsr},
         {32, 10, kLattice}},
        {"L", "chains", "q", "path"});
}
void energy_args(benchmark::internal::Benchmark* b) {
  sides(b, {{32, 3}, {32, 8}}, {"L", "chains", "q"});
}
void round_args(benchmark::internal::Benchmark* b) {
  sides(b, {{32, 3, 4}, {32, 8, 4}}, {"L", "chains", "q", "n_expl"});
}
void ising_round_args(benchmark::internal::Benchmark* b) {
  sides(b, {{32, 4}}, {"L", "chains", "n_expl"});
}

BENCHMARK(plain_potts_sweep)->Apply(plain_args);
#define HAMON_BENCHMARK_BACKEND(name, Class, OPTION, tier)                \
  BENCHMARK_TEMPLATE(potts_sweep, Kokkos::Class)->Apply(sweep_args);      \
  BENCHMARK_TEMPLATE(potts_energy, Kokkos::Class)->Apply(energy_args);    \
  BENCHMARK_TEMPLATE(potts_round_loop, Kokkos::Class)->Apply(round_args); \
  BENCHMARK_TEMPLATE(ising_round_loop, Kokkos::Class)->Apply(ising_round_args);
HAMON_FOR_EACH_ENABLED_BACKEND(HAMON_BENCHMARK_BACKEND)
#undef HAMON_BENCHMARK_BACKEND

}  // namespace
