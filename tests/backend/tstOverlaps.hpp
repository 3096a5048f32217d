// SPDX-License-Identifier: Apache-2.0
// Replica overlaps (sampler/detail/overlap_accumulator.hpp, overlap_statistics.hpp) against
// the exact two-replica distribution of small models (overlap_enumeration.hpp), at every
// temperature of the ladder, and bit for bit across spaces and through a checkpoint.
//
// Tolerance: each estimate within 5 of its batch-means standard errors of the exact value
// (and 0.05 absolute), as the cold-chain moment tests (tstExactEnumeration.hpp): 32..64
// batches of >= 600 rounds, far longer than these models' autocorrelation times, so the
// batch means are close to independent and the errors honest; 5 sigma keeps the false
// alarms below 1e-4 over the ~80 checks here. The pooled z-scores of a test must also look
// like standard normals, |mean| < 1 and variance < 4: the four or five z-scores of one
// temperature move together (q^2, q^4, |q| and q_l of the same rounds), so a test pools
// only about as many independent ones as it has chains, and its sample variance scatters
// widely about 1; error bars too small by 2 still fail it. The histogram: its total variation
// distance from the exact P(q) below 0.03 (the noise of ~10^4 effective samples over <= 17 bins is
// ~0.01).
#include <gtest/gtest.h>

#include <Kokkos_Core.hpp>
#include <cmath>
#include <cstdio>
#include <string>

#include "hamon/core/model/model_builders.hpp"
#include "hamon/core/sampler/nrpt.hpp"
#include "hamon/core/sampler/sampler.hpp"
#include "overlap_enumeration.hpp"
#include "resumed_run.hpp"
#include "same_results.hpp"
#include "statistics_checks.hpp"

