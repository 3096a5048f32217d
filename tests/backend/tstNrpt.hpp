// SPDX-License-Identifier: Apache-2.0
// The NRPT round loop end to end: options, counters, observers, adaptation, sample().
#include <gtest/gtest.h>

#include <Kokkos_Core.hpp>
#include <algorithm>
#include <cmath>
#include <numeric>

#include "hamon/core/model/model_builders.hpp"
#include "hamon/core/sampler/nrpt.hpp"

namespace {

using Space = TEST_EXECSPACE;

hamon::NrptOptions small_run() {
  hamon::NrptOptions o;
  o.n_chains = 6;
  o.beta_min = 0.0;
  o.beta_max = 0.44;
  o.n_rounds = 400;
  o.burn_in = 100;
  o.n_expl = 2;
  o.seed = 3;
  return o;
}

TEST(TEST_CATEGORY, nrpt_rejects_bad_options) {
  const auto model = hamon::make_lattice({4, 4}, true);
  auto expect_error = [&](hamon::NrptOptions o, const std::string& words) {
    try {
      hamon::nrpt(Space(), model, o);
      ADD_FAILURE() << "no error for: " << words;
    } catch (const std::invalid_argument& e) {
      EXPECT_NE(std::string(e.what()).find(words), std::string::npos) << e.what();
    }
  };
  auto o = small_run();
  o.betas = {0.0, 0.5, 0.4};
  expect_error(o, "strictly ascending");
  o = small_run();
  o.betas = {0.0, NAN};
  expect_error(o, "not finite");
  o = small_run();
  o.betas = {-0.1, 0.3};
  expect_error(o, "negative");
  o = small_run();
  o.n_rounds = 0;
  expect_error(o, "n_rounds");
  o = small_run();
  o.beta_max = 0.0;
  expect_error(o, "beta_max");
  o = small_run();
  o.observers.samples_every = 1;
  o.observers.sample_nodes = {3, 16};
  expect_error(o, "sample_nodes[1] = 16");
  o = small_run();
  o.n_expl = 0;
  expect_error(o, "n_expl");
}

TEST(TEST_CATEGORY, nrpt_counts_one_parity_per_round) {
  const auto model = hamon::make_lattice({6, 6}, true);
  const auto r = hamon::nrpt(Space(), model, small_run());
  ASSERT_EQ(r.swaps.attempted.size(), 5u);
  // 400 measured rounds starting at round 100 (even): 200 even and 200 odd rounds.
  for (std::size_t i = 0; i < 5; ++i) {
    EXPECT_EQ(r.swaps.attempted[i], 200) << "pair " << i;
    EXPECT_LE(r.swaps.accepted[i], r.swaps.attempted[i]);
    EXPECT_DOUBLE_EQ(r.swaps.rejection[i], 1.0 - r.swaps.acceptance[i]);
  }
  EXPECT_NEAR(r.swaps.Lambda,
              std::accumulate(r.swaps.rejection.begin(), r.swaps.rejection.end(), 0.0), 1e-12);
  EXPECT_DOUBLE_EQ(r.swaps.tau_predicted_fine_ladder, 1.0 / (2.0 + 2.0 * r.swaps.Lambda));
  EXPECT_DOUBLE_EQ(r.swaps.tau_predicted, hamon::finite_ladder_round_trip_rate(r.swaps.rejection));
  EXPECT_DOUBLE_EQ(r.tau_observed, static_cast<double>(r.total_round_trips) / 400.0);
  EXPECT_GT(r.total_round_trips, 0);
  // The final permutation is a permutation, and its inverse is consistent.
  for (std::int32_t c = 0; c < 6; ++c) {
    EXPECT_EQ(r.chain_of_machine[static_cast<std::size_t>(r.machine_of_chain[c])], c);
  }
  EXPECT_EQ(r.spin_updates, 36 * 6 * 2 * 500);
}

TEST(TEST_CATEGORY, nrpt_observers_record_what_was_asked) {
  const auto model = hamon::make_lattice({5, 4}, false, hamon::ValueDistribution::pm_one(1));
  auto o = small_run();
  o.observers.samples_every = 7;
  o.observers.sample_nodes = {0, 3, 19};
  o.observers.energies = true;
  o.observers.index_process = true;
  o.observers.moments = true;
  const auto r = hamon::nrpt(Space(), model, o);
  ASSERT_EQ(r.index_process.size(), 400u * 6u);
  for (std::size_t m = 0; m < 6; ++m) {
    EXPECT_EQ(r.index_process[399 * 6 + m], r.chain_of_machine[m]) << "machine " << m;
  }
  for (std::size_t row = 0; row < 400; ++row) {  // every row is a permutation
    std::vector<int> seen(6, 0);
    for (std::size_t m = 0; m < 6; ++m)
      seen[static_cast<std::size_t>(r.index_process[row * 6 + m])]++;
    ASSERT_EQ(seen, std::vector<int>(6, 1)) << "round " << row;
  }
  EXPECT_EQ(r.n_samples, 400 / 7);
  EXPECT_EQ(r.samples.size(), static_cast<std::size_t>(400 / 7) * 3);
  for (auto s : r.samples) EXPECT_TRUE(s == 1 || s == -1);
  ASSERT_EQ(r.energies.size(), 400u * 6u);
  // The last recorded row is the energy of each chain after the last swap pass.
  for (std::size_t c = 0; c < 6; ++c) {
    EXPECT_DOUBLE_EQ(r.energies[399 * 6 + c], r.final_energies[c]) << "chain " << c;
  }
  EXPECT_EQ(r.moments.n_samples, 400);
  EXPECT_EQ(r.moments.node_means.size(), 20u);
  EXPECT_EQ(r.moments.edge_means.size(), static_cast<std::size_t>(model.n_edges()));
  for (double v : r.moments.node_means) EXPECT_LE(std::abs(v), 1.0);
  EXPECT_GE(r.moments.abs_magnetization_per_node.mean, 0.0);
  EXPECT_LE(r.moments.abs_magnetization_per_node.mean, 1.0);
}

TEST(TEST_CATEGORY, nrpt_adaptation_pins_endpoints_and_keeps_the_ladder_ascending) {
  const auto model = hamon::make_lattice({8, 8}, true);
  auto o = small_run();
  o.n_chains = 8;
  o.beta_max = 0.6;
  o.burn_in = 1000;
  o.adapt_schedule = true;
  const auto r = hamon::nrpt(Space(), model, o);
  ASSERT_EQ(r.betas.size(), 8u);
  EXPECT_EQ(r.betas.front(), 0.0);
  EXPECT_EQ(r.betas.back(), 0.6);
  EXPECT_TRUE(std::is_sorted(r.betas.begin(), r.betas.end()));
  EXPECT_NE(r.betas[3], 0.6 * 3 / 7);  // it moved
}

TEST(TEST_CATEGORY, sample_is_nrpt_with_one_chain) {
  // Two isolated spins with fields +-0.5 at beta = 1: <s> = tanh(+-0.5). 40000 rounds of
  // exact (isolated-node heat-bath) draws: sigma = sqrt((1 - tanh^2)/40000) ~ 0.0044;
  // 5 sigma.
  const auto model = hamon::SpinModel::from_edges(2, {}, {0.5, -0.5});
  hamon::NrptOptions o;
  o.n_rounds = 40000;
  o.seed = 8;
  o.observers.moments = true;
  const auto r = hamon::sample(Space(), model, 1.0, o);
  EXPECT_TRUE(r.swaps.attempted.empty());
  EXPECT_EQ(r.betas, std::vector<double>{1.0});
  const double sigma = std::sqrt((1 - std::tanh(0.5) * std::tanh(0.5)) / 40000.0);
  EXPECT_NEAR(r.moments.node_means[0], std::tanh(0.5), 5 * sigma);
  EXPECT_NEAR(r.moments.node_means[1], -std::tanh(0.5), 5 * sigma);
}

TEST(TEST_CATEGORY, nrpt_swap_acceptance_of_independent_exact_draws) {
  // One isolated spin with field h: every sweep draws an exact, independent sample at
  // the machine's beta, so the swap acceptance has a closed form:
  //   sum_{s0,s1} p_b0(s0) p_b1(s1) min(1, exp((b1 - b0)(E(s1) - E(s0)))),  E(s) = -h s.
  // 20000 attempts per parity: binomial sigma <= 0.0036; 5 sigma.
  const double h = 0.8, b0 = 0.2, b1 = 1.5;
  const auto model = hamon::SpinModel::from_edges(1, {}, {h});
  hamon::NrptOptions o;
  o.betas = {b0, b1};
  o.n_rounds = 40000;
  o.seed = 4;
  const auto r = hamon::nrpt(Space(), model, o);
  auto p_up = [&](double b) { return 1.0 / (1.0 + std::exp(-2.0 * b * h)); };
  double expected = 0.0;
  for (int s0 : {-1, 1}) {
    for (int s1 : {-1, 1}) {
      const double p0 = s0 > 0 ? p_up(b0) : 1 - p_up(b0);
      const double p1 = s1 > 0 ? p_up(b1) : 1 - p_up(b1);
      expected += p0 * p1 * std::min(1.0, std::exp((b1 - b0) * (-h * s1 + h * s0)));
    }
  }
  ASSERT_EQ(r.swaps.attempted[0], 20000);
  EXPECT_NEAR(r.swaps.acceptance[0], expected, 5 * std::sqrt(expected * (1 - expected) / 20000.0));
}

}  // namespace

namespace {

TEST(TEST_CATEGORY, nrpt_on_caller_views_uses_them_in_place) {
  // Embedding: a caller that already holds the model in the space's memory passes its
  // Views; the run reads them where they are (the same allocations) and gives the same
  // bits as the copying entry point.
  const auto model = hamon::make_lattice({6, 6}, true, hamon::ValueDistribution::pm_one(9));
  Space space;
  const auto views = hamon::make_device_model(space, model);
  const auto* couplings_before = views.couplings.data();
  const long use_count_before = views.couplings.use_count();
  auto options = small_run();
  options.observers.samples_every = 4;
  const auto in_place = hamon::nrpt(space, views, options);
  const auto copied = hamon::nrpt(space, model, options);
  EXPECT_EQ(views.couplings.data(), couplings_before);
  EXPECT_EQ(views.couplings.use_count(), use_count_before);  // no copy kept alive
  EXPECT_EQ(in_place.samples, copied.samples);
  EXPECT_EQ(in_place.swaps.accepted, copied.swaps.accepted);
  EXPECT_EQ(in_place.final_energies, copied.final_energies);
}

}  // namespace
