// SPDX-License-Identifier: Apache-2.0
// Ising models on the annealing path (NrptOptions::reference independent): the machine at
// beta samples exp(-beta_max E_ref - beta (E - E_ref)), E_ref = -sum_i h_i s_i. Against
// exact enumeration (marginals, bond products, energy, log Z from the reference's exact
// log Z, with a smaller error than the same ladder's from uniform spins); on a model without
// fields, the default run's bits (the reference is uniform and the update's test is the same
// floating-point expression); the Serial bits on every space and thread count, and across a stop
// and resume.
//
// Tolerances: each estimate's error is its batch-means standard error (32..64 batches of
// at least 300 rounds, far longer than these small models' autocorrelation times), and a
// test asks each of its ~45 estimates within 5 errors (a t distribution with 31 degrees of
// freedom exceeds 5 with probability about 2e-5: below 1e-3 for the whole test) and within
// 0.05 absolute for the means. The seeds are fixed and the bits the same on every space,
// so the outcome is too.
#include <gtest/gtest.h>

#include <Kokkos_Core.hpp>
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "exact_enumeration.hpp"
#include "hamon/core/analysis/log_partition.hpp"
#include "hamon/core/model/model_builders.hpp"
#include "hamon/core/sampler/nrpt.hpp"
#include "hamon/core/sampler/sampler.hpp"
#include "same_bits.hpp"
#include "state_fields.hpp"
#include "statistics_checks.hpp"