namespace {

using hamon_test::expect_within_error;
using hamon_test::statistics_run;
using hamon_test::ZMoments;

hamon::NrptOptions overlap_run(double beta_max, std::int64_t rounds, std::uint64_t seed,
                               std::int32_t replicas) {
  hamon::NrptOptions o = statistics_run(beta_max, rounds, seed, 4);
  o.beta_min = 0.1;  // beta = 0 makes q^2 ~ 1/N: fine, but a colder start is a stronger test
  o.n_replicas = replicas;
  o.observers.moments = false;  // overlaps need no moments
  return o;
}

void add_z(ZMoments& z, double estimate, double error, double exact) {
  if (error > 0.0) z.add((estimate - exact) / error);
}

void check_overlaps(const hamon::SpinModel& model, const hamon::NrptOptions& o,
                    const std::vector<int>& lattice, const char* name) {
  const auto result = hamon::nrpt(TEST_EXECSPACE(), model, o);
  const hamon::OverlapStatistics& s = result.overlaps;
  ASSERT_EQ(s.q2.size(), static_cast<std::size_t>(o.n_chains));
  EXPECT_EQ(s.n_rounds, o.n_rounds);
  EXPECT_EQ(s.n_pairs, o.n_replicas * (o.n_replicas - 1) / 2);
  ASSERT_EQ(s.histogram_bins, model.n_free() + 1);
  ZMoments z;
  for (std::size_t c = 0; c < s.betas.size(); ++c) {
    const auto exact = hamon::test::exact_overlaps(model, s.betas[c], lattice);
    const std::string at = std::string(name) + " beta " + std::to_string(s.betas[c]);
    expect_within_error(s.q2[c], s.q2_stderr[c], exact.q2, at + " <q^2>");
    expect_within_error(s.q4[c], s.q4_stderr[c], exact.q4, at + " <q^4>");
    expect_within_error(s.abs_q[c], s.abs_q_stderr[c], exact.abs_q, at + " <|q|>");
    expect_within_error(s.link_overlap[c], s.link_overlap_stderr[c], exact.link, at + " q_l");
    add_z(z, s.q2[c], s.q2_stderr[c], exact.q2);
    add_z(z, s.q4[c], s.q4_stderr[c], exact.q4);
    add_z(z, s.abs_q[c], s.abs_q_stderr[c], exact.abs_q);
    add_z(z, s.link_overlap[c], s.link_overlap_stderr[c], exact.link);
    const double n_free = static_cast<double>(model.n_free());
    EXPECT_DOUBLE_EQ(s.chi_sg[c], n_free * s.q2[c]);
    EXPECT_NEAR(s.binder[c], 0.5 * (3.0 - s.q4[c] / (s.q2[c] * s.q2[c])), 1e-12);
    if (!lattice.empty()) {
      ASSERT_EQ(s.chi_k.size(), s.betas.size());
      expect_within_error(s.chi_k[c], s.chi_k_stderr[c], exact.chi_k, at + " chi(k_min)", 5.0,
                          0.1 * exact.chi_k + 0.05);
      add_z(z, s.chi_k[c], s.chi_k_stderr[c], exact.chi_k);
    }
    // The histogram counts the same samples as the sums: its moments are theirs, and its
    // shape is the exact P(q).
    const auto bins = static_cast<std::size_t>(s.histogram_bins);
    double total = 0.0, q2 = 0.0, tv = 0.0;
    for (std::size_t k = 0; k < bins; ++k) total += static_cast<double>(s.histograms[c * bins + k]);
    EXPECT_EQ(total, static_cast<double>(o.n_rounds * s.n_pairs)) << at;
    const double states = model.is_potts() ? model.n_states() : 2.0;
    for (std::size_t k = 0; k < bins; ++k) {
      const double p = static_cast<double>(s.histograms[c * bins + k]) / total;
      const double q = (states * static_cast<double>(k) - n_free) / (n_free * (states - 1.0));
      q2 += p * q * q;
      tv += 0.5 * std::abs(p - exact.agree_probability[k]);
    }
    EXPECT_NEAR(q2, s.q2[c], 1e-9) << at;
    EXPECT_LT(tv, 0.03) << at << ": P(q) total variation distance";
  }
  std::printf("%s: %lld z-scores, mean %.3f, variance %.3f\n", name, static_cast<long long>(z.n),
              z.mean(), z.variance());
  EXPECT_LT(std::abs(z.mean()), 1.0) << name;
  EXPECT_LT(z.variance(), 4.0) << name;
}

TEST(TEST_CATEGORY, overlaps_exact_edwards_anderson_4x4) {
  // The +-J glass on a periodic 4x4 lattice: 16 spins, the Fourier overlap at k_min too.
  const auto model = hamon::make_lattice({4, 4}, true, hamon::ValueDistribution::pm_one(7));
  check_overlaps(model, overlap_run(1.5, 40000, 31, 2), {4, 4}, "EA 4x4");
}

TEST(TEST_CATEGORY, overlaps_exact_gaussian_torus_has_its_fourier_overlap) {
  // Real couplings and fields: no lattice fast path, but a periodic lattice, so chi(k_min)
  // and xi_L are measured all the same.
  const auto model = hamon::make_lattice({4, 4}, true, hamon::ValueDistribution::gaussian(17),
                                         hamon::ValueDistribution::gaussian(18, 0.1));
  check_overlaps(model, overlap_run(1.2, 40000, 37, 2), {4, 4}, "Gaussian 4x4 torus");
}

TEST(TEST_CATEGORY, overlaps_exact_twenty_spins) {
  // 2^20 states: the two-replica distribution by the Walsh-Hadamard autocorrelation.
  const auto model = hamon::make_lattice({4, 5}, true, hamon::ValueDistribution::gaussian(12),
                                         hamon::ValueDistribution::gaussian(13, 0.1));
  ASSERT_EQ(model.n_free(), 20);
  check_overlaps(model, overlap_run(1.0, 40000, 35, 2), {}, "Gaussian 4x5");
}

TEST(TEST_CATEGORY, overlaps_exact_three_replicas_with_clamps_and_fields) {
  // Three replicas (three pairs per chain), two clamped nodes (q over the 8 free ones).
  std::vector<hamon::Edge> edges;
  for (int i = 0; i < 10; ++i) edges.push_back({i, (i + 1) % 10, 0.8 - 0.3 * (i % 3)});
  edges.push_back({2, 7, -0.6});
  edges.push_back({1, 4, 0.4});
  const auto model =
      hamon::SpinModel::from_edges(10, edges, std::vector<double>(10, 0.1), {{0, 1}, {5, -1}});
  ASSERT_EQ(model.n_free(), 8);
  check_overlaps(model, overlap_run(1.2, 30000, 32, 3), {}, "clamped ring");
}

TEST(TEST_CATEGORY, overlaps_exact_potts) {
  // The Potts overlap (q delta - 1) / (q - 1) of a 3-state glass on 6 nodes.
  const auto model =
      hamon::make_potts_lattice({2, 3}, false, 3, hamon::ValueDistribution::gaussian(41));
  check_overlaps(model, overlap_run(1.5, 30000, 33, 2), {}, "Potts q = 3");
}

hamon::NrptOptions short_overlap_run() {
  hamon::NrptOptions o = overlap_run(1.5, 700, 34, 3);
  o.burn_in = 30;
  o.observers.moment_batches = 4;  // batches merge several times
  return o;
}

TEST(TEST_CATEGORY, overlaps_same_bits_as_reference_space_and_through_a_checkpoint) {
  const auto model = hamon::make_lattice({6, 6}, true, hamon::ValueDistribution::pm_one(8));
  const auto o = short_overlap_run();
  const auto here = hamon::nrpt(TEST_EXECSPACE(), model, o);
  const auto reference = hamon::nrpt(hamon_test::ReferenceSpace(), model, o);
  ASSERT_FALSE(here.overlaps.empty());
  EXPECT_EQ(here.overlaps.xi.size(), 4u);
  hamon_test::expect_same_results(here, reference);
  const auto resumed =
      hamon_test::resumed_through_checkpoint<TEST_EXECSPACE, hamon_test::ReferenceSpace>(model, o,
                                                                                         401);
  hamon_test::expect_same_results(resumed, reference);
}

TEST(TEST_CATEGORY, overlaps_need_two_replicas_and_a_consistent_state) {
  const auto model = hamon::make_lattice({4, 4}, true, hamon::ValueDistribution::pm_one(9));
  hamon::NrptOptions o = short_overlap_run();
  o.n_replicas = 1;
  EXPECT_TRUE(hamon::nrpt(TEST_EXECSPACE(), model, o).overlaps.empty());
  hamon::Sampler<TEST_EXECSPACE> with(TEST_EXECSPACE(), model, short_overlap_run());
  with.run(50);
  hamon::SamplerState s = with.state();
  EXPECT_FALSE(s.overlaps.counts.empty());
  s.overlaps.n_batches = 99;
  EXPECT_THROW(hamon::Sampler<TEST_EXECSPACE>(TEST_EXECSPACE(), model, short_overlap_run(), s),
               std::invalid_argument);
  // A state without overlaps (saved over ranks) continues with overlaps from its round on.
  s.overlaps = hamon::OverlapBatchesState();
  hamon::Sampler<TEST_EXECSPACE> resumed(TEST_EXECSPACE(), model, short_overlap_run(), s);
  resumed.run(100);
  const auto r = resumed.result();
  EXPECT_EQ(r.overlaps.n_rounds, 100);
}

}  // namespace
