// SPDX-License-Identifier: Apache-2.0
// Stepping stone on coarse ladders of a Gaussian model, against its closed-form log Z. On
// the annealing path the density stops normalising at beta* = beta_max / mu_max (mu the
// eigenvalues of D^-1/2 J D^-1/2); a pair whose forward weights need beta_i + 2 dbeta
// beyond it has weights of infinite variance, and batch means then report an error far
// too small now and then (heavy-tailed z-scores). The model says where beta* is, and those
// pairs are taken through a point between the chains from both sides.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "../support/continuous_oracles.hpp"
#include "../support/statistics_checks.hpp"
#include "hamon/core/analysis/log_partition.hpp"
#include "hamon/policies/dispatch.hpp"

namespace {

// A ring of 8 sites, d = 1, J = 0.37: mu = 2 J cos(2 pi k / 8) in [-0.74, 0.74], so the
// annealing path to beta_max = 1 normalises for |beta| < 1 / 0.74 = 1.3514.
constexpr int kSites = 8;
constexpr double kCoupling = 0.37;

hamon::SpinModel ring() {
  std::vector<hamon::Edge> edges;
  for (int i = 0; i < kSites; ++i) edges.push_back({i, (i + 1) % kSites, kCoupling});
  std::vector<double> fields(kSites);
  for (int i = 0; i < kSites; ++i) fields[static_cast<std::size_t>(i)] = 0.1 * (i % 3) - 0.1;
  return hamon::SpinModel::gaussian(kSites, edges, std::vector<double>(kSites, 1.0), fields);
}

hamon::NrptResult run(const hamon::SpinModel& model, const std::vector<double>& betas,
                      std::uint64_t seed) {
  hamon::NrptOptions o;
  o.betas = betas;
  o.n_rounds = 2000;
  o.burn_in = 100;
  o.seed = seed;
  o.observers.energies = true;
  return hamon::routed_nrpt(model, o, hamon::DeviceSpec::backend(hamon::Placement::serial)).result;
}

TEST(LogZCoarseGaussian, TheModelSaysWhereThePathStopsNormalising) {
  const auto model = ring();
  const auto r = run(model, {0.0, 0.5, 1.0}, 1);
  const auto z = hamon::log_partition(model, r);
  ASSERT_TRUE(z.has_value());
  // Lanczos on 8 nodes is exact: 1 / (2 J cos 0) to rounding.
  EXPECT_NEAR(z->beta_limit, 1.0 / (2.0 * kCoupling), 1e-9);
  // Both pairs reach beta* with 4 dbeta (0 + 2 = 2, 0.5 + 2 = 2.5; the second already with
  // 2 dbeta): both bridged, and the notes say why and through which beta.
  ASSERT_EQ(z->notes.size(), 2U) << ::testing::PrintToString(z->notes);
  EXPECT_NE(z->notes[1].find("no finite variance"), std::string::npos) << z->notes[1];
  EXPECT_NE(z->notes[1].find("stops normalising at beta 1.35"), std::string::npos);
  EXPECT_NE(z->notes[0].find("no finite fourth moment"), std::string::npos) << z->notes[0];
  // Without the reference (exp(-beta E), E positive definite) every beta > 0 normalises.
  const auto plain = hamon::normalising_range(model, false, 1.0);
  EXPECT_EQ(plain.lower, 0.0);
  EXPECT_TRUE(std::isinf(plain.upper));
}

TEST(LogZCoarseGaussian, SteppingStoneErrorsHoldOverSeedsOnCoarseLadders) {
  // 200 seeds on each of two coarse ladders (3 fixed chains, and 4 like a tuned one), 2000
  // rounds each. Tolerance: the sample variance of 200 unit-variance z has sd
  // sqrt(2 / 199) = 0.10, so var z within [0.75, 1.3] is 2.5-3 sd either side (a t with ~31
  // degrees of freedom from the batches reads 1.07); before the bridge the 3-chain ladder
  // read var z ~2 with |z| up to 7 (infinite-variance weights). And no |z| above 5.
  const auto model = ring();
  const double exact = hamon_test::gaussian_exact(model, 1.0).log_z;
  for (const std::vector<double>& betas :
       {std::vector<double>{0.0, 0.5, 1.0}, std::vector<double>{0.0, 0.35, 0.7, 1.0}}) {
    hamon_test::ZMoments zs;
    double largest = 0.0;
    int flagged = 0;
    for (std::uint64_t seed = 1; seed <= 200; ++seed) {
      const auto z = hamon::log_partition(model, run(model, betas, 5000 + seed));
      ASSERT_TRUE(z.has_value());
      const double score = (z->stepping_stone.value - exact) / z->stepping_stone.error();
      zs.add(score);
      largest = std::max(largest, std::abs(score));
      if (!z->stepping_stone.trusted) ++flagged;
    }
    std::printf(
        "  [%zu chains] stepping stone z over 200 seeds: mean %+.3f var %.3f max |z| %.2f, "
        "%d untrusted\n",
        betas.size(), zs.mean(), zs.variance(), largest, flagged);
    EXPECT_GE(zs.variance(), 0.75);
    EXPECT_LE(zs.variance(), 1.3);
    EXPECT_LE(std::abs(zs.mean()), 0.3);  // 3 sd of a mean of 200
    EXPECT_LT(largest, 5.0);
  }
}

}  // namespace
