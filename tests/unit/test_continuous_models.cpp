// SPDX-License-Identifier: Apache-2.0
// Continuous models on the host: their validation (positive definiteness by Gershgorin or
// Cholesky, weights > 0), energies, the reference's exact log Z against quadrature and
// closed forms, the graph file's diag / barrier lines, and the double-well slice step at
// its bound of tries, against one-dimensional quadrature.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <string>
#include <vector>

#include "expect_model_error.hpp"
#include "hamon/core/families/detail/host_vectors.hpp"
#include "hamon/core/families/real/detail/real_registers.hpp"
#include "hamon/core/families/real/detail/real_updates.hpp"
#include "hamon/core/model/model_builders.hpp"
#include "hamon/core/model/spin_model.hpp"
#include "hamon/core/util/counter_rng.hpp"

namespace {

using hamon::Edge;
using hamon::SpinModel;

/// A ring of n nodes with coupling j: its precision diag(d) - J has eigenvalues
/// d - 2 j cos(2 pi k / n), positive definite iff d > 2 |j| (n even).
std::vector<Edge> ring(int n, double j) {
  std::vector<Edge> edges;
  for (int i = 0; i < n; ++i) edges.push_back({i, (i + 1) % n, j});
  return edges;
}

TEST(ContinuousModels, a_gaussian_precision_must_be_positive_definite) {
  // Gershgorin holds (d = 1 > 2 x 0.4).
  EXPECT_NO_THROW(SpinModel::gaussian(6, ring(6, 0.4), std::vector<double>(6, 1.0)));
  // Gershgorin fails on every row (2 x 0.55 > 1) and the precision is still positive
  // definite on a star: d = 1 at the leaves, a centre joined to 3 leaves by 0.55 with
  // d = 1: eigenvalues 1 +- 0.55 sqrt 3 > 0. The Cholesky check accepts it.
  const std::vector<Edge> star = {{0, 1, 0.55}, {0, 2, 0.55}, {0, 3, 0.55}};
  EXPECT_NO_THROW(SpinModel::gaussian(4, star, std::vector<double>(4, 1.0)));
  // A ring with d = 2 |j| exactly is singular (k = 0 for j > 0): refused, the node named.
  hamon_test::expect_model_error(
      [] { SpinModel::gaussian(6, ring(6, 0.5), std::vector<double>(6, 1.0)); },
      {"not positive definite", "Cholesky", "node"});
  hamon_test::expect_model_error(
      [] {
        SpinModel::gaussian(2, {}, {1.0, 0.0});
      },
      {"diag of node 1", "finite number > 0"});
  hamon_test::expect_model_error([] { SpinModel::double_well(2, {}, {1.0}); },
                                 {"barrier", "1 values for 2 nodes"});
  // Too many nodes to factorise and Gershgorin fails: refused, naming the row and why.
  const int n = static_cast<int>(SpinModel::kMaxDenseCheck) + 2;
  hamon_test::expect_model_error(
      [n] { SpinModel::gaussian(n, ring(n, 0.6), std::vector<double>(n, 1.0)); },
      {"may not be positive definite", "row 0", "too many to factorise"});
}

TEST(ContinuousModels, energies_are_the_node_terms_less_the_couplings) {
  const auto g =
      SpinModel::gaussian(3, {{0, 1, 0.5}, {1, 2, -0.25}}, {1.0, 2.0, 4.0}, {0.5, 0.0, -1.0});
  const std::vector<double> x = {1.0, -2.0, 0.5};
  // sum d x^2 / 2 = 0.5 + 4 + 0.5; - h x = -0.5 + 0.5; couplings: -(0.5 * -2) - (-0.25 * -1)
  EXPECT_DOUBLE_EQ(g.reference_energy(x), 5.0);
  EXPECT_DOUBLE_EQ(g.continuous_energy(x), 5.0 + 1.0 - 0.25);
  const auto w = SpinModel::double_well(2, {{0, 1, 1.0}}, {2.0, 1.0}, {0.0, 1.0});
  // 2 (1 - 1)^2 + 1 (4 - 1)^2 - 1 * 2 - (1 * 1 * 2)
  EXPECT_DOUBLE_EQ(w.continuous_energy({1.0, 2.0}), 9.0 - 2.0 - 2.0);
  EXPECT_TRUE(w.is_continuous());
  EXPECT_FALSE(SpinModel::from_edges(2, {}).is_continuous());
}

/// log of the integral of exp(-beta (lambda (x^2 - 1)^2 - h x)) by a plain fine midpoint
/// rule over [-6, 6]: an independent check of the library's quadrature.
double site_log_z(double beta, double lambda, double h) {
  double sum = 0.0;
  const double step = 1e-5;
  for (double x = -6.0 + step / 2; x < 6.0; x += step) {
    sum += std::exp(-beta * (lambda * (x * x - 1) * (x * x - 1) - h * x));
  }
  return std::log(sum * step);
}

TEST(ContinuousModels, the_reference_log_z_is_exact) {
  // Gaussian sites: the closed form, against its own definition by quadrature.
  const auto g = SpinModel::gaussian(2, {}, {2.0, 0.5}, {0.3, -1.0});
  double expected = 0.0;
  for (const auto& [d, h] : {std::pair{2.0, 0.3}, std::pair{0.5, -1.0}}) {
    double sum = 0.0;
    for (double x = -40.0; x < 40.0; x += 1e-4) sum += std::exp(-1.5 * (0.5 * d * x * x - h * x));
    expected += std::log(sum * 1e-4);
  }
  EXPECT_NEAR(hamon::reference_log_z(g, 1.5), expected, 1e-9);
  // Double wells: deep (beta lambda = 20) and shallow (0.05) with a field.
  const auto w = SpinModel::double_well(3, {}, {10.0, 0.1, 1.0}, {0.0, 0.5, -2.0});
  EXPECT_NEAR(hamon::reference_log_z(w, 2.0),
              site_log_z(2.0, 10.0, 0.0) + site_log_z(2.0, 0.1, 0.5) + site_log_z(2.0, 1.0, -2.0),
              1e-9);
  hamon_test::expect_model_error([&] { hamon::reference_log_z(w, 0.0); }, {"beta", "> 0"});
}

TEST(ContinuousModels, graph_files_with_diag_or_barrier_lines_are_continuous) {
  const std::string path = ::testing::TempDir() + "continuous_graph.txt";
  {
    std::ofstream f(path);
    f << "nodes 3\nedge 0 1 0.3\nedge 2 1 -0.2\ndiag 0 1.5\nfield 2 0.4\n";
  }
  const SpinModel g = hamon::read_graph_file(path);
  EXPECT_EQ(g.continuous_kind(), hamon::ContinuousKind::gaussian);
  EXPECT_EQ(g.node_weights(), (std::vector<double>{1.5, 1.0, 1.0}));
  EXPECT_EQ(g.fields(), (std::vector<double>{0.0, 0.0, 0.4}));
  EXPECT_EQ(g.n_edges(), 2);
  {
    std::ofstream f(path);
    f << "nodes 2\nbarrier 1 2.0\nclamp 0 1\n";
  }
  hamon_test::expect_model_error([&] { hamon::read_graph_file(path); },
                                 {":3:", "continuous models have no clamped nodes"});
  {
    std::ofstream f(path);
    f << "nodes 2\nbarrier 1 -2.0\n";
  }
  hamon_test::expect_model_error([&] { hamon::read_graph_file(path); }, {":2:", "not > 0"});
  std::remove(path.c_str());
}

/// Runs the slice step with at most `tries` shrinkage tries on one site as a Markov chain
/// and compares <x> and <x^2> with quadrature: |z| < 5 with batch-means errors (200
/// batches of 2000 steps, far longer than the chain's correlation). Returns the fraction
/// of steps that kept their value.
double slice_chain_matches_quadrature(std::int32_t tries) {
  const double lambda = 1.3, h = 0.4, slope = h;  // a = 1, b = 0: the site alone
  const hamon::detail::DoubleWellSite site{lambda, slope};
  double z0 = 0.0, z1 = 0.0, z2 = 0.0;
  for (double x = -5.0; x < 5.0; x += 1e-5) {
    const double w = std::exp(site.log_density(x));
    z0 += w, z1 += w * x, z2 += w * x * x;
  }
  constexpr int kBatches = 200, kSteps = 2000;
  std::vector<double> m1, m2;
  double x = 0.0;
  std::int64_t kept = 0;
  for (int b = 0; b < kBatches; ++b) {
    double s1 = 0.0, s2 = 0.0;
    for (int k = 0; k < kSteps; ++k) {
      const auto step = static_cast<std::uint32_t>(b * kSteps + k);
      auto words = [&](std::uint32_t call) {
        return hamon::detail::real_draw(77, 0, 0, step, 0, call);
      };
      const double next = hamon::detail::double_well_slice_step(site, x, words, tries);
      kept += next == x;
      x = next;
      s1 += x, s2 += x * x;
    }
    m1.push_back(s1 / kSteps), m2.push_back(s2 / kSteps);
  }
  auto z_score = [](const std::vector<double>& v, double exact) {
    double mean = 0.0, var = 0.0;
    for (double e : v) mean += e;
    mean /= static_cast<double>(v.size());
    for (double e : v) var += (e - mean) * (e - mean);
    var /= static_cast<double>(v.size() - 1);
    return (mean - exact) / std::sqrt(var / static_cast<double>(v.size()));
  };
  EXPECT_LT(std::abs(z_score(m1, z1 / z0)), 5.0) << "<x> with " << tries << " tries";
  EXPECT_LT(std::abs(z_score(m2, z2 / z0)), 5.0) << "<x^2> with " << tries << " tries";
  return static_cast<double>(kept) / (kBatches * kSteps);
}

TEST(ContinuousModels, the_slice_step_is_exact_at_its_bound_of_tries) {
  // One try: the bound is reached often (the site keeps its value), and the chain still
  // samples the site's density.
  EXPECT_GT(slice_chain_matches_quadrature(1), 0.05);
  // The default bound: reached (almost) never.
  EXPECT_LT(slice_chain_matches_quadrature(hamon::detail::kSliceTries), 1e-4);
}

TEST(ContinuousModels, register_slice_steps_match_the_scalar_step_bit_for_bit) {
#if HAMON_HOST_SIMD
  // Sites from flat (a lambda 0 and at most 0.01: width 10, full stepping out) to steep
  // (many shrinkage tries), strong slopes, starts far in the tails; every lane count; the
  // default bound of tries and a bound of 1, 2 and 5 (lanes that keep x0).
  // On every instruction set the vector path dispatches to here.
  for (const std::int64_t target : hamon::detail::host_vector_targets()) {
    hamon::detail::restrict_host_vector_target(target);
    const std::string name = hamon::detail::host_vector_target_name(target);
    std::uint64_t state = 12345;
    auto uniform = [&state] {
      state = state * 6364136223846793005ull + 1442695040888963407ull;
      return static_cast<double>(state >> 11) * 0x1p-53;
    };
    for (int round = 0; round < 400; ++round) {
      const std::int32_t lanes = 1 + round % 32;
      const std::int32_t tries = round % 7 == 0 ? 1 + round % 5 : hamon::detail::kSliceTries;
      const auto node = static_cast<std::uint32_t>(round * 7);
      const auto machine0 = static_cast<std::uint32_t>(16 * (round % 9));
      double x0[32], a_lambda[32], slope[32], out[32];
      for (int l = 0; l < 32; ++l) {
        const int kind = (round + l) % 5;
        a_lambda[l] = kind == 0
                          ? 0.0
                          : (kind == 1 ? 0.01 * uniform() : std::pow(10.0, 4.0 * uniform() - 2.0));
        slope[l] = 20.0 * (uniform() - 0.5);
        x0[l] = kind == 4 ? 30.0 * (uniform() - 0.5) : 4.0 * (uniform() - 0.5);
        out[l] = -1234.5;
      }
      hamon::detail::double_well_registers(77, node, machine0, 3, 12, x0, a_lambda, slope, out,
                                           lanes, tries);
      for (std::int32_t l = 0; l < 32; ++l) {
        if (l >= lanes) {
          ASSERT_EQ(out[l], -1234.5)
              << name << ": lane " << l << " beyond " << lanes << " was written";
          continue;
        }
        const auto machine = static_cast<std::int32_t>(machine0) + l;
        const auto words = [&](std::uint32_t call) {
          return hamon::detail::real_draw(77, node, machine, 3, 12, call);
        };
        const hamon::detail::DoubleWellSite site{a_lambda[l], slope[l]};
        const double expected = hamon::detail::double_well_slice_step(site, x0[l], words, tries);
        ASSERT_EQ(0, std::memcmp(&out[l], &expected, sizeof(double)))
            << name << ": lane " << l << ": " << out[l] << " vs " << expected;
      }
    }
  }
  hamon::detail::restrict_host_vector_target(0);
#else
  GTEST_SKIP() << "the vector path is not compiled in";
#endif
}

}  // namespace
