// SPDX-License-Identifier: Apache-2.0
// The transfer-matrix oracle (tests/support/transfer_matrix.hpp) against enumeration, and
// with it the calibration of every error bar a run reports: on a 300-node glass strip with
// fields and clamps, over K independent seeds, z = (estimate - exact) / error must have
// mean ~ 0 and variance ~ 1 for the energy, the node marginals and both log Z estimates.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <random>
#include <vector>

#include "../support/exact_enumeration.hpp"
#include "../support/statistics_checks.hpp"
#include "../support/transfer_matrix.hpp"
#include "hamon/core/analysis/diagnostics.hpp"
#include "hamon/policies/dispatch.hpp"

namespace {

using hamon::SpinModel;

// A W x M strip, node m W + x: bonds (m, x)-(m, x+1) (across W, wrapping when periodic)
// and (m, x)-(m+1, x) (along M, open); couplings uniform in [-j, j], fields in [-h, h]
// (from mt19937_64, whose output the standard fixes), then `clamps`.
SpinModel glass_strip(int width, int length, bool periodic, double j, double h, std::uint64_t seed,
                      const std::vector<hamon::Clamp>& clamps) {
  std::mt19937_64 engine(seed);
  auto uniform = [&](double a) {
    return a * (2.0 * static_cast<double>(engine() >> 11) * 0x1.0p-53 - 1.0);
  };
  std::vector<hamon::Edge> edges;
  for (int m = 0; m < length; ++m) {
    for (int x = 0; x < width; ++x) {
      const std::int64_t node = std::int64_t{m} * width + x;
      if (x + 1 < width || (periodic && width > 2)) {
        edges.push_back({node, std::int64_t{m} * width + (x + 1) % width, uniform(j)});
      }
      if (m + 1 < length) edges.push_back({node, node + width, uniform(j)});
    }
  }
  std::vector<double> fields(static_cast<std::size_t>(width * length));
  for (double& f : fields) f = uniform(h);
  return SpinModel::from_edges(std::int64_t{width} * length, edges, fields, clamps);
}

TEST(TransferMatrix, matches_enumeration_on_small_strips) {
  // Exact to rounding: 1e-10 on log Z and <E> (of order 10), and on the marginals.
  struct Case {
    int width, length;
    bool periodic;
    std::vector<hamon::Clamp> clamps;
    double beta;
  };
  const std::vector<Case> cases = {{3, 5, true, {{4, 1}}, 1.3},
                                   {4, 4, false, {{0, -1}, {9, 1}}, 0.7},
                                   {1, 12, false, {}, 2.0},
                                   {5, 3, true, {}, 0.4}};
  std::uint64_t seed = 1;
  for (const Case& c : cases) {
    SCOPED_TRACE(std::to_string(c.width) + "x" + std::to_string(c.length));
    const SpinModel model = glass_strip(c.width, c.length, c.periodic, 1.5, 0.7, seed++, c.clamps);
    const auto exact = hamon::test::exact_moments(model, c.beta);
    const auto strip = hamon::test::strip_moments(model, c.width, c.beta);
    EXPECT_NEAR(strip.log_z, exact.log_z, 1e-10);
    EXPECT_NEAR(strip.energy, exact.energy, 1e-10);
    for (std::size_t i = 0; i < exact.node_means.size(); ++i) {
      EXPECT_NEAR(strip.node_means[i], exact.node_means[i], 1e-10) << "node " << i;
    }
    ASSERT_EQ(strip.edge_means.size(), exact.edge_means.size());
    for (std::size_t e = 0; e < exact.edge_means.size(); ++e) {
      EXPECT_NEAR(strip.edge_means[e], exact.edge_means[e], 1e-10) << "edge " << e;
    }
  }
  const SpinModel wide = glass_strip(4, 4, false, 1.0, 0.0, 9, {});
  EXPECT_THROW(hamon::test::strip_moments(wide, 3, 1.0), std::invalid_argument);  // too narrow
}

TEST(Calibration, error_bars_cover_the_exact_values_as_often_as_they_claim) {
  // A 10 x 30 glass strip (periodic across 10) with fields and two clamped nodes, at
  // beta = 1, sampled by NRPT (16 chains linear from 0, 6000 rounds after 500 of burn-in,
  // 2 sweeps per round) with K = 16 seeds; exact values from the transfer matrix.
  //
  // Tolerances. For K independent z ~ N(0, 1): mean(z) has sd 1/sqrt(K) = 0.25, so
  // |mean| <= 0.75 (3 sd); the sample variance of K values has sd sqrt(2/(K-1)) = 0.37, so
  // var in [0.2, 2.2] (about 2-3 sd; a miscalibration by a factor 2 in the error, var 4
  // or 0.25, fails). With batch-means errors from 32 batches z is t-distributed with ~31
  // degrees of freedom: variance 1.07, inside the bands. The node marginals pool the 298
  // free nodes of every run (4768 values, correlated within a run), so their band is
  // narrower: mean within 0.25, var in [0.7, 1.4]. Thermodynamic integration reports a
  // conservative discretisation error (see log_partition.hpp), so its z only needs a
  // small mean and a variance at most 2.2.
  const SpinModel model = glass_strip(10, 30, true, 1.5, 0.5, 77, {{0, 1}, {155, -1}});
  const double beta = 1.0;
  const auto exact = hamon::test::strip_moments(model, 10, beta);
  const double exact_energy = exact.energy / static_cast<double>(model.n_nodes());

  constexpr int kSeeds = 16;
  hamon_test::ZMoments energy, nodes, ss, ti;
  for (int k = 0; k < kSeeds; ++k) {
    hamon::NrptOptions o;
    o.n_chains = 16;
    o.beta_min = 0.0;
    o.beta_max = beta;
    o.n_rounds = 6000;
    o.burn_in = 500;
    o.n_expl = 2;
    o.seed = 1000 + static_cast<std::uint64_t>(k);
    o.observers.energies = true;
    o.observers.moments = true;
    const auto r =
        hamon::routed_nrpt(model, o, hamon::DeviceSpec::backend(hamon::Placement::serial)).result;
    const auto& m = r.moments;
    energy.add((m.energy_per_node.mean - exact_energy) / m.energy_per_node.standard_error);
    for (std::size_t i = 0; i < m.node_means.size(); ++i) {
      if (model.clamped()[i] != 0) continue;
      nodes.add((m.node_means[i] - exact.node_means[i]) / m.node_means_stderr[i]);
    }
    const auto z = hamon::log_partition(model, r);
    ASSERT_TRUE(z.has_value());
    ss.add((z->stepping_stone.value - exact.log_z) / z->stepping_stone.error());
    ti.add((z->thermodynamic_integration.value - exact.log_z) /
           z->thermodynamic_integration.error());
  }
  std::printf(
      "calibration over %d seeds (z = (estimate - exact) / error): mean, variance\n"
      "  energy/node      %+.3f %.3f\n  node marginals   %+.3f %.3f (%lld values)\n"
      "  log Z stepping   %+.3f %.3f\n  log Z TI         %+.3f %.3f\n",
      kSeeds, energy.mean(), energy.variance(), nodes.mean(), nodes.variance(),
      static_cast<long long>(nodes.n), ss.mean(), ss.variance(), ti.mean(), ti.variance());
  EXPECT_LE(std::abs(energy.mean()), 0.75);
  EXPECT_GE(energy.variance(), 0.2);
  EXPECT_LE(energy.variance(), 2.2);
  EXPECT_LE(std::abs(nodes.mean()), 0.25);
  EXPECT_GE(nodes.variance(), 0.7);
  EXPECT_LE(nodes.variance(), 1.4);
  EXPECT_LE(std::abs(ss.mean()), 0.75);
  EXPECT_GE(ss.variance(), 0.2);
  EXPECT_LE(ss.variance(), 2.2);
  EXPECT_LE(std::abs(ti.mean()), 0.75);
  EXPECT_LE(ti.variance(), 2.2);
}

}  // namespace
