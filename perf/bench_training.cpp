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
// gemm: the update's GEMMs alone at the example's sizes (787 visible, 500 hidden, batch 50,
// 100 chains x 4 rungs = 400 machines), by three kernels (the second argument):
//   0 "native": Kokkos Kernels' own GEMM, bypassing its BLAS TPL
//   1 "blas":   KokkosBlas::gemm as training calls it (dense_gemm): the BLAS TPL where Kokkos
//               Kernels was built with one (the provisioned host build: OpenBLAS), else 0
//   2 "plain":  dense_gemm's plain Kokkos kernel
// over four shapes (the first argument), C = op(A) op(B), M x N x K:
//   0 sweep, hidden fields   400 x 500 x 787   visible . W
//   1 sweep, visible fields  400 x 787 x 500   hidden . W^T
//   2 positive-phase fields   50 x 500 x 787   batch . W
//   3 model statistics       787 x 500 x 100   V^T . H over the beta = 1 chains
// Counter: gflops (2 M N K per call, over wall-clock time: the BLAS runs its own threads).
//
//   build/bin/bench_training [--benchmark_filter=...]
//   python3 perf/tools/record_benchmark.py build/bin/bench_training NAME
// with NAME = training/$(date -u +%F)-update-dense-vs-csr
#include <benchmark/benchmark.h>

#include <Kokkos_Core.hpp>
#include <cstdint>
#include <string>
#include <vector>

#if defined(HAMON_HAVE_KOKKOS_KERNELS)
#include <KokkosKernels_config.h>

#include <KokkosBlas3_gemm.hpp>
#endif

#include "hamon/backend_list.hpp"
#include "hamon/core/train/detail/dense_gemm.hpp"
#include "hamon/core/train/rbm_trainer.hpp"
#include "hamon/core/util/counter_rng.hpp"

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

struct GemmShape {
  std::int64_t m, n, k;
  hamon::Transpose ta, tb;
  const char* name;
};
constexpr GemmShape kGemmShapes[] = {
    {400, 500, 787, hamon::Transpose::no, hamon::Transpose::no, "sweep_hidden"},
    {400, 787, 500, hamon::Transpose::no, hamon::Transpose::yes, "sweep_visible"},
    {50, 500, 787, hamon::Transpose::no, hamon::Transpose::no, "positive_fields"},
    {787, 500, 100, hamon::Transpose::yes, hamon::Transpose::no, "model_statistics"},
};

/// Kokkos Kernels' own GEMM (its TPL specialisation switched off by the template argument).
template <class Space, class AView, class BView, class CView>
void native_gemm(const Space& space, const char* ta, const char* tb, const AView& a, const BView& b,
                 const CView& c) {
#if defined(HAMON_HAVE_KOKKOS_KERNELS)
  using Unmanaged = Kokkos::MemoryTraits<Kokkos::Unmanaged>;
  using A = Kokkos::View<const double**, typename AView::array_layout, typename AView::device_type,
                         Unmanaged>;
  using B = Kokkos::View<const double**, typename BView::array_layout, typename BView::device_type,
                         Unmanaged>;
  using C =
      Kokkos::View<double**, typename CView::array_layout, typename CView::device_type, Unmanaged>;
#if defined(KOKKOSKERNELS_VERSION) && KOKKOSKERNELS_VERSION >= 40000
  KokkosBlas::Impl::GEMM<Space, A, B, C, false, false>::gemm(space, ta, tb, 1.0, A(a), B(b), 0.0,
                                                             C(c));
#else
  (void)space;
  KokkosBlas::Impl::GEMM<A, B, C, false, false>::gemm(ta, tb, 1.0, A(a), B(b), 0.0, C(c));
#endif
#else
  hamon::dense_gemm(space, ta[0] == 'T' ? hamon::Transpose::yes : hamon::Transpose::no,
                    tb[0] == 'T' ? hamon::Transpose::yes : hamon::Transpose::no, a, b, c);
#endif
}

template <class Space>
void gemm(benchmark::State& state) {
  const GemmShape& s = kGemmShapes[state.range(0)];
  const int kind = static_cast<int>(state.range(1));
  using Matrix = Kokkos::View<double**, Kokkos::LayoutRight, Space>;
  const bool at = s.ta == hamon::Transpose::yes;
  const bool bt = s.tb == hamon::Transpose::yes;
  Matrix a("hamon::bench_gemm_a", at ? s.k : s.m, at ? s.m : s.k);
  Matrix b("hamon::bench_gemm_b", bt ? s.n : s.k, bt ? s.k : s.n);
  Matrix c("hamon::bench_gemm_c", s.m, s.n);
  // +-1 spins times grid values, as in training (the kernels' speed does not depend on them).
  Kokkos::deep_copy(a, 1.0);
  Kokkos::deep_copy(b, 0.25);
  const Space space;
  const auto run = [&] {
    if (kind == 0) {
      native_gemm(space, at ? "T" : "N", bt ? "T" : "N", a, b, c);
    } else {
      hamon::dense_gemm(space, s.ta, s.tb, a, b, c,
                        kind == 1 ? hamon::GemmKind::kokkos_kernels : hamon::GemmKind::plain);
    }
    space.fence();
  };
  run();  // warm
  for (auto _ : state) run();
  state.counters["gflops"] = benchmark::Counter(
      2e-9 * static_cast<double>(s.m * s.n * s.k) * static_cast<double>(state.iterations()),
      benchmark::Counter::kIsRate);
  static const char* const kKinds[] = {"native", "blas", "plain"};
  state.SetLabel(std::string(s.name) + "/" + kKinds[kind]);
}

}  // namespace

#define HAMON_BENCHMARK_BACKEND(name, Class, OPTION, tier) \
  BENCHMARK_TEMPLATE(rbm_update, Kokkos::Class)            \
      ->ArgsProduct({{0, 1}, {0, 1}})                      \
      ->Unit(benchmark::kMillisecond)                      \
      ->MinTime(2.0);                                      \
  BENCHMARK_TEMPLATE(gemm, Kokkos::Class)                  \
      ->ArgsProduct({{0, 1, 2, 3}, {0, 1, 2}})             \
      ->UseRealTime()                                      \
      ->Unit(benchmark::kMillisecond)                      \
      ->MinTime(0.5);
HAMON_FOR_EACH_ENABLED_BACKEND(HAMON_BENCHMARK_BACKEND)
