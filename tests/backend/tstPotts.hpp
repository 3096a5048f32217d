// SPDX-License-Identifier: Apache-2.0
// Potts (q-state) models through NRPT on every space, against the exact oracles of
// tests/support (enumeration, the transfer matrix on a 320-node strip, and the column
// transfer matrix of a 6 x 6 torus at the critical point), and bit-identity with Serial.
//
// Tolerances. Every estimate must lie within 5 of its batch-means standard errors of the
// exact value (32 to 64 batches of >= 600 rounds in the enumeration tests, much longer
// than these small models' autocorrelation times, so the batch means are close to
// independent and the error is honest; with ~31 degrees of freedom P(|t| > 5) is about
// 2e-5, so the ~150 checks of an enumeration test stay below a 1% family-wise false alarm,
// and the seeds are fixed) and within 0.05 absolute, as the Ising tests
// (tstExactEnumeration.hpp). The strip test has ~1000 marginals and uses 6 errors per
// marginal (P(|t_31| > 6) ~ 1e-6 each) plus pooled checks of z = (estimate - exact) /
// error over all of them, which also show that its shorter batches (~100-190 rounds)
// still give honest errors (see there).
#include <gtest/gtest.h>

#include <Kokkos_Core.hpp>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <string>
#include <type_traits>
#include <vector>

#include "exact_enumeration.hpp"
#include "hamon/core/analysis/log_partition.hpp"
#include "hamon/core/families/energy.hpp"
#include "hamon/core/families/gibbs_sweep.hpp"
#include "hamon/core/model/model_builders.hpp"
#include "hamon/core/sampler/make_chain_state.hpp"
#include "hamon/core/sampler/nrpt.hpp"
#include "potts_strip.hpp"
#include "potts_torus.hpp"
#include "same_results.hpp"
#include "statistics_checks.hpp"
#include "transfer_matrix.hpp"
#include "vector_targets.hpp"