namespace {

using Space = TEST_EXECSPACE;
using hamon_test::expect_within_error;

/// 13 nodes: 12 free spins on a random sparse graph (each joined to 3 later nodes on
/// average), couplings uniform in +-1, strong fields uniform in +-2, and node 12 clamped
/// to -1 with field 1.5, joined to nodes 0 and 5.
hamon::SpinModel strong_field_model() {
  std::mt19937_64 rng(2026);
  std::uniform_real_distribution<double> unit(-1.0, 1.0);
  std::vector<hamon::Edge> edges;
  std::vector<double> fields;
  for (int i = 0; i < 12; ++i) {
    fields.push_back(2.0 * unit(rng));
    for (int j = i + 1; j < 12; ++j) {
      if (std::uniform_int_distribution<int>(0, 11)(rng) < 3) edges.push_back({i, j, unit(rng)});
    }
  }
  fields.push_back(1.5);
  edges.push_back({0, 12, 0.7});
  edges.push_back({5, 12, -0.4});
  return hamon::SpinModel::from_edges(13, edges, fields, {{12, -1}});
}

hamon::NrptOptions annealed(std::int64_t rounds, std::uint64_t seed) {
  hamon::NrptOptions o = hamon_test::statistics_run(1.0, rounds, seed, 5);
  o.observers.energies = true;
  o.reference = hamon::AnnealingReference::independent;
  return o;
}

TEST(TEST_CATEGORY, annealed_ising_matches_enumeration) {
  const auto model = strong_field_model();
  const auto r = hamon::nrpt(Space(), model, annealed(20000, 31));
  ASSERT_TRUE(r.annealed);
  const auto exact = hamon::test::exact_moments(model, 1.0);
  const hamon::Moments& m = r.moments;
  for (std::int64_t i = 0; i < model.n_nodes(); ++i) {
    expect_within_error(m.node_means[i], m.node_means_stderr[i], exact.node_means[i],
                        "<s_" + std::to_string(i) + ">");
  }
  for (std::size_t e = 0; e < model.edges().size(); ++e) {
    expect_within_error(m.edge_means[e], m.edge_means_stderr[e], exact.edge_means[e],
                        "edge " + std::to_string(e));
  }
  // The energy is E, the swap energy plus E_ref from the spins' sums.
  const double n = static_cast<double>(model.n_nodes());
  expect_within_error(m.energy_per_node.mean, m.energy_per_node.standard_error, exact.energy / n,
                      "energy per node");
  // log Z(0) is the reference's at beta_max = 1, computed here on its own: log 2 cosh h_i
  // per free node, h c for the clamped one.
  double log_z0 = -1.5;
  for (int i = 0; i < 12; ++i) log_z0 += std::log(2.0 * std::cosh(model.fields()[i]));
  const auto log_z = hamon::log_partition(model, r);
  ASSERT_TRUE(log_z.has_value());
  EXPECT_TRUE(log_z->log_z0_exact);
  EXPECT_NEAR(log_z->log_z0, log_z0, 1e-12);
  for (const auto* estimate : {&log_z->stepping_stone, &log_z->thermodynamic_integration}) {
    EXPECT_LE(std::abs(estimate->value - exact.log_z), 5.0 * estimate->error())
        << "log Z " << estimate->value << " +- " << estimate->error() << ", exact " << exact.log_z;
    std::printf("  [annealed ising] log Z %.4f +- %.4f, exact %.4f (log Z0 %.4f)\n",
                estimate->value, estimate->error(), exact.log_z, log_z0);
  }
  // The same ladder from uniform spins: its log Z has the whole of log Z - n_free log 2 to
  // estimate, where the reference's exact log Z covers most of log Z here.
  auto uniform = annealed(20000, 31);
  uniform.reference = hamon::AnnealingReference::automatic;
  const auto from_uniform = hamon::log_partition(model, hamon::nrpt(Space(), model, uniform));
  ASSERT_TRUE(from_uniform.has_value());
  std::printf("  [annealed ising] stepping stone error %.4f, from uniform spins %.4f\n",
              log_z->stepping_stone.error(), from_uniform->stepping_stone.error());
  // Measured: 0.43 times the error (a fifth of the variance). Each batch-means error is
  // uncertain by ~13%, so 0.7 leaves the ratio room of more than 2.5 of its own errors.
  EXPECT_LT(log_z->stepping_stone.error(), 0.7 * from_uniform->stepping_stone.error());
  // The best energy is the model's E, fields and clamped node included (not the swap
  // energy E - E_ref), and with 20000 rounds of 5 chains on 2^12 states it is the ground
  // state's, enumerated here.
  ASSERT_EQ(r.best_state.size(), static_cast<std::size_t>(model.n_nodes()));
  EXPECT_EQ(r.best_state[12], -1);
  EXPECT_NEAR(r.best_energy, model.energy(r.best_state), 1e-6);
  double ground = std::numeric_limits<double>::infinity();
  std::vector<std::int8_t> s(13, -1);
  for (std::uint32_t bits = 0; bits < (1u << 12); ++bits) {
    for (int i = 0; i < 12; ++i) s[static_cast<std::size_t>(i)] = (bits >> i) & 1u ? 1 : -1;
    ground = std::min(ground, model.energy(s));
  }
  EXPECT_NEAR(r.best_energy, ground, 1e-6);
}

/// A model without fields: its reference is uniform, so the annealing path is the default
/// run's ladder, and the annealed update's test, 1 + exp(-2 (beta_max 0 + beta phi)), is
/// the default's 1 + exp(-2 beta phi) bit for bit (a product by 2 is exact), which the
/// threshold and boundary tables reproduce. So every state, swap and energy is the same,
/// and log Z agrees to rounding (log Z(0) summed node by node instead of n log 2).
void expect_default_bits(const hamon::SpinModel& model, const char* what) {
  auto o = hamon_test::statistics_run(1.0, 400, 17, 6);
  o.observers.energies = true;
  o.observers.samples_every = 1;
  const auto plain = hamon::nrpt(Space(), model, o);
  o.reference = hamon::AnnealingReference::independent;
  const auto annealed_run = hamon::nrpt(Space(), model, o);
  SCOPED_TRACE(what);
  EXPECT_TRUE(annealed_run.annealed);
  EXPECT_FALSE(plain.annealed);
  hamon_test::expect_same_bits(annealed_run.samples, plain.samples, "samples");
  hamon_test::expect_same_bits(annealed_run.energies, plain.energies, "energies");
  hamon_test::expect_same_bits(annealed_run.swaps.accepted, plain.swaps.accepted, "swaps");
  hamon_test::expect_same_bits(annealed_run.moments.node_means, plain.moments.node_means, "means");
  EXPECT_EQ(annealed_run.moments.energy_per_node.mean, plain.moments.energy_per_node.mean);
  const auto a = hamon::log_partition(model, annealed_run);
  const auto b = hamon::log_partition(model, plain);
  ASSERT_TRUE(a.has_value() && b.has_value());
  EXPECT_NEAR(a->log_z0, b->log_z0, 1e-12 * b->log_z0);
  EXPECT_NEAR(a->stepping_stone.value, b->stepping_stone.value, 1e-12 * b->log_z0);
}

TEST(TEST_CATEGORY, annealed_ising_without_fields_is_the_default_run) {
  // Integer couplings on a periodic lattice (the default takes the lattice fast path with
  // integer thresholds) and real couplings on a graph (field boundaries).
  expect_default_bits(hamon::make_lattice({6, 6}, true, hamon::ValueDistribution::pm_one(3)),
                      "lattice, +-J");
  std::vector<hamon::Edge> edges;
  for (int i = 0; i < 20; ++i) edges.push_back({i, (i + 1) % 20, 0.3 + 0.05 * (i % 7)});
  for (int i = 0; i < 20; i += 3) edges.push_back({i, (i + 7) % 20, -0.45});
  expect_default_bits(hamon::SpinModel::from_edges(20, edges), "graph, real couplings");
}

hamon::NrptOptions bits_options() {
  hamon::NrptOptions o;
  o.n_chains = 20;  // 20 machines (32 lanes) x 288 nodes a block: host kernels run in parallel
  o.n_rounds = 120;
  o.burn_in = 60;
  o.n_expl = 2;
  o.seed = 20261203;
  o.adapt_schedule = true;
  o.reference = hamon::AnnealingReference::independent;
  o.observers.samples_every = 3;
  o.observers.energies = true;
  o.observers.moments = true;
  return o;
}

hamon::SpinModel bits_model() {
  return hamon::make_lattice({24, 24}, true, hamon::ValueDistribution::gaussian(4, 0.6),
                             hamon::ValueDistribution::gaussian(5, 0.8));
}

TEST(TEST_CATEGORY, annealed_ising_matches_serial_bit_for_bit) {
  const auto model = bits_model();
  const auto o = bits_options();
  const auto here = hamon::nrpt(Space(), model, o);
  const auto reference = hamon::nrpt(hamon_test::ReferenceSpace(), model, o);
  EXPECT_TRUE(here.annealed);
  hamon_test::expect_same_bits(here.betas, reference.betas, "betas");
  hamon_test::expect_same_bits(here.swaps.accepted, reference.swaps.accepted, "swaps");
  hamon_test::expect_same_bits(here.samples, reference.samples, "samples");
  hamon_test::expect_same_bits(here.energies, reference.energies, "energies");
  hamon_test::expect_same_bits(here.best_state, reference.best_state, "best state");
  hamon_test::expect_same_bits(here.moments.node_means, reference.moments.node_means, "means");
  hamon_test::expect_same_bits(here.moments.edge_means, reference.moments.edge_means, "edges");
  EXPECT_EQ(here.moments.energy_per_node.mean, reference.moments.energy_per_node.mean);
  EXPECT_GT(here.swaps.accepted[0], 0);
}

TEST(TEST_CATEGORY, annealed_ising_resumes_with_the_same_bits) {
  const auto model = bits_model();
  const auto o = bits_options();
  hamon::Sampler<Space> straight(Space(), model, o);
  straight.run(180);
  hamon::Sampler<Space> first(Space(), model, o);
  first.run(100);
  const hamon::SamplerState saved = first.state();
  // Resumed on the Serial reference: the state is portable.
  hamon::Sampler<hamon_test::ReferenceSpace> resumed(hamon_test::ReferenceSpace(), model, o, saved);
  resumed.run(80);
  EXPECT_EQ(hamon_test::first_difference(straight.state(), resumed.state()), "");
  const auto a = straight.result();
  const auto b = resumed.result();
  hamon_test::expect_same_bits(a.samples, b.samples, "samples");
  hamon_test::expect_same_bits(a.moments.node_means, b.moments.node_means, "means");
  EXPECT_EQ(a.moments.energy_per_node.mean, b.moments.energy_per_node.mean);
}

TEST(TEST_CATEGORY, annealing_refuses_potts_models) {
  const auto potts = hamon::make_potts_lattice({4, 4}, true, 3);
  auto o = annealed(10, 1);
  try {
    hamon::nrpt(Space(), potts, o);
    ADD_FAILURE() << "a Potts model was annealed";
  } catch (const std::invalid_argument& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("reference independent"), std::string::npos) << what;
    EXPECT_NE(what.find("Potts"), std::string::npos) << what;
  }
  o.reference = hamon::AnnealingReference::none;
  EXPECT_NO_THROW(hamon::nrpt(Space(), potts, o));
}

}  // namespace
