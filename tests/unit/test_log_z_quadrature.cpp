// SPDX-License-Identifier: Apache-2.0
// The thermodynamic-integration discretisation error against closed forms where Var(E)
// peaks between the ends of the ladder. N independent two-level units, ground state 0 and
// an excited level eps of degeneracy g: log Z = N log(1 + g e^{-beta eps}), <E> = N eps p,
// Var(E) = N eps^2 p (1 - p), p = g e^{-beta eps} / (1 + g e^{-beta eps}). Var(E) peaks at
// beta* = ln(g) / eps, like a first-order transition. The energies handed to
// log_partition alternate mean +- sd per chain, so every batch's moments are the exact
// ones (no statistical error) and only the quadrature is tested.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "hamon/core/analysis/log_partition.hpp"

namespace {

struct TwoLevel {
  double n = 10.0;
  double eps = 8.0;
  double peak = 1.0;  // beta*: g = e^{eps beta*}
  double p(double beta) const { return 1.0 / (1.0 + std::exp(eps * (beta - peak))); }
  double log_z(double beta) const {
    return n * (eps * peak - beta * eps + std::log1p(std::exp(eps * (beta - peak))));
  }
  double mean(double beta) const { return n * eps * p(beta); }
  double variance(double beta) const { return n * eps * eps * p(beta) * (1.0 - p(beta)); }
};

// 64 rounds x n_chains, chain c alternating mean_c + sd_c, mean_c - sd_c: the mean and the
// variance (over n) of every even-length run of rows are exact.
std::vector<double> exact_moment_energies(const TwoLevel& s, const std::vector<double>& betas) {
  constexpr int kRounds = 64;
  std::vector<double> energies;
  for (int r = 0; r < kRounds; ++r) {
    for (double beta : betas) {
      const double sd = std::sqrt(s.variance(beta));
      energies.push_back(s.mean(beta) + (r % 2 == 0 ? sd : -sd));
    }
  }
  return energies;
}

std::vector<double> uniform_ladder(double last, int n) {
  std::vector<double> betas;
  for (int k = 0; k < n; ++k) betas.push_back(last * k / (n - 1));
  return betas;
}

bool names(const std::vector<std::string>& warnings, const std::string& what) {
  for (const auto& w : warnings) {
    if (w.find(what) != std::string::npos) return true;
  }
  return false;
}

TEST(LogZQuadrature, ErrorCoversAVariancePeakBetweenTheEnds) {
  // 6 chains over [0, 2], the peak at 1.13 (off the middle, so that the error does not
  // cancel by symmetry). Var(E) is about equal at the two ends, so the old telescoped
  // |Hermite - trapezoid| = h^2/12 |Var_last - Var_0| reads 0.007 while the Hermite rule
  // is 0.23 off.
  const TwoLevel s{10.0, 8.0, 1.13};
  const std::vector<double> betas = uniform_ladder(2.0, 6);
  std::vector<double> means, variances;
  for (double b : betas) {
    means.push_back(s.mean(b));
    variances.push_back(s.variance(b));
  }
  const double exact = s.log_z(2.0);
  const double hermite = s.log_z(0.0) + hamon::thermodynamic_integration(betas, means, variances);
  const double telescoped = std::abs(hamon::thermodynamic_integration(betas, means, variances) -
                                     hamon::thermodynamic_integration(betas, means));
  EXPECT_GT(std::abs(hermite - exact), 10.0 * telescoped);  // what the old error missed

  const auto z = hamon::log_partition(betas, exact_moment_energies(s, betas), s.log_z(0.0));
  const auto& ti = z.thermodynamic_integration;
  std::printf("peak between the ends: TI %.4f +- %.4f (quadrature %.4f), exact %.4f\n", ti.value,
              ti.error(), ti.discretisation_error, exact);
  EXPECT_LE(std::abs(ti.value - exact), ti.discretisation_error);
  EXPECT_GT(ti.discretisation_error, 10.0 * telescoped);
  EXPECT_TRUE(ti.trusted);  // a bound holds: no reason to distrust it
}

TEST(LogZQuadrature, ErrorCoversAPeakNeitherEndOfAnIntervalSees) {
  // A sharp peak (eps = 40) at 0.85 inside the interval [0.6, 1.2]: Var(E) is 0.7 and
  // 0.01 at its ends, so the Hermite correction there is nothing, yet <E> drops by ~400
  // across it and the trapezoid is ~20 off. The change of <E> against the end variances
  // shows the peak: the interval falls back to its bracket, and a warning names it.
  const TwoLevel s{10.0, 40.0, 0.85};
  const std::vector<double> betas = {0.0, 0.6, 1.2, 1.8};
  const auto z = hamon::log_partition(betas, exact_moment_energies(s, betas), s.log_z(0.0));
  const auto& ti = z.thermodynamic_integration;
  const double exact = s.log_z(1.8);
  std::printf("peak inside an interval: TI %.4f +- %.4f (quadrature %.4f), exact %.4f\n", ti.value,
              ti.error(), ti.discretisation_error, exact);
  EXPECT_GT(std::abs(ti.value - exact), 10.0);                     // the quadrature is far off ...
  EXPECT_LE(std::abs(ti.value - exact), ti.discretisation_error);  // ... and says so
  EXPECT_TRUE(names(z.warnings, "interval beta 0.6 -> 1.2"))
      << ::testing::PrintToString(z.warnings);
  EXPECT_TRUE(names(z.warnings, "peaks inside the interval"));
}

TEST(LogZQuadrature, FineLaddersKeepTheHermiteRuleAndASmallError) {
  // 41 chains over the same smooth peak as above: every interval resolved, the Hermite
  // value within its (conservative) error of the exact one, no quadrature warning.
  const TwoLevel s{10.0, 8.0, 1.13};
  const std::vector<double> betas = uniform_ladder(2.0, 41);
  const auto z = hamon::log_partition(betas, exact_moment_energies(s, betas), s.log_z(0.0));
  const auto& ti = z.thermodynamic_integration;
  EXPECT_LE(std::abs(ti.value - s.log_z(2.0)), ti.discretisation_error);
  EXPECT_LT(ti.discretisation_error, 0.1);
  EXPECT_FALSE(names(z.warnings, "thermodynamic integration"));
}

}  // namespace
