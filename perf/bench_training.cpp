// SPDX-License-Identifier: Apache-2.0
// RBM training (hamon::RbmTrainer): the time of one PCD update of the MNIST task's RBM
// (787 visible = 784 pixels + 3 labels, 500 hidden), per enabled execution space, with
// the negative chains swept by the dense path (a GEMM per layer for every chain) and by
// the csr path (the sampler's own block-Gibbs sweep over the RBM's graph): the same bits,
// so the ratio of the two is the dense path's gain. The data are 2377 rows of random +-1
// pixels with one-hot labels (an update's cost does not depend on the pixels' values).
//
//   setup 0  "peer":    batch 100, 100 untempered chains, k = 1, positive phase by sample,
//                       SGD (what the Python hamon's estimate_kl_grad does per update)
//   setup 1  "example": batch 50, 100 chains x a 4-rung ladder, k = 1, positive phase by
//                       expectation, SGD with momentum (examples/mnist_rbm.yaml)
//
// Counters: updates_per_s, updates_per_epoch (2377 / batch; an epoch takes Time x that).
//
//   build/bin/bench_training [--benchmark_filter=...]
//   python3 perf/tools/record_benchmark.py build/bin/bench_training NAME
// with NAME = training/$(date -u +%F)-update-dense-vs-csr
#include <benchmark/benchmark.h>

#include <Kokkos_Core.hpp>
#include <cstdint>
#include <string>
#include <vector>

#include "hamon/backend_list.hpp"
#include "hamon/core/impl/counter_rng.hpp"
#include "hamon/core/train/rbm_trainer.hpp"

namespace {

constexpr std::int64_t kRows = 2377;
constexpr std::int64_t kPixels = 784;
constexpr std::int64_t kHidden = 500;

const hamon::TrainingData& mnist_shaped_data() {
  static const hamon::TrainingData data = [] {
    std::vector<std::int8_t> pixels;
    std::vector<std::int32_t> labels;
    for (std::int64_t r = 0; r < kRows; ++r) {
      labels.push_back(static_cast<std::int32_t>(r % 3));
      for (std::int64_t i = 0; i < kPixels; ++i) {
        const auto word = hamon::detail::philox4(7, static_cast<std::uint32_t>(r),
                                                 static_cast<std::uint32_t>(i), 0u, 0u)
                              .w[0];
        pixels.push_back(word < 0x30000000u ? std::int8_t{1} : std::int8_t{-1});  // ~19 % ink
      }
    }
    return hamon::with_label_units(pixels, kPixels, labels, 3);
  }();
  return data;
}

hamon::TrainingOptions setup(int which, hamon::SweepPath path) {
  hamon::TrainingOptions o;
  o.epochs = 1000;  // never the limit here
  o.optimiser = hamon::Optimiser::sgd;
  o.learning_rate = 0.005;
  o.sweeps = 1;
  o.negative_chains = 100;
  o.sweep_path = path;
  if (which == 0) {
    o.batch = 100;
    o.momentum = 0.0;
    o.positive_phase = hamon::PositivePhase::sample;
  } else {
    o.batch = 50;
    o.momentum = 0.5;
    o.ladder = {0.7, 0.8, 0.9, 1.0};
  }
  return o;
}

template <class Space>
void rbm_update(benchmark::State& state) {
  const int which = static_cast<int>(state.range(0));
  const auto path = state.range(1) == 0 ? hamon::SweepPath::dense : hamon::SweepPath::csr;
  const hamon::TrainingOptions o = setup(which, path);
  const hamon::TrainingData& data = mnist_shaped_data();
  hamon::RbmTrainer<Space> trainer(Space(), data, hamon::initial_parameters(data, kHidden, o), o);
  trainer.train(2);  // warm
  for (auto _ : state) trainer.train(1);
  state.counters["updates_per_s"] =
      benchmark::Counter(static_cast<double>(state.iterations()), benchmark::Counter::kIsRate);
  // An epoch is updates_per_epoch of these: seconds per epoch = Time x updates_per_epoch.
  state.counters["updates_per_epoch"] = static_cast<double>(kRows / o.batch);
  state.SetLabel(std::string(which == 0 ? "peer" : "example") + "/" + hamon::to_string(path));
}

}  // namespace

#define HAMON_BENCHMARK_BACKEND(name, Class, OPTION, tier) \
  BENCHMARK_TEMPLATE(rbm_update, Kokkos::Class)            \
      ->ArgsProduct({{0, 1}, {0, 1}})                      \
      ->Unit(benchmark::kMillisecond)                      \
      ->MinTime(2.0);
HAMON_FOR_EACH_ENABLED_BACKEND(HAMON_BENCHMARK_BACKEND)
