// SPDX-License-Identifier: Apache-2.0
// The Potts oracles of tests/support: enumeration (exact_enumeration.hpp) against closed
// forms, against the library's energy function and, at q = 2, against the Ising
// enumeration of the mapped model; the transfer matrix (transfer_matrix.hpp) against
// enumeration on small strips; the torus's column transfer matrix (potts_torus.hpp) against
// enumeration and the exactly known critical energy of the infinite lattice. All exact
// (but the last): the tolerances are rounding (1e-10 on log Z and
// <E>, which are of order 10, and on probabilities).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "../support/exact_enumeration.hpp"
#include "../support/potts_strip.hpp"
#include "../support/potts_torus.hpp"
#include "../support/transfer_matrix.hpp"
#include "hamon/core/model/model_builders.hpp"

namespace {

using hamon::Clamp;
using hamon::CouplingMatrix;
using hamon::Edge;
using hamon::SpinModel;
using hamon::test::PottsStripSpec;

constexpr double kExact = 1e-10;

TEST(PottsEnumeration, TwoNodesMatchTheClosedForm) {
  // Two q-state nodes with Potts J and no field: Z = q e^{beta J} + q (q - 1), P(agree) =
  // q e^{beta J} / Z, <E> = -J P(agree), uniform marginals.
  for (int q : {2, 3, 5}) {
    SCOPED_TRACE("q = " + std::to_string(q));
    const double j = 0.8, beta = 1.3;
    const auto model = SpinModel::potts(2, q, {{0, 1, j}});
    const auto exact = hamon::test::potts_exact_moments(model, beta);
    const double same = q * std::exp(beta * j);
    const double z = same + q * (q - 1.0);
    EXPECT_NEAR(exact.log_z, std::log(z), kExact);
    ASSERT_EQ(exact.edge_agreement.size(), 1u);
    EXPECT_NEAR(exact.edge_agreement[0], same / z, kExact);
    EXPECT_NEAR(exact.energy, -j * same / z, kExact);
    for (double p : exact.marginals) EXPECT_NEAR(p, 1.0 / q, kExact);
    // Order parameter of two nodes: 1 when they agree, (q/2 - 1)/(q - 1) when not.
    EXPECT_NEAR(exact.order_parameter, (same + q * (q - 1.0) * (q / 2.0 - 1.0) / (q - 1.0)) / z,
                kExact);
  }
}

TEST(PottsEnumeration, FieldsAndClampsMatchTheClosedForm) {
  // Node 0 clamped to state 2, node 1 free with fields h(s) and a general matrix W(2, s):
  // P(x_1 = s) is proportional to exp(beta (h(s) + W(2, s))).
  const int q = 3;
  const std::vector<double> fields = {0.0, 0.0, 0.0, 0.3, -0.4, 1.1};
  const CouplingMatrix w{1, 0, {0.5, -0.2, 0.7, 0.1, 0.9, -1.0, 2.0, 0.0, 0.4}};  // (x_1, x_0)
  const auto model = SpinModel::potts(2, q, {}, fields, {{0, 2}}, {w});
  const double beta = 0.9;
  const auto exact = hamon::test::potts_exact_moments(model, beta);
  double z = 0.0;
  std::vector<double> weight(q);
  for (int s = 0; s < q; ++s) {
    weight[s] = std::exp(beta * (fields[3 + s] + w.values[s * q + 2]));
    z += weight[s];
  }
  EXPECT_NEAR(exact.log_z, std::log(z), kExact);
  ASSERT_EQ(exact.probabilities.size(), 3u);
  for (int s = 0; s < q; ++s) {
    EXPECT_NEAR(exact.marginals[3 + s], weight[s] / z, kExact);
    EXPECT_NEAR(exact.probabilities[s], weight[s] / z, kExact);
    EXPECT_EQ(exact.marginals[s], s == 2 ? 1.0 : 0.0);
  }
  EXPECT_NEAR(exact.edge_agreement[0], weight[2] / z, kExact);
}

TEST(PottsEnumeration, EnergiesAreTheModelsEnergies) {
  // The oracle's tables (state_model.hpp) against SpinModel::potts_energy, over every
  // configuration of a model with all kinds of terms: the two are separate code.
  const auto model = hamon::test::potts_strip({3, 3, 3, true, 1.2, 0.6, 2, {{4, 1}}, 5});
  const auto m = hamon::test::state_model(model);
  const auto exact = hamon::test::potts_exact_moments(model, 1.0);
  ASSERT_EQ(exact.probabilities.size(), 6561u);  // 3^8
  std::size_t checked = 0;
  hamon::test::for_each_configuration(m, m.free_nodes(),
                                      [&](std::size_t, const std::vector<int>& x) {
                                        std::vector<std::uint8_t> states(x.begin(), x.end());
                                        const double e = model.potts_energy(states);
                                        if (std::abs(e - m.energy(x)) > 1e-12)
                                          ADD_FAILURE() << "energy " << e << " vs " << m.energy(x);
                                        ++checked;
                                      });
  EXPECT_EQ(checked, 6561u);
}

/// The q = 2 Potts model as an Ising model (state 1 = spin +1): delta(a, b) = (1 + s s')/2
/// and a general W(a, b) = c + u s + v s' + K s s'; returns the constant C with
/// E_potts = E_ising - C.
double as_ising(const SpinModel& potts, SpinModel& ising) {
  const auto n = static_cast<std::size_t>(potts.n_nodes());
  std::vector<double> fields(n, 0.0);
  double constant = 0.0;
  for (std::size_t i = 0; i < n; ++i) {
    const double h0 = potts.state_fields()[2 * i], h1 = potts.state_fields()[2 * i + 1];
    fields[i] += (h1 - h0) / 2.0;
    constant += (h1 + h0) / 2.0;
  }
  std::vector<Edge> edges;
  for (std::size_t e = 0; e < potts.edges().size(); ++e) {
    const auto& edge = potts.edges()[e];
    auto w = [&](int a, int b) { return potts.edge_coupling(static_cast<std::int64_t>(e), a, b); };
    edges.push_back({edge.i, edge.j, (w(1, 1) - w(1, 0) - w(0, 1) + w(0, 0)) / 4.0});
    fields[static_cast<std::size_t>(edge.i)] += (w(1, 1) + w(1, 0) - w(0, 1) - w(0, 0)) / 4.0;
    fields[static_cast<std::size_t>(edge.j)] += (w(1, 1) - w(1, 0) + w(0, 1) - w(0, 0)) / 4.0;
    constant += (w(1, 1) + w(1, 0) + w(0, 1) + w(0, 0)) / 4.0;
  }
  std::vector<Clamp> clamps;
  for (std::size_t i = 0; i < n; ++i) {
    const int c = potts.clamped_states()[i];
    if (c >= 0) clamps.push_back({static_cast<std::int64_t>(i), c == 1 ? 1 : -1});
  }
  ising = SpinModel::from_edges(potts.n_nodes(), edges, fields, clamps);
  return constant;
}

TEST(PottsEnumeration, QTwoIsTheMappedIsingModel) {
  // Potts-form bonds only, then every second bond a general matrix; with a clamp.
  for (int every : {0, 2}) {
    SCOPED_TRACE("matrix_every = " + std::to_string(every));
    const auto potts =
        hamon::test::potts_strip({3, 4, 2, true, 1.3, 0.8, every, {{5, 0}, {7, 1}}, 17});
    SpinModel ising = SpinModel::from_edges(1, {});
    const double constant = as_ising(potts, ising);
    const double beta = 0.85;
    const auto p = hamon::test::potts_exact_moments(potts, beta);
    const auto s = hamon::test::exact_moments(ising, beta);
    EXPECT_NEAR(p.log_z, s.log_z + beta * constant, kExact);
    EXPECT_NEAR(p.energy, s.energy - constant, kExact);
    EXPECT_NEAR(p.energy_variance, s.energy_variance, kExact);
    EXPECT_NEAR(p.order_parameter, s.abs_magnetization, kExact);
    for (std::size_t i = 0; i < s.node_means.size(); ++i) {
      EXPECT_NEAR(p.marginals[2 * i + 1], (1.0 + s.node_means[i]) / 2.0, kExact) << "node " << i;
    }
    for (std::size_t e = 0; e < s.edge_means.size(); ++e) {
      EXPECT_NEAR(p.edge_agreement[e], (1.0 + s.edge_means[e]) / 2.0, kExact) << "edge " << e;
    }
    ASSERT_EQ(p.probabilities.size(), s.probabilities.size());
    for (std::size_t k = 0; k < s.probabilities.size(); ++k) {
      EXPECT_NEAR(p.probabilities[k], s.probabilities[k], kExact);
    }
  }
}

TEST(PottsEnumeration, RefusesTooManyConfigurationsAndIsingModels) {
  EXPECT_THROW(hamon::test::potts_exact_moments(SpinModel::potts(14, 3, {}), 1.0),
               std::invalid_argument);  // 3^14 > 2^21
  EXPECT_THROW(hamon::test::potts_exact_moments(SpinModel::from_edges(2, {{0, 1, 1.0}}), 1.0),
               std::invalid_argument);
  EXPECT_THROW(hamon::test::exact_moments(SpinModel::potts(2, 3, {{0, 1, 1.0}}), 1.0),
               std::invalid_argument);
}

void expect_strip_matches_enumeration(const SpinModel& model, int width, double beta) {
  const auto exact = hamon::test::potts_exact_moments(model, beta);
  const auto strip = hamon::test::potts_strip_moments(model, width, beta);
  EXPECT_NEAR(strip.log_z, exact.log_z, kExact);
  EXPECT_NEAR(strip.energy, exact.energy, kExact);
  ASSERT_EQ(strip.marginals.size(), exact.marginals.size());
  for (std::size_t k = 0; k < exact.marginals.size(); ++k) {
    EXPECT_NEAR(strip.marginals[k], exact.marginals[k], kExact) << "marginal " << k;
  }
  ASSERT_EQ(strip.edge_agreement.size(), exact.edge_agreement.size());
  for (std::size_t e = 0; e < exact.edge_agreement.size(); ++e) {
    EXPECT_NEAR(strip.edge_agreement[e], exact.edge_agreement[e], kExact) << "edge " << e;
  }
}

TEST(PottsTransferMatrix, MatchesEnumerationOnSmallStrips) {
  struct Case {
    PottsStripSpec spec;
    double beta;
  };
  // Several q, open and periodic across W, Potts-form and general couplings, fields,
  // clamps (at the strip's start, middle and end), ferro- and antiferromagnetic bonds.
  const std::vector<Case> cases = {{{3, 4, 3, true, 1.5, 0.7, 0, {{4, 1}}, 1}, 1.3},
                                   {{3, 4, 3, false, 1.0, 0.4, 3, {{0, 2}, {11, 0}}, 2}, 0.9},
                                   {{2, 5, 4, false, 2.0, 0.5, 2, {{3, 3}}, 3}, 0.7},
                                   {{4, 3, 3, true, 1.2, 0.0, 1, {}, 4}, 1.1},
                                   {{1, 11, 3, false, 1.5, 1.0, 2, {{5, 1}}, 5}, 2.0},
                                   {{3, 3, 5, true, 1.0, 0.6, 4, {{8, 4}}, 6}, 0.8},
                                   {{2, 3, 8, false, 1.0, 0.6, 2, {}, 7}, 1.5},
                                   {{3, 4, 2, true, 1.5, 0.7, 2, {{1, 1}}, 8}, 1.0}};
  for (const Case& c : cases) {
    SCOPED_TRACE(std::to_string(c.spec.width) + "x" + std::to_string(c.spec.length) +
                 ", q = " + std::to_string(c.spec.q) + ", seed " + std::to_string(c.spec.seed));
    expect_strip_matches_enumeration(hamon::test::potts_strip(c.spec), c.spec.width, c.beta);
  }
}

TEST(PottsTransferMatrix, MatchesEnumerationOnBuilderLattices) {
  // make_potts_lattice({M, W}, open) numbers nodes m W + x: Gaussian and +-J Potts glasses
  // with drawn and uniform per-state fields.
  hamon::PottsFields drawn;
  drawn.drawn = hamon::ValueDistribution::gaussian(31, 0.5);
  const auto gaussian = hamon::make_potts_lattice(
      {4, 3}, false, 3, hamon::ValueDistribution::gaussian(30, 1.0), drawn);
  expect_strip_matches_enumeration(gaussian, 3, 1.2);
  hamon::PottsFields uniform;
  uniform.uniform = {0.2, -0.1, 0.0, 0.4};
  const auto pm = hamon::make_potts_lattice({3, 3}, false, 4,
                                            hamon::ValueDistribution::pm_one(32, 1.0), uniform);
  expect_strip_matches_enumeration(pm, 3, 0.9);
}

TEST(PottsTransferMatrix, WideStripsKeepRoundingSmall) {
  // A 4 x 100 strip (q = 3): log Z ~ 10^2 - 10^3 accumulated over 400 rescalings. Adding a
  // constant c to every field (clamped nodes' too) shifts E by -c N and log Z by beta c N
  // exactly and changes nothing else; the oracle must reproduce that to rounding. The
  // second model also gives every bond as a matrix (the other code path of edge_coupling).
  PottsStripSpec spec{4, 100, 3, true, 1.0, 0.5, 5, {{17, 2}, {250, 0}}, 9};
  const auto model = hamon::test::potts_strip(spec);
  const double beta = 1.1, c = 0.75;
  std::vector<double> shifted = model.state_fields();
  for (double& h : shifted) h += c;
  std::vector<CouplingMatrix> matrices;
  std::vector<Edge> edges;
  for (std::size_t e = 0; e < model.edges().size(); ++e) {
    CouplingMatrix m{model.edges()[e].i, model.edges()[e].j, {}};
    for (int a = 0; a < 3; ++a) {
      for (int b = 0; b < 3; ++b)
        m.values.push_back(model.edge_coupling(static_cast<std::int64_t>(e), a, b));
    }
    matrices.push_back(m);
  }
  std::vector<Clamp> clamps = spec.clamps;
  const auto other = SpinModel::potts(model.n_nodes(), 3, edges, shifted, clamps, matrices);
  const auto a = hamon::test::potts_strip_moments(model, 4, beta);
  const auto b = hamon::test::potts_strip_moments(other, 4, beta);
  EXPECT_NEAR(b.log_z - a.log_z, beta * c * 400.0, 1e-9 * std::abs(a.log_z) + 1e-9);
  EXPECT_NEAR(b.energy - a.energy, -c * 400.0, 1e-9 * std::abs(a.energy));
  for (std::size_t k = 0; k < a.marginals.size(); ++k) {
    EXPECT_NEAR(a.marginals[k], b.marginals[k], 1e-10);
  }
  for (std::size_t i = 0; i < 400; ++i) {
    double sum = 0.0;
    for (int s = 0; s < 3; ++s) sum += a.marginals[3 * i + static_cast<std::size_t>(s)];
    EXPECT_NEAR(sum, 1.0, 1e-12) << "node " << i;
  }
  EXPECT_NEAR(a.marginals[3 * 17 + 2], 1.0, 1e-12);  // clamped
  EXPECT_NEAR(a.marginals[3 * 250 + 0], 1.0, 1e-12);
}

TEST(PottsTransferMatrix, RefusesModelsItCannotHold) {
  const auto model = hamon::test::potts_strip({4, 4, 3, false, 1.0, 0.0, 0, {}, 10});
  EXPECT_THROW(hamon::test::potts_strip_moments(model, 3, 1.0), std::invalid_argument);  // narrow
  const auto wide = SpinModel::potts(11, 3, {{0, 10, 1.0}});
  EXPECT_THROW(hamon::test::potts_strip_moments(wide, 11, 1.0), std::invalid_argument);  // 3^11
  EXPECT_THROW(hamon::test::potts_strip_moments(SpinModel::from_edges(2, {}), 1, 1.0),
               std::invalid_argument);
}

TEST(PottsTorus, MatchesEnumerationOfTheTorus) {
  // The uniform ferromagnet (J = 1) on small rows x cols tori: the column transfer matrix
  // against enumeration of the same bonds written out here, and of the library's periodic
  // lattice (the same torus, so the sampler's test model is the reference's).
  struct Case {
    int rows, cols, q;
    double beta;
  };
  for (const Case c : {Case{3, 4, 3, 1.0050}, Case{4, 3, 2, 0.44}, Case{3, 3, 4, 1.1}}) {
    SCOPED_TRACE(std::to_string(c.rows) + " x " + std::to_string(c.cols) +
                 ", q = " + std::to_string(c.q));
    std::vector<Edge> bonds;
    for (int x = 0; x < c.cols; ++x) {
      for (int y = 0; y < c.rows; ++y) {
        const std::int64_t node = std::int64_t{x} * c.rows + y;
        bonds.push_back({node, std::int64_t{x} * c.rows + (y + 1) % c.rows, 1.0});
        bonds.push_back({node, std::int64_t{(x + 1) % c.cols} * c.rows + y, 1.0});
      }
    }
    const auto torus = hamon::test::potts_torus_exact(c.rows, c.cols, c.q, c.beta);
    for (const auto& model : {SpinModel::potts(std::int64_t{c.rows} * c.cols, c.q, bonds),
                              hamon::make_potts_lattice({c.cols, c.rows}, true, c.q)}) {
      ASSERT_EQ(model.edges().size(), bonds.size());
      const auto exact = hamon::test::potts_exact_moments(model, c.beta);
      EXPECT_NEAR(torus.log_z, exact.log_z, kExact);
      EXPECT_NEAR(torus.energy, exact.energy, kExact);
    }
  }
}

TEST(PottsTorus, ApproachesTheCriticalEnergyOfTheInfiniteLattice) {
  // q = 3 at beta_c = ln(1 + sqrt 3): the energy per site of the L x L torus tends to the
  // infinite lattice's u_c = -(1 + 1/sqrt 3) with a shift ~ L^{-(1 - alpha)/nu} = L^{-0.8}
  // (alpha = 1/3, nu = 5/6). Exact values: u(L) - u_c = -0.165, -0.133, -0.111 at L = 3, 4,
  // 5; the exponent between L = 4 and 5 is 0.78 (corrections to scaling shrink it below
  // 0.8 at these sizes). A wrong transfer matrix (a bond counted twice, or missed) moves
  // u by a sizeable fraction of a bond per site, out of (u_c - 0.2, u_c).
  const double beta_c = std::log(1.0 + std::sqrt(3.0));
  const double u_c = -(1.0 + 1.0 / std::sqrt(3.0));
  std::vector<double> shift;
  for (int l = 3; l <= 5; ++l) {
    shift.push_back(hamon::test::potts_torus_exact(l, l, 3, beta_c).energy / (l * l) - u_c);
  }
  for (std::size_t k = 0; k < shift.size(); ++k) {
    EXPECT_LT(shift[k], 0.0) << "L = " << k + 3;
    EXPECT_GT(shift[k], -0.2) << "L = " << k + 3;
    if (k > 0) {
      EXPECT_LT(shift[k - 1], shift[k]) << "L = " << k + 3;
    }
  }
  const double exponent = std::log(shift[1] / shift[2]) / std::log(5.0 / 4.0);
  EXPECT_NEAR(exponent, 0.8, 0.05);
}

TEST(PottsTorus, RefusesWhatItCannotHold) {
  EXPECT_THROW(hamon::test::potts_torus_exact(2, 4, 3, 1.0), std::invalid_argument);
  EXPECT_THROW(hamon::test::potts_torus_exact(4, 2, 3, 1.0), std::invalid_argument);
  EXPECT_THROW(hamon::test::potts_torus_exact(7, 4, 3, 1.0), std::invalid_argument);  // 3^7
}

}  // namespace
