// SPDX-License-Identifier: Apache-2.0
// Microbenchmarks of the kernels of one NRPT round, per enabled execution space:
//
//   sweep_csr      one block-Gibbs sweep of every machine (hamon::gibbs_sweep) forced onto
//                  the general CSR path (DeviceModel::lattice.enabled = false), on a 2D
//                  periodic Edwards-Anderson lattice with +-J couplings (integer local
//                  fields: acceptance-table path) or Gaussian couplings (exp path);
//   sweep_lattice  the same sweep on the lattice fast path (implicit neighbours, chosen
//                  automatically by gibbs_sweep for periodic lattices with integer fields;
//                  +-J only: Gaussian couplings never take it);
//   sweep_lattice_portable  the same in the host's portable loops (HostKernel::portable),
//                  the baseline of the vector path (--vector-target picks its instruction set);
//   energy         one energy evaluation of every machine (hamon::compute_energies);
//   plain_sweep    the yardstick (plain_sweep.hpp): a plain scalar heat-bath sweep of the
//                  same lattice, one expf and one hash per update, on 1 thread and on the
//                  OpenMP space's threads; the recorded tables give every rate as a ratio
//                  to it (x_plain, same L, same thread count);
//   swap           one DEO swap pass and the index process (hamon::deo_swap_pass +
//                  hamon::update_index_process); it does not depend on L (energies are
//                  fixed per machine), only on the number of chains, and is dominated by
//                  kernel launches.
//
// Arguments: L (lattice side), chains (one machine per chain, betas spaced linearly in
// [0, 1]), gaussian (0: +-J, 1: Gaussian couplings). Each iteration is one kernel call
// followed by a fence, timed by the wall clock (manual time), so asynchronous spaces
// (Cuda) are timed to completion.
//
// Counters: updates_per_ns (sweeps: free nodes x chains per sweep), node_machines_per_ns
// (energy: nodes x chains), pairs_per_us (swap: pairs attempted per pass); table (sweeps:
// 1 when the acceptance table replaces exp).
//
//   build/bin/bench_kernels [--benchmark_filter=...] [--benchmark_format=json]
//   python3 perf/tools/record_benchmark.py build/bin/bench_kernels kernels/$(date -u +%F)-full-grid
#include <benchmark/benchmark.h>

#include <Kokkos_Core.hpp>
#include <chrono>
#include <cstdint>
#include <map>
#include <memory>
#include <utility>
#include <vector>

#include "bench_timing.hpp"
#include "hamon/backend_list.hpp"
#include "hamon/core/families/energy.hpp"
#include "hamon/core/families/gibbs_sweep.hpp"
#include "hamon/core/families/multispin/multispin_energy.hpp"
#include "hamon/core/families/multispin/multispin_overlaps.hpp"
#include "hamon/core/families/multispin/multispin_swaps.hpp"
#include "hamon/core/families/multispin/multispin_sweep.hpp"
#include "hamon/core/model/device_model.hpp"
#include "hamon/core/model/model_builders.hpp"
#include "hamon/core/sampler/make_chain_state.hpp"
#include "hamon/core/state/chain_state.hpp"
#include "hamon/core/tempering/swap.hpp"
#include "plain_sweep_benchmark.hpp"

namespace {

enum Couplings : int { kPmOne = 0, kGaussian = 1 };

/// The 2D periodic EA lattice of side `side`, built once per (side, couplings).
const hamon::SpinModel& ea_lattice(int side, int couplings) {
  static std::map<std::pair<int, int>, std::unique_ptr<hamon::SpinModel>> cache;
  auto& slot = cache[{side, couplings}];
  if (!slot) {
    const auto distribution = couplings == kGaussian ? hamon::ValueDistribution::gaussian(1)
                                                     : hamon::ValueDistribution::pm_one(1);
    slot =
        std::make_unique<hamon::SpinModel>(hamon::make_lattice({side, side}, true, distribution));
  }
  return *slot;
}

std::vector<double> linear_ladder(int chains) {
  std::vector<double> betas(static_cast<std::size_t>(chains));
  for (int k = 0; k < chains; ++k) {
    betas[static_cast<std::size_t>(k)] = chains > 1 ? static_cast<double>(k) / (chains - 1) : 1.0;
  }
  return betas;
}

/// Device model and chain state of one benchmark, in `Space`.
template <class Space>
struct Setup {
  Space space;
  hamon::DeviceModel<typename Space::memory_space> model;
  hamon::FamilyState<Space> state;

