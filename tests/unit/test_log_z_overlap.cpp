// SPDX-License-Identifier: Apache-2.0
// The stepping-stone overlap checks against a closed form: a density of states that makes
// the energy Gaussian at every beta, N(mu_0 - beta s^2, s^2), so that
// log Z(beta) - log Z(0) = -beta mu_0 + beta^2 s^2 / 2 exactly. Independent draws per
// chain (no autocorrelation); the weights exp(-h E) are then log-normal with log-variance
// h^2 s^2, and the log-mean-exp needs n >> exp(h^2 s^2) draws.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "hamon/core/analysis/log_partition.hpp"

namespace {

constexpr double kMu0 = 0.0;
constexpr double kPi = 3.14159265358979323846;

double exact_log_ratio(double beta, double s) {
  return -beta * kMu0 + 0.5 * beta * beta * s * s;
}

// n_rounds x betas.size() independent Gaussian energies (Box-Muller on mt19937_64's raw
// output, which the standard fixes).
std::vector<double> gaussian_energies(const std::vector<double>& betas, double s, int rounds,
                                      std::uint64_t seed) {
  std::mt19937_64 engine(seed);
  auto uniform = [&] { return (static_cast<double>(engine() >> 11) + 0.5) * 0x1.0p-53; };
  std::vector<double> energies;
  for (int r = 0; r < rounds; ++r) {
    for (double beta : betas) {
      const double normal = std::sqrt(-2.0 * std::log(uniform())) * std::cos(2.0 * kPi * uniform());
      energies.push_back(kMu0 - beta * s * s + s * normal);
    }
  }
  return energies;
}

bool warned(const hamon::LogPartition& z, const std::string& what) {
  for (const auto& w : z.warnings) {
    if (w.find(what) != std::string::npos) return true;
  }
  return false;
}

TEST(LogZOverlap, HeavyTailedWeightsAreFlaggedNotTrusted) {
  // Two chains 0 and 0.5 with s = 8: h s = 4, the weights' log-variance 16, so 4000 draws
  // see none of the tail that carries the mean: stepping stone is far below the exact
  // value, by many of its batch-means errors, and must be flagged, naming the pair.
  const std::vector<double> betas = {0.0, 0.5};
  const double s = 8.0;
  const auto z = hamon::log_partition(betas, gaussian_energies(betas, s, 4000, 3), 0.0);
  const double exact = exact_log_ratio(0.5, s);
  const auto& ss = z.stepping_stone;
  std::printf("h s = 4: SS %.3f +- %.3f, exact %.3f\n", ss.value, ss.error(), exact);
  EXPECT_GT(exact - ss.value, 3.0 * ss.error());  // the error does not hold ...
  EXPECT_FALSE(ss.trusted);                       // ... and the estimate says so
  EXPECT_TRUE(warned(z, "pair beta 0 -> 0.5")) << ::testing::PrintToString(z.warnings);
  EXPECT_TRUE(warned(z, "heavy-tailed"));
  EXPECT_EQ(z.preferred, hamon::LogZMethod::thermodynamic_integration);
  EXPECT_NE(z.preferred_reason.find("stepping stone cannot be trusted"), std::string::npos);
  // Thermodynamic integration needs no overlap: <E> is linear in beta and Var(E)
  // constant, so the Hermite rule is exact and its error covers the value.
  const auto& ti = z.thermodynamic_integration;
  EXPECT_TRUE(ti.trusted);
  EXPECT_LE(std::abs(ti.value - exact), 3.0 * ti.error());
}

TEST(LogZOverlap, OverlappingNeighboursPassEveryCheck) {
  // Ten chains over [0, 0.45] with s = 8: h s = 0.4 per pair. Nothing to flag, and the
  // stepping stone within three of its errors.
  std::vector<double> betas;
  for (int k = 0; k < 10; ++k) betas.push_back(0.05 * k);
  const double s = 8.0;
  const auto z = hamon::log_partition(betas, gaussian_energies(betas, s, 4000, 5), 0.0,
                                      hamon::LogZErrorOptions{}, std::vector<double>(9, 0.8));
  EXPECT_TRUE(z.warnings.empty()) << ::testing::PrintToString(z.warnings);
  EXPECT_TRUE(z.stepping_stone.trusted);
  EXPECT_LE(std::abs(z.stepping_stone.value - exact_log_ratio(0.45, s)),
            3.0 * z.stepping_stone.error());
}

TEST(LogZOverlap, ALowSwapAcceptanceFlagsThePair) {
  // The same well-overlapping draws, but the run says pair 4 -> 5 accepted 0.5 % of its
  // swaps: the estimate is flagged on that pair alone.
  std::vector<double> betas;
  for (int k = 0; k < 10; ++k) betas.push_back(0.05 * k);
  std::vector<double> acceptance(9, 0.8);
  acceptance[4] = 0.005;
  const auto z = hamon::log_partition(betas, gaussian_energies(betas, 8.0, 4000, 5), 0.0,
                                      hamon::LogZErrorOptions{}, acceptance);
  EXPECT_FALSE(z.stepping_stone.trusted);
  ASSERT_EQ(z.warnings.size(), 1u) << ::testing::PrintToString(z.warnings);
  EXPECT_TRUE(warned(z, "pair beta 0.2 -> 0.25"));
  EXPECT_TRUE(warned(z, "swap acceptance 0.005 < 0.01"));
  EXPECT_THROW(hamon::log_partition(betas, gaussian_energies(betas, 8.0, 4, 5), 0.0,
                                    hamon::LogZErrorOptions{}, std::vector<double>(8, 0.5)),
               std::invalid_argument);
}

}  // namespace
