// SPDX-License-Identifier: Apache-2.0
// Cold-chain statistics of NRPT against exact enumeration on small models.
//
// Tolerance: every estimate must lie within 5 standard errors of the exact value, the
// standard error coming from 32 batch means of the run (each batch spans >= 1500 rounds,
// far longer than the autocorrelation time of these small models, so the batch means are
// close to independent; 5 sigma keeps the family-wise false-alarm rate below 1e-4 over
// the ~100 checks here), and also within 0.05 absolute — at least as strict as the
// reference library's 0.05 relative error on 8 spins for the magnitudes involved. Seeds
// are fixed, and the engine is bit-identical across spaces, so the outcome is too.
#include <gtest/gtest.h>

#include <Kokkos_Core.hpp>
#include <cmath>
#include <map>

#include "exact_enumeration.hpp"
#include "hamon/core/model/model_builders.hpp"
#include "hamon/core/sampler/nrpt.hpp"
#include "statistics_checks.hpp"

namespace {

using hamon_test::expect_within_error;
using hamon_test::statistics_run;
using Space = TEST_EXECSPACE;

void check_against_enumeration(const hamon::SpinModel& model, double beta, std::int64_t rounds,
                               std::uint64_t seed) {
  const auto result = hamon::nrpt(Space(), model, statistics_run(beta, rounds, seed));
  const auto exact = hamon::test::exact_moments(model, beta);
  const auto& m = result.moments;
  ASSERT_EQ(m.n_samples, rounds);
  for (std::int64_t i = 0; i < model.n_nodes(); ++i) {
    expect_within_error(m.node_means[i], m.node_means_stderr[i], exact.node_means[i],
                        "<s_" + std::to_string(i) + ">");
  }
  for (std::size_t e = 0; e < model.edges().size(); ++e) {
    const auto& edge = model.edges()[e];
    expect_within_error(m.edge_means[e], m.edge_means_stderr[e], exact.edge_means[e],
                        "<s_" + std::to_string(edge.i) + " s_" + std::to_string(edge.j) + ">");
  }
  const double n = static_cast<double>(model.n_nodes());
  EXPECT_LE(std::abs(m.energy_per_node.mean - exact.energy / n),
            5.0 * m.energy_per_node.standard_error)
      << "energy per node " << m.energy_per_node.mean << " exact " << exact.energy / n;
}

TEST(TEST_CATEGORY, exact_frustrated_loops_with_fields) {
  // A frustrated triangle sharing node 2 with a second loop, fields on most nodes.
  const auto model = hamon::SpinModel::from_edges(
      5, {{0, 1, 1.0}, {1, 2, 1.0}, {0, 2, -1.0}, {2, 3, 0.7}, {3, 4, -0.5}, {4, 2, 0.9}},
      {0.3, -0.2, 0.1, 0.0, 0.5});
  check_against_enumeration(model, 1.0, 50000, 11);
}

TEST(TEST_CATEGORY, exact_edwards_anderson_4x4) {
  const auto model = hamon::make_lattice({4, 4}, false, hamon::ValueDistribution::pm_one(5),
                                         hamon::ValueDistribution::gaussian(6, 0.2));
  check_against_enumeration(model, 1.0, 50000, 12);
}

TEST(TEST_CATEGORY, exact_clamped_nodes) {
  // A ring of 10 with two chords; nodes 0 and 5 clamped to opposite values.
  std::vector<hamon::Edge> edges;
  for (int i = 0; i < 10; ++i) edges.push_back({i, (i + 1) % 10, 0.8 - 0.15 * (i % 3)});
  edges.push_back({2, 7, -0.6});
  edges.push_back({1, 4, 0.4});
  const auto model =
      hamon::SpinModel::from_edges(10, edges, std::vector<double>(10, 0.1), {{0, 1}, {5, -1}});
  ASSERT_EQ(model.n_free(), 8);
  check_against_enumeration(model, 1.2, 50000, 13);
}

TEST(TEST_CATEGORY, exact_rbm) {
  const auto model =
      hamon::make_rbm(hamon::random_rbm(5, 4, hamon::ValueDistribution::gaussian(21, 0.6),
                                        hamon::ValueDistribution::gaussian(22, 0.3)));
  check_against_enumeration(model, 1.0, 50000, 14);
}

TEST(TEST_CATEGORY, exact_periodic_ferromagnet_energy) {
  // 4x4 torus near the infinite-lattice critical coupling.
  const auto model = hamon::make_lattice({4, 4}, true);
  const double beta = 0.4406868;
  auto options = statistics_run(beta, 60000, 15);
  options.n_chains = 5;
  const auto result = hamon::nrpt(Space(), model, options);
  const auto exact = hamon::test::exact_moments(model, beta);
  const auto& e = result.moments.energy_per_node;
  EXPECT_LE(std::abs(e.mean - exact.energy / 16.0), 5.0 * e.standard_error)
      << "energy per node " << e.mean << " +- " << e.standard_error << ", exact "
      << exact.energy / 16.0;
  EXPECT_LT(e.standard_error, 0.01);
}

TEST(TEST_CATEGORY, exact_distribution_total_variation) {
  // The full distribution of 8 free spins: 100000 cold-chain samples give an expected
  // total-variation distance below 0.03 when the sampler is right (sum over 256 states of
  // the binomial noise); the reference library's bound is 0.05.
  std::vector<hamon::Edge> edges;
  for (int i = 0; i < 8; ++i) edges.push_back({i, (i + 1) % 8, i % 2 ? 0.9 : -0.4});
  edges.push_back({0, 4, 0.5});
  const auto model = hamon::SpinModel::from_edges(8, edges, {0.2, 0, -0.3, 0, 0.1, 0, 0, 0.4});
  auto options = statistics_run(1.0, 100000, 16);
  options.observers.moments = false;
  options.observers.samples_every = 1;
  const auto result = hamon::nrpt(Space(), model, options);
  ASSERT_EQ(result.n_samples, 100000);
  std::vector<double> histogram(256, 0.0);
  for (std::int64_t s = 0; s < result.n_samples; ++s) {
    std::size_t index = 0;
    for (std::size_t k = 0; k < 8; ++k) {
      if (result.samples[static_cast<std::size_t>(s) * 8 + k] > 0) index |= std::size_t{1} << k;
    }
    histogram[index] += 1.0 / static_cast<double>(result.n_samples);
  }
  const auto exact = hamon::test::exact_moments(model, 1.0);
  double tv = 0.0;
  for (std::size_t k = 0; k < 256; ++k) tv += 0.5 * std::abs(histogram[k] - exact.probabilities[k]);
  EXPECT_LT(tv, 0.03);
}

}  // namespace
