// SPDX-License-Identifier: Apache-2.0
// The independent-defect estimate of beta_max and the excitation costs it reads from a
// model, against closed forms.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "hamon/core/model/excitation_costs.hpp"
#include "hamon/core/model/spin_model.hpp"
#include "hamon/core/tuning/beta_max_estimate.hpp"
#include "hamon/core/tuning/tuning.hpp"

namespace {

const double kPi = std::acos(-1.0);

TEST(BetaMaxEstimate, excess_of_spins_in_fields_is_the_exact_thermal_excess) {
  // Independent spins: <E> - E_min = sum |h| (1 - tanh(beta |h|)) exactly.
  const std::vector<double> h = {0.5, -1.25, 2.0, 0.1};
  const auto model = hamon::SpinModel::from_edges(4, {}, h);
  const auto spectrum = hamon::excitation_spectrum(model);
  EXPECT_EQ(spectrum.method, hamon::ExcitationSpectrum::Method::descent);
  ASSERT_EQ(spectrum.costs.size(), 4u);
  double scale = 0.0;
  for (std::size_t i = 0; i < h.size(); ++i) {
    EXPECT_NEAR(spectrum.costs[i], 2.0 * std::fabs(h[i]), 1e-14);
    scale += std::fabs(h[i]);
  }
  EXPECT_NEAR(spectrum.energy_scale, scale, 1e-14);
  EXPECT_NEAR(spectrum.lowest_energy, -scale, 1e-14);
  for (double beta : {0.0, 0.3, 1.0, 4.0}) {
    double exact = 0.0;
    for (double v : h) exact += std::fabs(v) * (1.0 - std::tanh(beta * std::fabs(v)));
    EXPECT_NEAR(hamon::defect_excess_energy(spectrum.costs, beta), exact, 1e-12) << beta;
  }
}

TEST(BetaMaxEstimate, root_of_identical_defects_has_a_closed_form) {
  // N costs c: N c / (1 + e^{beta c}) = tol |E|  <=>  beta = ln(N c / (tol |E|) - 1) / c.
  const double c = 1.7, scale = 40.0, tol = 1e-3;
  const std::vector<double> costs(25, c);
  const auto e = hamon::estimate_beta_max(costs, scale, tol);
  const double exact = std::log(25.0 * c / (tol * scale) - 1.0) / c;
  EXPECT_NEAR(e.beta_max, exact, 1e-10 * exact);
  EXPECT_NEAR(e.predicted_excess_energy, tol * scale, 1e-9 * tol * scale);
  EXPECT_EQ(e.n_costs, 25);
  EXPECT_EQ(e.gap_tol, tol);
  EXPECT_EQ(e.energy_scale, scale);
  // Lambda = sqrt(N) * 2 atan(tanh(beta c / 4)) / sqrt(pi): sigma = sqrt(N) c / (2 cosh(beta c /
  // 2)).
  const double lambda = 5.0 * 2.0 * std::atan(std::tanh(exact * c / 4.0)) / std::sqrt(kPi);
  EXPECT_NEAR(e.Lambda, lambda, 1e-8 * lambda);
  hamon::ChainTuningOptions options;
  options.max_chains = 1 << 30;
  EXPECT_EQ(e.n_chains, hamon::recommended_chains(e.Lambda, options));
}

TEST(BetaMaxEstimate, bisection_brackets_the_smallest_cold_enough_beta) {
  // Mixed costs: no closed form, but the root is the edge of the cold-enough set.
  const std::vector<double> costs = {0.01, 0.4, 0.4, 1.0, 2.5, 3.0, 0.0, -1.0};
  const double scale = 12.0, tol = 2e-3;
  const auto e = hamon::estimate_beta_max(costs, scale, tol);
  EXPECT_EQ(e.n_costs, 6);  // the zero and the negative cost are not defects
  EXPECT_LE(hamon::defect_excess_energy(costs, e.beta_max), tol * scale);
  EXPECT_GT(hamon::defect_excess_energy(costs, e.beta_max * (1.0 - 1e-9)), tol * scale);
  // A looser tolerance asks for a warmer beta_max and fewer chains.
  const auto loose = hamon::estimate_beta_max(costs, scale, 1e-1);
  EXPECT_LT(loose.beta_max, e.beta_max);
  EXPECT_LE(loose.n_chains, e.n_chains);
  // describe_beta_max at the root says what estimate_beta_max said.
  const auto same = hamon::describe_beta_max(costs, scale, tol, e.beta_max);
  EXPECT_EQ(same.predicted_excess_energy, e.predicted_excess_energy);
  EXPECT_EQ(same.Lambda, e.Lambda);
}

TEST(BetaMaxEstimate, refuses_what_it_cannot_estimate_from) {
  EXPECT_THROW(hamon::estimate_beta_max({0.0, -2.0}, 1.0), std::invalid_argument);
  EXPECT_THROW(hamon::estimate_beta_max({1.0}, 1.0, 0.0), std::invalid_argument);
  EXPECT_THROW(hamon::estimate_beta_max({1.0}, 1.0, -1e-3), std::invalid_argument);
  EXPECT_THROW(hamon::estimate_beta_max({1.0}, 1.0, 1.0), std::invalid_argument);
  EXPECT_THROW(hamon::estimate_beta_max({1.0}, 0.0), std::invalid_argument);
  EXPECT_THROW(hamon::describe_beta_max({1.0}, 1.0, 1e-3, -1.0), std::invalid_argument);
  const auto empty = hamon::SpinModel::from_edges(3, {{0, 1, 0.0}});
  const auto spectrum = hamon::excitation_spectrum(empty);
  EXPECT_THROW(hamon::estimate_beta_max(spectrum.costs, spectrum.energy_scale),
               std::invalid_argument);
}

TEST(ExcitationCosts, field_free_forest_is_exact) {
  const auto chain =
      hamon::SpinModel::from_edges(5, {{0, 1, 1.0}, {1, 2, -0.5}, {2, 3, 2.0}, {1, 4, 0.25}});
  const auto s = hamon::excitation_spectrum(chain);
  EXPECT_EQ(s.method, hamon::ExcitationSpectrum::Method::forest_exact);
  EXPECT_EQ(s.costs, (std::vector<double>{2.0, 1.0, 0.5, 4.0}));  // edges sorted by (i, j)
  EXPECT_EQ(s.energy_scale, 3.75);
  // Closing a cycle makes it a descent; the ferromagnetic ring's minimum costs 4 per node.
  const auto ring = hamon::SpinModel::from_edges(3, {{0, 1, 1.0}, {1, 2, 1.0}, {0, 2, 1.0}});
  const auto r = hamon::excitation_spectrum(ring);
  EXPECT_EQ(r.method, hamon::ExcitationSpectrum::Method::descent);
  EXPECT_EQ(r.costs, (std::vector<double>{4.0, 4.0, 4.0}));
  EXPECT_EQ(r.energy_scale, 3.0);
}

TEST(ExcitationCosts, clamped_nodes_carry_no_cost_but_act_as_fields) {
  // Node 0 clamped to +1 pulls node 1 (J = 1) against its field -0.25: cost 2 |1 - 0.25|.
  const auto model = hamon::SpinModel::from_edges(3, {{0, 1, 1.0}}, {0.0, -0.25, 0.5}, {{0, 1}});
  const auto s = hamon::excitation_spectrum(model);
  ASSERT_EQ(s.costs.size(), 2u);
  EXPECT_DOUBLE_EQ(s.costs[0], 1.5);
  EXPECT_DOUBLE_EQ(s.costs[1], 1.0);
  EXPECT_DOUBLE_EQ(s.lowest_energy, -(0.75 + 0.5));
}

TEST(ExcitationCosts, potts_takes_the_cheapest_other_state) {
  // One free node with h = (0, 1, 3): the minimum is state 2, the cheapest change costs 2.
  const auto one = hamon::SpinModel::potts(1, 3, {}, {0.0, 1.0, 3.0});
  const auto s = hamon::excitation_spectrum(one);
  EXPECT_EQ(s.costs, (std::vector<double>{2.0}));
  EXPECT_EQ(s.lowest_energy, -3.0);
  // Two nodes, Potts J = 2 and no field: aligned, and either node breaks the bond for 2.
  const auto pair = hamon::SpinModel::potts(2, 4, {{0, 1, 2.0}});
  const auto p = hamon::excitation_spectrum(pair);
  EXPECT_EQ(p.costs, (std::vector<double>{2.0, 2.0}));
  EXPECT_EQ(p.energy_scale, 2.0);
}

TEST(ExcitationCosts, a_landscape_flat_at_every_minimum_falls_back_to_the_bonds) {
  // The antiferromagnetic triangle: every minimum has one frustrated bond whose two nodes
  // flip for free, and each node is one of them in some minimum.
  const auto triangle = hamon::SpinModel::from_edges(3, {{0, 1, -1.0}, {1, 2, -1.0}, {0, 2, -1.0}});
  const auto s = hamon::excitation_spectrum(triangle);
  EXPECT_EQ(s.method, hamon::ExcitationSpectrum::Method::coupling_fallback);
  EXPECT_EQ(s.costs, (std::vector<double>{2.0, 2.0, 2.0}));
  EXPECT_EQ(s.lowest_energy, -1.0);
}

TEST(ExcitationCosts, the_same_model_gives_the_same_costs) {
  std::vector<hamon::Edge> edges;
  std::vector<double> h;
  for (int i = 0; i < 30; ++i) {
    edges.push_back({i, (i + 1) % 30, (i % 3 == 0 ? -1.0 : 1.0) * (0.5 + 0.1 * i)});
    edges.push_back({i, (i + 7) % 30, (i % 2 == 0 ? 0.3 : -0.7)});
    h.push_back(0.05 * ((i * 7) % 5 - 2));
  }
  const auto model = hamon::SpinModel::from_edges(30, edges, h);
  const auto a = hamon::excitation_spectrum(model);
  const auto b = hamon::excitation_spectrum(model);
  EXPECT_EQ(a.costs, b.costs);
  EXPECT_EQ(a.lowest_energy, b.lowest_energy);
  EXPECT_EQ(a.n_descents, 16);
  // More descents can only find a state as low or lower, and cheaper flips.
  const auto one = hamon::excitation_spectrum(model, 1);
  EXPECT_GE(one.lowest_energy, a.lowest_energy);
  for (std::size_t i = 0; i < a.costs.size(); ++i) EXPECT_LE(a.costs[i], one.costs[i]);
}

}  // namespace