namespace {

using hamon::SpinModel;
using hamon_test::expect_within_error;
using hamon_test::statistics_run;
using Space = TEST_EXECSPACE;

/// Marginals (all n q of them: clamped nodes exactly 1 at their state, error 0), their
/// sum per node, edge agreements, energy and order parameter against enumeration.
void check_against_enumeration(const SpinModel& model, double beta, std::int64_t rounds,
                               std::uint64_t seed) {
  const auto result = hamon::nrpt(Space(), model, statistics_run(beta, rounds, seed));
  const auto exact = hamon::test::potts_exact_moments(model, beta);
  const auto& m = result.moments;
  const auto q = static_cast<std::size_t>(model.n_states());
  const auto n = static_cast<std::size_t>(model.n_nodes());
  ASSERT_EQ(m.n_samples, rounds);
  ASSERT_EQ(m.node_means.size(), n * q);
  ASSERT_EQ(m.node_means_stderr.size(), n * q);
  for (std::size_t i = 0; i < n; ++i) {
    double sum = 0.0;
    for (std::size_t s = 0; s < q; ++s) {
      const std::size_t k = i * q + s;
      sum += m.node_means[k];
      expect_within_error(m.node_means[k], m.node_means_stderr[k], exact.marginals[k],
                          "P(x_" + std::to_string(i) + " = " + std::to_string(s) + ")");
    }
    EXPECT_NEAR(sum, 1.0, 1e-9) << "node " << i;
  }
  ASSERT_EQ(m.edge_means.size(), model.edges().size());
  for (std::size_t e = 0; e < model.edges().size(); ++e) {
    const auto& edge = model.edges()[e];
    expect_within_error(
        m.edge_means[e], m.edge_means_stderr[e], exact.edge_agreement[e],
        "<delta(x_" + std::to_string(edge.i) + ", x_" + std::to_string(edge.j) + ")>");
  }
  const double nn = static_cast<double>(n);
  expect_within_error(m.energy_per_node.mean, m.energy_per_node.standard_error, exact.energy / nn,
                      "energy per node");
  expect_within_error(m.abs_magnetization_per_node.mean,
                      m.abs_magnetization_per_node.standard_error, exact.order_parameter,
                      "Potts order parameter");
}

/// Ten nodes (a ring with chords), q = 3: per-state fields, two clamped nodes (8 free:
/// 6561 configurations), Potts-form bonds of both signs and general q x q matrices.
SpinModel mixed_graph() {
  std::vector<hamon::Edge> edges;
  std::vector<hamon::CouplingMatrix> matrices;
  for (int i = 0; i < 10; ++i) {
    if (i % 3 == 2) {
      std::vector<double> w(9);
      for (int k = 0; k < 9; ++k) w[static_cast<std::size_t>(k)] = 0.3 * ((k * 5 + i) % 7) - 0.8;
      matrices.push_back({i, (i + 1) % 10, w});
    } else {
      edges.push_back({i, (i + 1) % 10, i % 2 ? 1.1 : -0.6});
    }
  }
  edges.push_back({2, 7, 0.9});
  matrices.push_back({4, 1, {0.5, -0.5, 0.0, 1.0, 0.2, -0.3, 0.0, 0.7, -1.0}});
  std::vector<double> fields(30);
  for (std::size_t k = 0; k < fields.size(); ++k)
    fields[k] = 0.1 * static_cast<double>((k * 7) % 9) - 0.4;
  return SpinModel::potts(10, 3, edges, fields, {{0, 2}, {5, 0}}, matrices);
}

TEST(TEST_CATEGORY, potts_exact_fields_clamps_and_matrices) {
  const auto model = mixed_graph();
  ASSERT_EQ(model.n_free(), 8);
  check_against_enumeration(model, 1.0, 40000, 31);
}

TEST(TEST_CATEGORY, potts_exact_gaussian_glass) {
  // 3 x 3 torus, Gaussian Potts J and drawn fields (real couplings: the exp path).
  hamon::PottsFields fields;
  fields.drawn = hamon::ValueDistribution::gaussian(42, 0.4);
  const auto model =
      hamon::make_potts_lattice({3, 3}, true, 3, hamon::ValueDistribution::gaussian(41), fields);
  check_against_enumeration(model, 1.2, 40000, 32);
}

TEST(TEST_CATEGORY, potts_exact_integer_ferromagnet) {
  // 3 x 4 torus, J = 1 and the integer field h = (1, 0, 0): integer local fields (the
  // threshold path). 12 free nodes.
  hamon::PottsFields fields;
  fields.uniform = {1.0, 0.0, 0.0};
  const auto model =
      hamon::make_potts_lattice({3, 4}, true, 3, hamon::ValueDistribution::constant(1.0), fields);
  check_against_enumeration(model, 0.9, 40000, 33);
}

TEST(TEST_CATEGORY, potts_exact_five_states_pm_j) {
  // q = 5, +-J on a 2 x 4 open lattice with one clamp (7 free nodes: 78125 configurations).
  const auto base =
      hamon::make_potts_lattice({2, 4}, false, 5, hamon::ValueDistribution::pm_one(43));
  const auto model = SpinModel::potts(8, 5, base.edges(), {}, {{6, 4}});
  check_against_enumeration(model, 1.0, 40000, 34);
}

TEST(TEST_CATEGORY, potts_exact_distribution_total_variation) {
  // The full distribution of 5 free q = 3 nodes (243 states) from 100000 cold-chain
  // samples. For independent samples the expected total-variation distance is
  // sum_k sqrt(p_k (1 - p_k) / (2 pi N)) <= 0.5 sqrt(2 / pi) sqrt(243 / N) = 0.020; short
  // autocorrelation inflates it by sqrt(2 tau), so 0.04 leaves room for tau ~ 2 while a
  // wrong conditional (e.g. a state off by one) moves probabilities by far more.
  std::vector<hamon::Edge> edges = {{0, 1, 0.9}, {1, 2, -0.7}, {2, 3, 1.2},
                                    {3, 4, 0.4}, {4, 0, -0.5}, {0, 2, 0.6}};
  std::vector<double> fields = {0.3, 0, -0.2, 0, 0.5, 0.1, -0.4, 0, 0, 0.2, 0.2, -0.3, 0, 0, 0.6};
  const auto model = SpinModel::potts(5, 3, edges, fields, {},
                                      {{1, 3, {0.4, 0.0, -0.6, 0.0, 0.8, 0.0, -0.2, 0.0, 0.3}}});
  auto options = statistics_run(1.0, 100000, 35, 4);
  options.observers.moments = false;
  options.observers.samples_every = 1;
  const auto result = hamon::nrpt(Space(), model, options);
  ASSERT_EQ(result.n_samples, 100000);
  ASSERT_EQ(result.samples.size(), 500000u);
  std::vector<double> histogram(243, 0.0);
  for (std::int64_t s = 0; s < result.n_samples; ++s) {
    std::size_t index = 0;
    for (std::size_t k = 5; k-- > 0;) {
      const auto state =
          static_cast<std::uint8_t>(result.samples[static_cast<std::size_t>(s) * 5 + k]);
      ASSERT_LT(state, 3) << "sample " << s << " node " << k;
      index = index * 3 + state;
    }
    histogram[index] += 1.0 / static_cast<double>(result.n_samples);
  }
  const auto exact = hamon::test::potts_exact_moments(model, 1.0);
  double tv = 0.0;
  for (std::size_t k = 0; k < 243; ++k) tv += 0.5 * std::abs(histogram[k] - exact.probabilities[k]);
  EXPECT_LT(tv, 0.04) << "total variation " << tv;
}

TEST(TEST_CATEGORY, potts_transfer_matrix_strip) {
  // The long statistical runs go on the reference space only: every other space gives its
  // bits (potts_determinism_matches_serial), so they would repeat the same numbers.
  if (!std::is_same_v<Space, hamon_test::ReferenceSpace>) {
    GTEST_SKIP() << "same bits as the reference space (potts_determinism_matches_serial)";
  }
  // A 4 x 80 Potts glass strip, q = 3, periodic across 4: J uniform in [-1.5, 1.5], every
  // fifth bond a general matrix, fields in [-0.5, 0.5], two clamped nodes; beta = 1.
  // Exact values from the transfer matrix (81 front states).
  const auto model =
      hamon::test::potts_strip({4, 80, 3, true, 1.5, 0.5, 5, {{0, 1}, {161, 2}}, 2026});
  const double beta = 1.0;
  const auto exact = hamon::test::potts_strip_moments(model, 4, beta);
  auto options = statistics_run(beta, 6000, 36, 8);
  options.n_expl = 2;
  options.observers.energies = true;
  const auto r = hamon::nrpt(Space(), model, options);
  const auto& m = r.moments;
  const auto n = static_cast<std::size_t>(model.n_nodes());
  ASSERT_EQ(m.node_means.size(), 3 * n);
  // Per marginal: 6 errors (see the top). Pooled over the 954 free marginals (correlated:
  // three per node sum to 1): mean z within 0.25 and variance in [0.6, 1.6] — an error
  // bar off by a factor 1.4 either way, or a bias of a quarter error everywhere, fails.
  hamon_test::ZMoments z;
  for (std::size_t i = 0; i < n; ++i) {
    for (std::size_t s = 0; s < 3; ++s) {
      const std::size_t k = 3 * i + s;
      expect_within_error(m.node_means[k], m.node_means_stderr[k], exact.marginals[k],
                          "P(x_" + std::to_string(i) + " = " + std::to_string(s) + ")", 6.0);
      if (model.clamped()[i] == 0)
        z.add((m.node_means[k] - exact.marginals[k]) / m.node_means_stderr[k]);
    }
  }
  std::printf("strip: pooled z of %lld marginals: mean %+.3f, variance %.3f\n",
              static_cast<long long>(z.n), z.mean(), z.variance());
  EXPECT_EQ(z.n, 954);
  EXPECT_LE(std::abs(z.mean()), 0.25);
  EXPECT_GE(z.variance(), 0.6);
  EXPECT_LE(z.variance(), 1.6);
  const double nn = static_cast<double>(n);
  expect_within_error(m.energy_per_node.mean, m.energy_per_node.standard_error, exact.energy / nn,
                      "energy per node");
  // Edge agreements: 6 errors, as the marginals.
  for (std::size_t e = 0; e < model.edges().size(); ++e) {
    expect_within_error(m.edge_means[e], m.edge_means_stderr[e], exact.edge_agreement[e],
                        "edge " + std::to_string(e), 6.0);
  }
  // log Z from the ladder's energies, from log Z(0) = n_free log q.
  const auto z_estimate = hamon::log_partition(model, r);
  ASSERT_TRUE(z_estimate.has_value());
  EXPECT_TRUE(z_estimate->log_z0_exact);
  EXPECT_NEAR(z_estimate->log_z0, 318.0 * std::log(3.0), 1e-9);
  for (const auto* estimate :
       {&z_estimate->stepping_stone, &z_estimate->thermodynamic_integration}) {
    EXPECT_LE(std::abs(estimate->value - exact.log_z), 5.0 * estimate->error())
        << "log Z " << estimate->value << " +- " << estimate->error() << ", exact " << exact.log_z;
    std::printf("strip: log Z %.4f +- %.4f, exact %.4f\n", estimate->value, estimate->error(),
                exact.log_z);
    EXPECT_LT(estimate->error(), 1.0);
  }
}

TEST(TEST_CATEGORY, potts_critical_energy_torus_l6) {
  // The long statistical runs go on the reference space only: every other space gives its
  // bits (potts_determinism_matches_serial), so they would repeat the same numbers.
  if (!std::is_same_v<Space, hamon_test::ReferenceSpace>) {
    GTEST_SKIP() << "same bits as the reference space (potts_determinism_matches_serial)";
  }
  // The 2D q = 3 Potts ferromagnet (E = -sum delta) on the periodic 6 x 6 torus at the
  // infinite lattice's critical point beta_c = ln(1 + sqrt 3), against its exact energy per
  // site from a column transfer matrix (potts_torus.hpp: 729 column states; it shares no
  // code with the library, the lattice builder included). Exact: u(6) = -1.67374, and
  // u(6) at 1.02 beta_c is lower by 0.039 (near criticality the energy moves fast with beta).
  // The sampled mean must lie within 4 of its batch-means errors (32 to 64 batches of
  // >= 312 rounds, far longer than a 36-site system's autocorrelation at 4 chains; with >= 31
  // degrees of freedom |t| > 4 has probability <= 4e-4, and the seed is fixed), and that
  // error must be below an eighth of the 2 % shift in beta, so a sampler off by 2 % in beta
  // (or a lattice with a bond missing: ~1/72 of the energy) fails by many errors.
  const int l = 6;
  const double beta_c = std::log(1.0 + std::sqrt(3.0));
  const double sites = l * l;
  const double exact = hamon::test::potts_torus_exact(l, l, 3, beta_c).energy / sites;
  const double shifted = hamon::test::potts_torus_exact(l, l, 3, 1.02 * beta_c).energy / sites;
  const auto model = hamon::make_potts_lattice({l, l}, true, 3);
  auto o = statistics_run(beta_c, 20000, 37);
  o.burn_in = 1000;
  o.observers.edge_moments = false;
  const auto r = hamon::nrpt(Space(), model, o);
  const auto& u = r.moments.energy_per_node;
  const double z = (u.mean - exact) / u.standard_error;
  std::printf(
      "torus 6 x 6 at beta_c: u = %.5f +- %.5f, exact %.5f (z = %+.2f; 1.02 beta_c: %.5f)\n",
      u.mean, u.standard_error, exact, z, shifted);
  EXPECT_LT(std::abs(z), 4.0) << "u = " << u.mean << " +- " << u.standard_error << ", exact "
                              << exact;
  EXPECT_LT(u.standard_error, std::abs(shifted - exact) / 8.0);
}

// Bit-identity with the Serial reference (CTest runs OpenMP with 1 and 2 threads too), and
// states within [0, q), clamped nodes at their state, in the samples.
void expect_same_as_serial(const SpinModel& model, std::int32_t chains, std::int64_t rounds) {
  hamon::NrptOptions o;
  o.n_chains = chains;
  o.beta_max = 1.3;
  o.n_rounds = rounds;
  o.burn_in = 40;
  o.n_expl = 2;
  o.seed = 20261201;
  o.adapt_schedule = true;
  o.adapt_phases = 2;
  o.observers.samples_every = 3;
  o.observers.energies = true;
  o.observers.index_process = true;
  o.observers.moments = true;
  o.observers.moment_batches = 4;
  const auto here = hamon::nrpt(Space(), model, o);
  const auto reference = hamon::nrpt(hamon_test::ReferenceSpace(), model, o);
  hamon_test::expect_same_results(here, reference);
  const auto n = static_cast<std::size_t>(model.n_nodes());
  ASSERT_EQ(here.samples.size(), static_cast<std::size_t>(here.n_samples) * n);
  for (std::size_t k = 0; k < here.samples.size(); ++k) {
    const auto state = static_cast<std::uint8_t>(here.samples[k]);
    ASSERT_LT(state, model.n_states()) << "sample entry " << k;
    const int clamp = model.clamped_states()[k % n];
    if (clamp >= 0) {
      ASSERT_EQ(state, clamp) << "clamped node " << k % n;
    }
  }
}

TEST(TEST_CATEGORY, potts_determinism_matches_serial) {
  expect_same_as_serial(mixed_graph(), 7, 120);  // matrices, clamps, real fields
  hamon::PottsFields integer_fields;
  integer_fields.uniform = {1.0, 0.0, -1.0, 0.0};
  expect_same_as_serial(hamon::make_potts_lattice(
                            {6, 8}, true, 4, hamon::ValueDistribution::pm_one(7), integer_fields),
                        5, 120);  // integer local fields
  expect_same_as_serial(hamon::make_potts_lattice({8, 8}, true, 3), 9, 120);  // ferromagnet
  hamon::PottsFields drawn;
  drawn.drawn = hamon::ValueDistribution::gaussian(9, 0.3);
  // Big enough that host kernels run in parallel; q = 7, Gaussian glass.
  expect_same_as_serial(
      hamon::make_potts_lattice({48, 40}, true, 7, hamon::ValueDistribution::gaussian(8), drawn),
      20, 20);
}

/// Sweeps and energies of the three host kernels (the vector path where it is built, the
/// portable loops, the device style) bit for bit.
void expect_potts_kernels_agree_here(const hamon::DeviceModel<Space::memory_space>& dm,
                                     std::int32_t chains, bool table) {
  Space space;
  std::vector<double> betas(static_cast<std::size_t>(chains));
  for (std::int32_t k = 0; k < chains; ++k) betas[static_cast<std::size_t>(k)] = 2.5 * k / chains;
  auto best = hamon::make_chain_state(space, dm, betas, 3);
  auto portable = hamon::make_chain_state(space, dm, betas, 3);
  auto device = hamon::make_chain_state(space, dm, betas, 3);
  ASSERT_EQ(best.tables.potts_weight.extent(0) > 0, table);
  const auto label = std::to_string(dm.n_states) + " states, " + std::to_string(chains) +
                     " chains, lattice " + std::to_string(dm.lattice.enabled);
  for (std::uint32_t sweep = 0; sweep < 4; ++sweep) {
    hamon::gibbs_sweep(space, dm, best, 5, 2, sweep, hamon::HostKernel::best);
    hamon::gibbs_sweep(space, dm, portable, 5, 2, sweep, hamon::HostKernel::portable);
    hamon::gibbs_sweep(space, dm, device, 5, 2, sweep, hamon::HostKernel::device);
  }
  const auto a = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), best.spins);
  const auto b = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), portable.spins);
  const auto d = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), device.spins);
  EXPECT_EQ(0, std::memcmp(a.data(), b.data(), a.size())) << label;
  EXPECT_EQ(0, std::memcmp(d.data(), b.data(), d.size())) << label << ", device style";
  hamon::compute_energies(space, dm, best, hamon::HostKernel::best);
  hamon::compute_energies(space, dm, portable, hamon::HostKernel::portable);
  hamon::compute_energies(space, dm, device, hamon::HostKernel::device);
  const auto ea = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), best.energy_fixed);
  const auto eb = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), portable.energy_fixed);
  const auto ed = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), device.energy_fixed);
  for (std::int32_t m = 0; m < chains; ++m) {
    EXPECT_EQ(ea(m), eb(m)) << label << ", machine " << m;
    EXPECT_EQ(ed(m), eb(m)) << label << ", machine " << m << ", device style";
  }
}