  /// `csr_only`: switch the lattice fast path off (gibbs_sweep then takes the CSR path).
  Setup(int side, int couplings, int chains, bool csr_only = false)
      : model(hamon::make_device_model(space, ea_lattice(side, couplings))),
        state(hamon::make_chain_state(space, model, linear_ladder(chains), 7)) {
    if (csr_only) model.lattice.enabled = false;
    space.fence();
  }
};

using hamon::perf::timed_loop;

/// One sweep per iteration, on the CSR path (`csr_only`) or the automatic choice, with the
/// host's best kernel or its portable loops (`kernel`).
template <class Space>
void sweep(benchmark::State& state, bool csr_only,
           hamon::HostKernel kernel = hamon::HostKernel::best) {
  const int side = static_cast<int>(state.range(0));
  const int chains = static_cast<int>(state.range(1));
  const int couplings = static_cast<int>(state.range(2));
  Setup<Space> s(side, couplings, chains, csr_only);
  if (!csr_only && !s.model.lattice.enabled) {
    state.SkipWithError("the lattice fast path does not apply to this model");
    return;
  }
  // Warm-up sweep: first touch of the tables, and a state that is no longer the random start.
  hamon::gibbs_sweep(s.space, s.model, s.state, 7, 0, 0);
  s.space.fence();
  const double seconds = timed_loop(state, s.space, [&](std::uint32_t it) {
    hamon::gibbs_sweep(s.space, s.model, s.state, 7, it / 4 + 1, it % 4, kernel);
  });
  const double updates =
      static_cast<double>(s.model.n_free) * chains * static_cast<double>(state.iterations());
  state.counters["updates_per_ns"] = updates / seconds * 1e-9;
  state.counters["table"] = s.model.integer_field_bound >= 0 ? 1 : 0;
}

/// The lattice sweep in the host's portable loops (the vector path's baseline; on a device
/// space the same kernel as sweep_lattice).
template <class Space>
void sweep_lattice_portable(benchmark::State& state) {
  sweep<Space>(state, false, hamon::HostKernel::portable);
}

template <class Space>
void sweep_csr(benchmark::State& state) {
  sweep<Space>(state, true);
}

template <class Space>
void sweep_lattice(benchmark::State& state) {
  sweep<Space>(state, false);
}

template <class Space>
void energy(benchmark::State& state) {
  const int side = static_cast<int>(state.range(0));
  const int chains = static_cast<int>(state.range(1));
  Setup<Space> s(side, kPmOne, chains);
  const double seconds = timed_loop(
      state, s.space, [&](std::uint32_t) { hamon::compute_energies(s.space, s.model, s.state); });
  benchmark::DoNotOptimize(s.state.energy_fixed.data());
  const double node_machines =
      static_cast<double>(s.model.n_nodes) * chains * static_cast<double>(state.iterations());
  state.counters["node_machines_per_ns"] = node_machines / seconds * 1e-9;
}

template <class Space>
void swap(benchmark::State& state) {
  const int side = static_cast<int>(state.range(0));
  const int chains = static_cast<int>(state.range(1));
  Setup<Space> s(side, kPmOne, chains);
  hamon::gibbs_sweep(s.space, s.model, s.state, 7, 0, 0);
  hamon::compute_energies(s.space, s.model, s.state);
  s.space.fence();
  double pairs = 0.0;
  const double seconds = timed_loop(state, s.space, [&](std::uint32_t round) {
    hamon::deo_swap_pass(s.space, s.state, 7, round, s.model.energy_fraction_bits);
    hamon::update_index_process(s.space, s.state);
    const int parity = static_cast<int>(round % 2);
    pairs += chains - 1 > parity ? (chains - parity) / 2 : 0;
  });
  state.counters["pairs_per_us"] = pairs / seconds * 1e-6;
}

/// One multispin heat-bath sweep (families/multispin/): 512 +-J instances of an L^3 periodic
/// lattice per word, `slots` words per node (16 temperatures x 2 replicas = 32); the rate
/// counts spin updates, L^3 x 512 x slots per sweep.
template <class Space>
void multispin_sweep(benchmark::State& state) {
  const int side = static_cast<int>(state.range(0));
  const std::int64_t slots = state.range(1);
  std::vector<hamon::SpinModel> instances;
  for (int k = 0; k < hamon::kMultispinSystems; ++k) {
    instances.push_back(
        hamon::make_lattice({side, side, side}, true, hamon::ValueDistribution::pm_one(k)));
  }
  const auto ensemble = hamon::pack_multispin(instances);
  const Space space;
  const auto m = hamon::make_multispin_device<Space>(ensemble);
  Kokkos::View<std::uint64_t*, typename Space::memory_space> spins(
      "spins", slots * ensemble.n_nodes * hamon::kMultispinLanes);
  const auto host_thresholds = hamon::multispin_thresholds(
      ensemble, std::vector<double>(static_cast<std::size_t>(slots), 0.9));
  Kokkos::View<std::uint64_t*, typename Space::memory_space> thresholds("thresholds",
                                                                        host_thresholds.size());
  Kokkos::deep_copy(thresholds,
                    Kokkos::View<const std::uint64_t*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>(
                        host_thresholds.data(), host_thresholds.size()));
  hamon::multispin_sweep(space, m, spins, thresholds, 7, 0, 0);
  const double seconds = timed_loop(state, space, [&](std::uint32_t round) {
    hamon::multispin_sweep(space, m, spins, thresholds, 7, round + 1, 0);
  });
  state.counters["updates_per_ns"] = static_cast<double>(ensemble.n_nodes) *
                                     hamon::kMultispinSystems * static_cast<double>(slots) *
                                     static_cast<double>(state.iterations()) / seconds * 1e-9;
}

/// The whole multispin round of an ensemble study: 512 +-J instances of an L^3 lattice, 16
/// rungs x 2 replicas; per round one sweep of every slot, the energies, one DEO swap pass
/// and the two replicas' overlaps at every rung. Rate: L^3 x 512 x 32 updates per round.
template <class Space>
void multispin_round(benchmark::State& state) {
  const int side = static_cast<int>(state.range(0));
  const hamon::MultispinLadder ladder{state.range(1), 2, 1};
  std::vector<hamon::SpinModel> instances;
  for (int k = 0; k < hamon::kMultispinSystems; ++k) {
    instances.push_back(
        hamon::make_lattice({side, side, side}, true, hamon::ValueDistribution::pm_one(k)));
  }
  const auto ensemble = hamon::pack_multispin(instances);
  using M = typename Space::memory_space;
  const Space space;
  const auto m = hamon::make_multispin_device<Space>(ensemble);
  Kokkos::View<std::uint64_t*, M> spins(
      "spins", ladder.n_slots() * ensemble.n_nodes * hamon::kMultispinLanes);
  std::vector<double> betas, slot_betas;
  for (std::int64_t k = 0; k < ladder.n_rungs; ++k) betas.push_back(0.2 + 0.06 * k);
  for (std::int64_t s = 0; s < ladder.n_slots(); ++s) {
    slot_betas.push_back(betas[static_cast<std::size_t>(s % ladder.n_rungs)]);
  }
  const auto host_thresholds = hamon::multispin_thresholds(ensemble, slot_betas);
  Kokkos::View<std::uint64_t*, M> thresholds("thresholds", host_thresholds.size());
  Kokkos::deep_copy(thresholds,
                    Kokkos::View<const std::uint64_t*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>(
                        host_thresholds.data(), host_thresholds.size()));
  Kokkos::View<double*, M> rung_betas("betas", betas.size());
  Kokkos::deep_copy(rung_betas,
                    Kokkos::View<const double*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>(
                        betas.data(), betas.size()));
  const std::int64_t per_rung = hamon::kMultispinSystems;
  Kokkos::View<std::int64_t*, M> unsat("unsat", ladder.n_slots() * per_rung),
      disagree("disagree", ladder.n_rungs * per_rung), links("links", ladder.n_rungs * per_rung);
  Kokkos::View<std::uint64_t*, M> masks("masks", ladder.n_rungs * 2 * hamon::kMultispinLanes);
  const auto round = [&](std::uint32_t r) {
    hamon::multispin_sweep(space, m, spins, thresholds, 7, r, 0);
    hamon::multispin_unsatisfied(space, m, spins, unsat);
    hamon::multispin_swap_pass(space, ladder, ensemble.coupling, rung_betas, spins, unsat, masks, 7,
                               r);
    hamon::multispin_overlap_counts(space, m, ladder, spins, disagree, links);
  };
  round(0);
  const double seconds = timed_loop(state, space, [&](std::uint32_t r) { round(r + 1); });
  state.counters["updates_per_ns"] = static_cast<double>(ensemble.n_nodes) *
                                     hamon::kMultispinSystems *
                                     static_cast<double>(ladder.n_slots()) *
                                     static_cast<double>(state.iterations()) / seconds * 1e-9;
}

/// The byte engine's round loop on one instance of the same ensemble (16 chains x 2
/// replicas, one sweep per round, overlaps): what multispin_round replaces 512 of.
template <class Space>
void byte_ensemble_round(benchmark::State& state) {
  const int side = static_cast<int>(state.range(0));
  const hamon::SpinModel model =
      hamon::make_lattice({side, side, side}, true, hamon::ValueDistribution::pm_one(0));
  hamon::NrptOptions options;
  options.n_chains = static_cast<std::int32_t>(state.range(1));
  options.n_replicas = 2;
  options.n_expl = 1;
  options.n_rounds = 200;
  options.seed = 7;
  options.beta_max = 1.1;
  state.counters["updates_per_ns"] = hamon::perf::nrpt_updates_per_ns<Space>(state, model, options);
}

void multispin_round_args(benchmark::internal::Benchmark* b) {
  b->Args({8, 16})->ArgNames({"L", "rungs"})->UseManualTime()->Unit(benchmark::kMicrosecond);
}

void multispin_args(benchmark::internal::Benchmark* b) {
  for (int side : {8, 16}) b->Args({side, 32});
  b->ArgNames({"L", "slots"})->UseManualTime()->Unit(benchmark::kMicrosecond);
}

/// The yardstick, on the host: one plain scalar sweep per iteration.
void plain_sweep(benchmark::State& state) {
  hamon::perf::time_plain_sweep(state, static_cast<int>(state.range(0)),
                                static_cast<int>(state.range(1)), static_cast<int>(state.range(2)),
                                "updates_per_ns");
}

void plain_args(benchmark::internal::Benchmark* b) {
  for (int side : {32, 64, 128}) {
    for (int chains : {8, 16, 32}) {
      for (int threads : hamon::perf::plain_thread_counts()) b->Args({side, chains, threads});
    }
  }
  b->ArgNames({"L", "chains", "threads"})->UseManualTime()->Unit(benchmark::kMicrosecond);
}

// Sweeps also at 1 and 4 chains: fewer machines than a register's lanes, where the
// register path packs several nodes per register.
void sweep_args(benchmark::internal::Benchmark* b) {
  for (int couplings : {kPmOne, kGaussian}) {
    for (int side : {32, 64, 128}) {
      for (int chains : {1, 4, 8, 16, 32}) b->Args({side, chains, couplings});
    }
  }
  b->ArgNames({"L", "chains", "gaussian"})->UseManualTime()->Unit(benchmark::kMicrosecond);
}

void lattice_sweep_args(benchmark::internal::Benchmark* b) {
  for (int side : {32, 64, 128}) {
    for (int chains : {1, 4, 8, 16, 32}) b->Args({side, chains, kPmOne});
  }
  b->ArgNames({"L", "chains", "gaussian"})->UseManualTime()->Unit(benchmark::kMicrosecond);
}

void lattice_args(benchmark::internal::Benchmark* b) {
  for (int side : {32, 64, 128}) {
    for (int chains : {8, 16, 32}) b->Args({side, chains});
  }
  b->ArgNames({"L", "chains"})->UseManualTime()->Unit(benchmark::kMicrosecond);
}

BENCHMARK(plain_sweep)->Apply(plain_args);
// One set per backend of cmake/HamonBackends.cmake's list that this build has.
#define HAMON_BENCHMARK_BACKEND(name, Class, OPTION, tier)                              \
  BENCHMARK_TEMPLATE(sweep_csr, Kokkos::Class)->Apply(sweep_args);                      \
  BENCHMARK_TEMPLATE(sweep_lattice, Kokkos::Class)->Apply(lattice_sweep_args);          \
  BENCHMARK_TEMPLATE(sweep_lattice_portable, Kokkos::Class)->Apply(lattice_sweep_args); \
  BENCHMARK_TEMPLATE(energy, Kokkos::Class)->Apply(lattice_args);                       \
  BENCHMARK_TEMPLATE(swap, Kokkos::Class)->Apply(lattice_args);                         \
  BENCHMARK_TEMPLATE(multispin_sweep, Kokkos::Class)->Apply(multispin_args);            \
  BENCHMARK_TEMPLATE(multispin_round, Kokkos::Class)->Apply(multispin_round_args);      \
  BENCHMARK_TEMPLATE(byte_ensemble_round, Kokkos::Class)->Apply(multispin_round_args);
HAMON_FOR_EACH_ENABLED_BACKEND(HAMON_BENCHMARK_BACKEND)
#undef HAMON_BENCHMARK_BACKEND

}  // namespace
