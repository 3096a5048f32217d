// SPDX-License-Identifier: Apache-2.0
// RBM training (hamon/core/train/rbm_trainer.hpp), on every space and thread count:
//   the dense (GEMM) and csr (the sampler's sweep) negative phases give the same bits,
//   tempered or not, positive phase by expectation or by sample;
//   a run continued from state() gives the same bits as one that never stopped, and
//   TEST_EXECSPACE gives the bits of the Serial reference, also at sizes where a host BLAS
//   (OpenBLAS) splits its GEMMs over the space's threads;
//   free energies, log Z and the log-likelihood against exact enumeration of a small RBM;
//   training raises the exact log-likelihood of its data.
#include <gtest/gtest.h>

#include <Kokkos_Core.hpp>
#include <cmath>
#include <cstdint>
#include <vector>

#include "hamon/core/train/detail/rbm_trainer_core.hpp"
#include "hamon/core/train/rbm_trainer.hpp"
#include "hamon/core/util/counter_rng.hpp"
#include "library_instantiations.hpp"
#include "same_bits.hpp"

// OpenBLAS' thread count, where the library's GEMMs are OpenBLAS's (a weak reference: null
// with another BLAS or none).
extern "C" int openblas_get_num_threads() __attribute__((weak));

namespace {

using hamon_test::expect_same_bits;
using hamon_test::ReferenceSpace;

/// `n` rows of `v` units drawn from two prototypes with 10 % of the units flipped, the
/// last two units a one-hot label of the prototype.
hamon::TrainingData two_prototypes(std::int64_t n, std::int64_t pixels, std::uint64_t seed) {
  std::vector<std::int8_t> rows;
  std::vector<std::int32_t> labels;
  for (std::int64_t r = 0; r < n; ++r) {
    const auto label = static_cast<std::int32_t>(r % 2);
    labels.push_back(label);
    for (std::int64_t i = 0; i < pixels; ++i) {
      const std::int8_t prototype = ((i < pixels / 2) == (label == 0)) ? 1 : -1;
      const auto word = hamon::detail::philox4(seed, static_cast<std::uint32_t>(r),
                                               static_cast<std::uint32_t>(i), 0u, 0u)
                            .w[0];
      rows.push_back(word < 429496730u ? static_cast<std::int8_t>(-prototype) : prototype);
    }
  }
  return hamon::with_label_units(rows, pixels, labels, 2);
}

hamon::TrainingOptions tempered_adam() {
  hamon::TrainingOptions o;
  o.epochs = 3;
  o.batch = 10;
  o.learning_rate = 0.05;
  o.negative_chains = 21;  // two groups of 16 machines, the second partly filled
  o.sweeps = 2;
  o.ladder = {0.4, 0.7, 1.0};
  o.weight_decay = 1e-3;
  o.initial_weight_scale = 0.1;
  o.seed = 5;
  return o;
}

hamon::TrainingOptions sampled_sgd() {
  hamon::TrainingOptions o = tempered_adam();
  o.ladder.clear();
  o.optimiser = hamon::Optimiser::sgd;
  o.momentum = 0.5;
  o.positive_phase = hamon::PositivePhase::sample;
  o.schedule = hamon::RateSchedule::linear;
  o.final_rate_factor = 0.1;
  o.negative_chains = 17;
  return o;
}

void expect_same_state(const hamon::RbmTrainingState& a, const hamon::RbmTrainingState& b) {
  expect_same_bits(a.parameters.weights, b.parameters.weights, "weights");
  expect_same_bits(a.parameters.visible_bias, b.parameters.visible_bias, "visible biases");
  expect_same_bits(a.parameters.hidden_bias, b.parameters.hidden_bias, "hidden biases");
  expect_same_bits(a.moment1, b.moment1, "first moments");
  expect_same_bits(a.moment2, b.moment2, "second moments");
  expect_same_bits(a.chains, b.chains, "negative chains");
  expect_same_bits(a.swaps_accepted, b.swaps_accepted, "accepted swaps");
  EXPECT_EQ(a.updates_done, b.updates_done);
}

template <class Space>
hamon::RbmTrainingState trained(const hamon::TrainingData& data, hamon::TrainingOptions o,
                                hamon::SweepPath path, std::int64_t updates) {
  o.sweep_path = path;
  const auto initial = hamon::initial_parameters(data, 7, o);
  hamon::RbmTrainer<Space> trainer(Space(), data, initial, o);
  EXPECT_EQ(trainer.train(updates), updates);
  return trainer.state();
}

TEST(TEST_CATEGORY, training_dense_and_csr_paths_give_the_same_bits) {
  const auto data = two_prototypes(60, 10, 1);
  for (const auto& o : {tempered_adam(), sampled_sgd()}) {
    const auto dense = trained<TEST_EXECSPACE>(data, o, hamon::SweepPath::dense, 12);
    const auto csr = trained<TEST_EXECSPACE>(data, o, hamon::SweepPath::csr, 12);
    expect_same_state(dense, csr);
    EXPECT_NE(dense.parameters.weights, hamon::initial_parameters(data, 7, o).weights);
  }
}

TEST(TEST_CATEGORY, training_gives_the_reference_space_bits_and_resumes_exactly) {
  const auto data = two_prototypes(60, 10, 2);
  for (const auto& o : {tempered_adam(), sampled_sgd()}) {
    const auto reference = trained<ReferenceSpace>(data, o, hamon::SweepPath::dense, 18);
    const auto here = trained<TEST_EXECSPACE>(data, o, hamon::SweepPath::dense, 18);
    expect_same_state(reference, here);
    // Stopped after 7 updates (inside the second epoch: 6 per epoch) and continued on the
    // other space.
    const auto initial = hamon::initial_parameters(data, 7, o);
    hamon::RbmTrainer<TEST_EXECSPACE> first(TEST_EXECSPACE(), data, initial, o);
    first.train(7);
    hamon::RbmTrainer<ReferenceSpace> second(ReferenceSpace(), data, o, first.state());
    EXPECT_EQ(second.updates_done(), 7);
    second.train(11);
    expect_same_state(reference, second.state());
  }
}

TEST(TEST_CATEGORY, training_gives_the_reference_bits_where_the_blas_splits_its_gemms) {
  // 256 visible x 128 hidden, batch 32, 32 chains x 2 rungs: every GEMM of an update is
  // above OpenBLAS' threshold for splitting it over threads (M N K > 2^18), so the reference
  // (Serial: one thread) and an OpenMP space of two threads sum in different orders. The
  // sums are exact: same bits. One update runs every kind of GEMM training has.
  const auto data = two_prototypes(64, 254, 3);
  hamon::TrainingOptions o = tempered_adam();
  o.epochs = 1;
  o.batch = 32;
  o.negative_chains = 32;
  o.sweeps = 1;
  o.ladder = {0.5, 1.0};
  o.initial_weight_scale = 0.05;
  const auto initial = hamon::initial_parameters(data, 128, o);
  hamon::RbmTrainer<ReferenceSpace> reference(ReferenceSpace(), data, initial, o);
  hamon::RbmTrainer<TEST_EXECSPACE> here(TEST_EXECSPACE(), data, initial, o);
  ASSERT_EQ(reference.train(1), 1);
  ASSERT_EQ(here.train(1), 1);
  expect_same_state(reference.state(), here.state());
  EXPECT_NE(here.state().parameters.weights, initial.weights);
  // The BLAS ran on the space's threads (not every core's, not one for an OpenMP team).
  // Not asked of a sanitizer build: there OpenBLAS was seen to report one thread after a
  // two-thread space's GEMMs (not explained yet); the bits above hold there too.
#if !defined(__SANITIZE_ADDRESS__)
  if (openblas_get_num_threads != nullptr &&
      Kokkos::SpaceAccessibility<Kokkos::HostSpace, TEST_EXECSPACE::memory_space>::accessible) {
    EXPECT_EQ(openblas_get_num_threads(), TEST_EXECSPACE().concurrency());
  }
#endif
}

TEST(TEST_CATEGORY, tempered_pcd_takes_its_gradient_from_the_beta_one_rows_alone) {
  // The negative phase's statistics after an update's sweeps and swaps: the sums over the
  // beta = 1 rows of the chains, computed here on the host, and the same bits again once
  // every other rung's rows are overwritten (a gradient that read them would move).
  const auto data = two_prototypes(60, 10, 4);
  const auto o = tempered_adam();
  hamon::detail::RbmTrainerCore<TEST_EXECSPACE> core(TEST_EXECSPACE(), data,
                                                     hamon::initial_parameters(data, 7, o), o);
  core.train(3, {});
  core.negative_phase(3);
  // Copies (create_mirror always allocates: a host space's mirror view would be the View).
  const auto host_copy = [](const auto& view) {
    auto copy = Kokkos::create_mirror(Kokkos::HostSpace(), view);
    Kokkos::deep_copy(copy, view);
    return copy;
  };
  const auto as_vector = [&](const auto& view) {
    const auto copy = host_copy(view);
    return std::vector<double>(copy.data(), copy.data() + copy.size());
  };
  const std::vector<double> after_update = as_vector(core.model_stats.values);
  const auto v = host_copy(core.chains->visible());
  const auto h = host_copy(core.chains->hidden());
  const std::int64_t nv = core.n_visible;
  const std::int64_t nh = core.n_hidden;
  const std::int64_t first = core.chains->first_target();
  ASSERT_EQ(first, 2 * o.negative_chains);  // rungs 0.4 and 0.7 before the target's rows
  std::vector<double> expected(static_cast<std::size_t>(nv * nh + nv + nh), 0.0);
  for (std::int64_t m = first; m < core.chains->n_machines(); ++m) {
    for (std::int64_t i = 0; i < nv; ++i) {
      for (std::int64_t j = 0; j < nh; ++j) expected[i * nh + j] += v(m, i) * h(m, j);
      expected[nv * nh + i] += v(m, i);
    }
    for (std::int64_t j = 0; j < nh; ++j) expected[nv * nh + nv + j] += h(m, j);
  }
  // +-1 products summed: integers, exact in any order.
  ASSERT_EQ(after_update.size(), expected.size());
  for (std::size_t k = 0; k < expected.size(); ++k) {
    ASSERT_EQ(after_update[k], expected[k]) << "statistic " << k;
  }
  std::int64_t changed = 0;
  for (std::int64_t m = 0; m < first; ++m) {
    for (std::int64_t i = 0; i < nv; ++i) changed += v(m, i) != 1.0;
    for (std::int64_t j = 0; j < nh; ++j) changed += h(m, j) != -1.0;
    for (std::int64_t i = 0; i < nv; ++i) v(m, i) = 1.0;
    for (std::int64_t j = 0; j < nh; ++j) h(m, j) = -1.0;
  }
  ASSERT_GT(changed, 0);
  Kokkos::deep_copy(core.chains->visible(), v);
  Kokkos::deep_copy(core.chains->hidden(), h);
  core.model_statistics();
  expect_same_bits(as_vector(core.model_stats.values), after_update,
                   "negative statistics with the hotter rungs overwritten");
}

TEST(TEST_CATEGORY, training_stops_at_its_planned_length_and_when_asked) {
  const auto data = two_prototypes(40, 6, 3);
  auto o = sampled_sgd();
  o.epochs = 2;
  hamon::RbmTrainer<TEST_EXECSPACE> t(TEST_EXECSPACE(), data, hamon::initial_parameters(data, 3, o),
                                      o);
  EXPECT_EQ(t.updates_per_epoch(), 4);
  int calls = 0;
  EXPECT_EQ(t.train(100, [&] { return ++calls == 3; }), 3);
  EXPECT_EQ(t.train(100), 5);  // 8 planned in all
  EXPECT_EQ(t.train(100), 0);
}

// ---- exact oracles on a small RBM (2^(V+H) configurations) ----------------------------

/// log Z and the free energies by enumeration.
struct Enumerated {
  double log_z = 0.0;
  std::vector<double> free_energy;  // per visible configuration (bit i of the index: unit i)
};

Enumerated enumerate(const hamon::RbmParameters& p) {
  const auto nv = p.n_visible;
  const auto nh = p.n_hidden;
  Enumerated out;
  double max_term = -1e300;
  std::vector<double> log_terms;
  for (std::int64_t vc = 0; vc < (std::int64_t{1} << nv); ++vc) {
    std::vector<double> logs;
    for (std::int64_t hc = 0; hc < (std::int64_t{1} << nh); ++hc) {
      double minus_e = 0.0;
      for (std::int64_t i = 0; i < nv; ++i) {
        const double v = (vc >> i) & 1 ? 1.0 : -1.0;
        minus_e += p.visible_bias[static_cast<std::size_t>(i)] * v;
        for (std::int64_t j = 0; j < nh; ++j) {
          const double h = (hc >> j) & 1 ? 1.0 : -1.0;
          minus_e += p.weights[static_cast<std::size_t>(i * nh + j)] * v * h;
        }
      }
      for (std::int64_t j = 0; j < nh; ++j) {
        minus_e += p.hidden_bias[static_cast<std::size_t>(j)] * ((hc >> j) & 1 ? 1.0 : -1.0);
      }
      logs.push_back(minus_e);
    }
    double m = -1e300;
    for (double x : logs) m = std::max(m, x);
    double s = 0.0;
    for (double x : logs) s += std::exp(x - m);
    const double log_sum = m + std::log(s);
    out.free_energy.push_back(-log_sum);
    log_terms.push_back(log_sum);
    max_term = std::max(max_term, log_sum);
  }
  double s = 0.0;
  for (double x : log_terms) s += std::exp(x - max_term);
  out.log_z = max_term + std::log(s);
  return out;
}

hamon::TrainingData all_visible_configurations(std::int64_t nv) {
  hamon::TrainingData d;
  d.n_visible = nv;
  for (std::int64_t vc = 0; vc < (std::int64_t{1} << nv); ++vc) {
    for (std::int64_t i = 0; i < nv; ++i) d.rows.push_back((vc >> i) & 1 ? 1 : -1);
  }
  return d;
}

TEST(TEST_CATEGORY, rbm_free_energies_and_log_z_match_enumeration) {
  const auto data = two_prototypes(40, 6, 4);  // 8 visible units
  auto o = tempered_adam();
  o.initial_weight_scale = 0.6;
  hamon::RbmTrainer<TEST_EXECSPACE> t(TEST_EXECSPACE(), data, hamon::initial_parameters(data, 4, o),
                                      o);
  const hamon::RbmParameters p = t.parameters();
  const Enumerated exact = enumerate(p);
  const std::vector<double> f = t.free_energies(all_visible_configurations(8));
  ASSERT_EQ(f.size(), exact.free_energy.size());
  // Both are sums of a dozen terms of size ~1: they agree to rounding.
  for (std::size_t k = 0; k < f.size(); ++k) EXPECT_NEAR(f[k], exact.free_energy[k], 1e-12) << k;

  hamon::LogZOptions z;
  z.rungs = 12;
  z.rounds = 4000;
  z.burn_in = 100;
  z.seed = 9;
  const hamon::RbmLogPartition estimate = t.log_partition(z);
  const hamon::LogZEstimate& ss = estimate.estimate.stepping_stone;
  // Stepping stone is consistent; its batch-means error is honest when the batches are
  // long against tau (log_partition checks that and warns otherwise): 5 standard errors
  // (a false alarm ~ 1e-6) plus the estimator's Jensen bias, O(1/rounds), well below 0.01.
  EXPECT_TRUE(estimate.estimate.warnings.empty());
  EXPECT_GT(ss.standard_error, 0.0);
  EXPECT_LT(ss.standard_error, 0.05);
  EXPECT_NEAR(ss.value, exact.log_z, 5.0 * ss.standard_error + 0.01);
  ASSERT_EQ(estimate.swap_acceptance.size(), 11u);
  for (double a : estimate.swap_acceptance) {
    EXPECT_GT(a, 0.3);
    EXPECT_LE(a, 1.0);
  }
}

/// The exact mean log-likelihood of `data` under `p`.
double exact_log_likelihood(const hamon::RbmParameters& p, const hamon::TrainingData& data) {
  const Enumerated e = enumerate(p);
  double sum = 0.0;
  for (std::int64_t r = 0; r < data.n_rows(); ++r) {
    std::int64_t vc = 0;
    for (std::int64_t i = 0; i < data.n_visible; ++i) {
      if (data.rows[static_cast<std::size_t>(r * data.n_visible + i)] > 0)
        vc |= std::int64_t{1} << i;
    }
    sum += -e.free_energy[static_cast<std::size_t>(vc)] - e.log_z;
  }
  return sum / static_cast<double>(data.n_rows());
}

TEST(TEST_CATEGORY, training_raises_the_exact_log_likelihood_and_classifies) {
  const auto data = two_prototypes(200, 6, 6);
  auto o = tempered_adam();
  o.epochs = 6;  // 120 updates
  o.learning_rate = 0.01;
  o.negative_chains = 100;
  hamon::RbmTrainer<TEST_EXECSPACE> t(TEST_EXECSPACE(), data, hamon::initial_parameters(data, 4, o),
                                      o);
  const double before = exact_log_likelihood(t.parameters(), data);
  t.train(1 << 20);
  const double after = exact_log_likelihood(t.parameters(), data);
  // The data have 2 prototypes with 10 % noise on 6 units: their entropy per row is
  // log 2 + 6 H(0.1) = 2.64 nats, so the best model reaches about -2.64; the initial one
  // (independent units at the data's means, tiny weights) is near -8 log 2 = -5.5. Tempered
  // PCD gets within 0.1 of the optimum in these 120 updates (-2.74 to -2.65 over seeds and
  // lengths); -3.0 leaves room for the chains' noise, and a sign error or a broken gradient
  // misses it by far. (Untempered PCD oscillates here, between -2.8 and -6.5: the data are
  // bimodal, which is what the ladder is for.)
  EXPECT_LT(before, -5.0);
  EXPECT_GT(after, -3.0) << "before " << before;
  const hamon::RbmEvaluation e = t.evaluate(data);
  ASSERT_TRUE(e.accuracy.has_value());
  EXPECT_GT(*e.accuracy, 0.95);  // the prototypes are 6 units apart, the noise 0.6 on average
  EXPECT_LT(e.reconstruction_error, 0.2);
  const double ll =
      hamon::mean_log_likelihood(t.free_energies(data), enumerate(t.parameters()).log_z);
  EXPECT_NEAR(ll, after, 1e-9);
}

}  // namespace