/// expect_potts_kernels_agree_here on every instruction set the vector path dispatches to
/// here.
void expect_potts_kernels_agree(const hamon::DeviceModel<Space::memory_space>& dm,
                                std::int32_t chains, bool table) {
  hamon_test::on_every_vector_target([&] { expect_potts_kernels_agree_here(dm, chains, table); });
}

TEST(TEST_CATEGORY, potts_register_path_matches_portable) {
  // Lattice and CSR (the same models with the fast path off), q = 3 (its own compiled
  // loops), 8 and 16 (the most the vector path holds), 8 and 32 chains: the ferromagnet, a
  // +-J glass with integer fields (weight tables, gaps up to 6) and a Gaussian glass (exp
  // per state; the energy pass on the vector path).
  Space space;
  for (const int q : {3, 8, 16}) {
    hamon::PottsFields integer_fields;
    for (int s = 0; s < q; ++s) integer_fields.uniform.push_back(static_cast<double>(s % 3) - 1.0);
    const hamon::SpinModel models[] = {
        hamon::make_potts_lattice({10, 8}, true, q),
        hamon::make_potts_lattice({6, 8}, true, q, hamon::ValueDistribution::pm_one(7),
                                  integer_fields),
        hamon::make_potts_lattice({6, 8}, true, q, hamon::ValueDistribution::gaussian(3))};
    for (std::size_t k = 0; k < 3; ++k) {
      auto dm = hamon::make_device_model(space, models[k]);
      if (k == 0) {
        ASSERT_TRUE(dm.lattice.enabled);
      }
      for (const bool lattice : {true, false}) {
        if (lattice && !dm.lattice.enabled) continue;
        dm.lattice.enabled = lattice;
        for (const std::int32_t chains : {8, 32}) expect_potts_kernels_agree(dm, chains, k < 2);
      }
    }
  }
}

}  // namespace
