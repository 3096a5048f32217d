// SPDX-License-Identifier: Apache-2.0
// The magnetisation per temperature (sampler/detail/magnetization_accumulator.hpp,
// magnetization_statistics.hpp) against exact enumeration of small Ising and Potts models
// (magnetization_enumeration.hpp) at every temperature of the ladder, its error bars
// against the scatter of independent runs, bit for bit across spaces and through a
// checkpoint, and absent where it is not defined.
//
// Tolerance, as the overlap and moment tests (tstOverlaps.hpp): each estimate within 5 of
// its own standard error of the exact value (and within 5 % of it, or 0.05 absolute where it
// is small). 32..64 batches of >= 600 rounds are far longer than these models'
// autocorrelation times under tempering, so the errors are honest, and 5 sigma keeps false
// alarms below 1e-4 over the ~150 checks here (the seeds are fixed: a pass is repeatable).
// The pooled z-scores must look like standard normals, |mean| < 1 and variance < 4: the
// seven z-scores of one temperature move together (the same rounds), so a test pools about
// as many independent ones as it has chains, and its sample variance scatters widely about 1;
// error bars too small by 2 still fail it.
#include <gtest/gtest.h>

#include <Kokkos_Core.hpp>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "hamon/core/model/model_builders.hpp"
#include "hamon/core/sampler/nrpt.hpp"
#include "hamon/core/sampler/sampler.hpp"
#include "magnetization_enumeration.hpp"
#include "resumed_run.hpp"
#include "same_results.hpp"
#include "statistics_checks.hpp"

namespace {

using hamon_test::expect_within_error;
using hamon_test::ZMoments;

/// statistics_run (statistics_checks.hpp) with the magnetisation asked for.
hamon::NrptOptions statistics_run(double beta_max, std::int64_t rounds, std::uint64_t seed,
                                  std::int32_t chains) {
  hamon::NrptOptions o = hamon_test::statistics_run(beta_max, rounds, seed, chains);
  o.observers.magnetization = true;
  return o;
}

void check_one(ZMoments& z, double estimate, double error, double exact, const std::string& what) {
  expect_within_error(estimate, error, exact, what, 5.0, std::max(0.05, 0.05 * std::abs(exact)));
  if (error > 0.0) z.add((estimate - exact) / error);
}

void check_magnetization(const hamon::SpinModel& model, const hamon::NrptOptions& o,
                         const char* name) {
  const auto result = hamon::nrpt(TEST_EXECSPACE(), model, o);
  const hamon::MagnetizationStatistics& s = result.magnetization;
  ASSERT_EQ(s.m.size(), static_cast<std::size_t>(o.n_chains)) << name;
  EXPECT_EQ(s.n_rounds, o.n_rounds);
  EXPECT_EQ(s.replicas, o.n_replicas);
  ZMoments z;
  for (std::size_t c = 0; c < s.betas.size(); ++c) {
    const auto exact = hamon::test::exact_magnetization(model, s.betas[c]);
    const std::string at = std::string(name) + " beta " + std::to_string(s.betas[c]);
    check_one(z, s.m[c], s.m_stderr[c], exact.m, at + " <m>");
    check_one(z, s.abs_m[c], s.abs_m_stderr[c], exact.abs_m, at + " <|m|>");
    check_one(z, s.m2[c], s.m2_stderr[c], exact.m2, at + " <m^2>");
    check_one(z, s.m4[c], s.m4_stderr[c], exact.m4, at + " <m^4>");
    check_one(z, s.binder[c], s.binder_stderr[c], exact.binder, at + " U4");
    check_one(z, s.chi[c], s.chi_stderr[c], exact.chi, at + " chi");
    check_one(z, s.chi_m2[c], s.chi_m2_stderr[c], exact.chi_m2, at + " chi_m2");
    // The nonlinear estimates are the functions of the means.
    EXPECT_NEAR(s.binder[c], 1.0 - s.m4[c] / (3.0 * s.m2[c] * s.m2[c]), 1e-12) << at;
    const double beta_n = s.betas[c] * static_cast<double>(model.n_nodes());
    EXPECT_NEAR(s.chi[c], beta_n * (s.m2[c] - s.abs_m[c] * s.abs_m[c]), 1e-9) << at;
  }
  // One replica: the cold chain's is the moments' order parameter, from the same rounds (the
  // moments are replica 0's, this the replicas' average).
  if (o.n_replicas == 1) {
    EXPECT_NEAR(s.abs_m.back(), result.moments.abs_magnetization_per_node.mean, 1e-12) << name;
  }
  std::printf("%s: %lld z-scores, mean %.3f, variance %.3f\n", name, static_cast<long long>(z.n),
              z.mean(), z.variance());
  EXPECT_LT(std::abs(z.mean()), 1.0) << name;
  EXPECT_LT(z.variance(), 4.0) << name;
}

TEST(TEST_CATEGORY, magnetization_exact_ising_4x4) {
  // The periodic 4x4 ferromagnet (2^16 states) through its critical region (beta_c of the
  // infinite lattice 0.4407): U4 from 2 / (3 N) at beta = 0 towards 2/3.
  const auto model = hamon::make_lattice({4, 4}, true);
  check_magnetization(model, statistics_run(0.7, 40000, 51, 6), "Ising 4x4");
}

TEST(TEST_CATEGORY, magnetization_exact_with_fields_and_replicas) {
  // Gaussian couplings and fields: <m> is not 0; two replicas per chain are averaged.
  const auto model = hamon::make_lattice({4, 4}, true, hamon::ValueDistribution::gaussian(61),
                                         hamon::ValueDistribution::gaussian(62, 0.3));
  auto o = statistics_run(1.2, 30000, 52, 5);
  o.n_replicas = 2;
  check_magnetization(model, o, "Gaussian 4x4, 2 replicas");
}

TEST(TEST_CATEGORY, magnetization_exact_potts_3x3) {
  // The q = 3 Potts ferromagnet on a periodic 3x3 lattice (3^9 states), through its
  // transition (beta_c = log(1 + sqrt 3) = 1.005 on the infinite lattice).
  const auto model = hamon::make_potts_lattice({3, 3}, true, 3);
  check_magnetization(model, statistics_run(1.6, 40000, 53, 6), "Potts q = 3, 3x3");
}

TEST(TEST_CATEGORY, magnetization_ordered_phase_matches_yang) {
  // Deep in the ordered phase of the periodic 24x24 ferromagnet the coldest chain's <|m|> is
  // Yang's spontaneous magnetisation (1 - sinh(2 beta)^-4)^(1/8) of the infinite lattice:
  // at beta = 0.6 the correlation length is below one lattice spacing, so the finite-size
  // difference (of order exp(-L / xi)) is far below the error bar, which the 5 sigma bound
  // then tests. U4 of an m that barely fluctuates is 2/3 to well within 0.01.
  const auto model = hamon::make_lattice({24, 24}, true);
  const double beta = 0.6;
  const auto s =
      hamon::nrpt(TEST_EXECSPACE(), model, statistics_run(beta, 4000, 54, 6)).magnetization;
  ASSERT_FALSE(s.empty());
  ASSERT_DOUBLE_EQ(s.betas.back(), beta);
  const double yang = std::pow(1.0 - std::pow(std::sinh(2.0 * beta), -4.0), 0.125);
  expect_within_error(s.abs_m.back(), s.abs_m_stderr.back(), yang, "<|m|> at beta 0.6", 5.0, 0.01,
                      2e-4);
  EXPECT_NEAR(s.binder.back(), 2.0 / 3.0, 0.01);
}

TEST(TEST_CATEGORY, magnetization_error_bars_match_the_scatter_of_runs) {
  // 32 independent runs of the 4x4 ferromagnet: at each of two temperatures the standard
  // deviation of the estimates over runs against the root mean square of their error bars.
  // With 32 runs the scatter is known to ~13 %, so a ratio outside [0.5, 2] is a > 3.5 sigma
  // miss: error bars wrong by a factor 2 fail it.
  const auto model = hamon::make_lattice({4, 4}, true);
  constexpr int kRuns = 32;
  std::vector<std::vector<double>> binder(2), binder_err(2), chi(2), chi_err(2), m2(2), m2_err(2);
  for (int run = 0; run < kRuns; ++run) {
    auto o = statistics_run(0.5, 4000, 700 + static_cast<std::uint64_t>(run), 3);
    o.burn_in = 200;
    const auto s = hamon::nrpt(TEST_EXECSPACE(), model, o).magnetization;
    for (std::size_t k = 0; k < 2; ++k) {
      const std::size_t c = k + 1;  // beta 0.25 and 0.5
      binder[k].push_back(s.binder[c]);
      binder_err[k].push_back(s.binder_stderr[c]);
      chi[k].push_back(s.chi[c]);
      chi_err[k].push_back(s.chi_stderr[c]);
      m2[k].push_back(s.m2[c]);
      m2_err[k].push_back(s.m2_stderr[c]);
    }
  }
  auto ratio = [](const std::vector<double>& values, const std::vector<double>& errors) {
    double mean = 0.0, rms = 0.0, ss = 0.0;
    for (std::size_t i = 0; i < values.size(); ++i) {
      mean += values[i];
      rms += errors[i] * errors[i];
    }
    mean /= static_cast<double>(values.size());
    for (double v : values) ss += (v - mean) * (v - mean);
    const double sd = std::sqrt(ss / static_cast<double>(values.size() - 1));
    return sd / std::sqrt(rms / static_cast<double>(values.size()));
  };
  for (std::size_t k = 0; k < 2; ++k) {
    const double rb = ratio(binder[k], binder_err[k]);
    const double rc = ratio(chi[k], chi_err[k]);
    const double rm = ratio(m2[k], m2_err[k]);
    std::printf("chain %zu: scatter / error bar: U4 %.2f, chi %.2f, <m^2> %.2f\n", k + 1, rb, rc,
                rm);
    for (double r : {rb, rc, rm}) {
      EXPECT_GT(r, 0.5) << "chain " << k + 1;
      EXPECT_LT(r, 2.0) << "chain " << k + 1;
    }
  }
}

hamon::NrptOptions short_run() {
  auto o = statistics_run(1.2, 700, 54, 4);
  o.burn_in = 30;
  o.observers.moment_batches = 4;  // batches merge several times
  return o;
}

TEST(TEST_CATEGORY, magnetization_same_bits_as_reference_space_and_through_a_checkpoint) {
  const auto ising = hamon::make_lattice({6, 6}, true, hamon::ValueDistribution::pm_one(8));
  const auto potts = hamon::make_potts_lattice({5, 5}, true, 4);
  for (const auto* model : {&ising, &potts}) {
    auto o = short_run();
    o.n_replicas = 2;
    const auto here = hamon::nrpt(TEST_EXECSPACE(), *model, o);
    const auto reference = hamon::nrpt(hamon_test::ReferenceSpace(), *model, o);
    ASSERT_FALSE(here.magnetization.empty());
    hamon_test::expect_same_results(here, reference);
    const auto resumed =
        hamon_test::resumed_through_checkpoint<TEST_EXECSPACE, hamon_test::ReferenceSpace>(*model,
                                                                                           o, 401);
    hamon_test::expect_same_results(resumed, reference);
  }
}

TEST(TEST_CATEGORY, magnetization_is_asked_for_needs_a_discrete_model_and_a_consistent_state) {
  const auto model = hamon::make_lattice({4, 4}, true);
  // Asked for: off by default, and independent of the cold chain's moments.
  auto off = short_run();
  off.observers.magnetization = false;
  EXPECT_TRUE(hamon::nrpt(TEST_EXECSPACE(), model, off).magnetization.betas.empty());
  auto without_moments = short_run();
  without_moments.observers.moments = false;
  EXPECT_EQ(hamon::nrpt(TEST_EXECSPACE(), model, without_moments).magnetization.n_rounds, 700);
  // Real values have no magnetisation of this kind (their summary has abs_mean_per_node).
  const auto gaussian = hamon::make_continuous_lattice(
      hamon::ContinuousKind::gaussian, {4, 4}, true, hamon::ValueDistribution::constant(0.1),
      std::vector<double>(16, 1.0));
  auto real = short_run();
  real.beta_min = 0.1;
  EXPECT_TRUE(hamon::nrpt(TEST_EXECSPACE(), gaussian, real).magnetization.betas.empty());
  hamon::Sampler<TEST_EXECSPACE> with(TEST_EXECSPACE(), model, short_run());
  with.run(50);
  hamon::SamplerState s = with.state();
  EXPECT_FALSE(s.magnetization.counts.empty());
  s.magnetization.n_batches = 99;
  EXPECT_THROW(hamon::Sampler<TEST_EXECSPACE>(TEST_EXECSPACE(), model, short_run(), s),
               std::invalid_argument);
  // A state without the magnetisation (saved over ranks) continues with it from its round on.
  s.magnetization = hamon::MagnetizationBatchesState();
  hamon::Sampler<TEST_EXECSPACE> resumed(TEST_EXECSPACE(), model, short_run(), s);
  resumed.run(100);
  EXPECT_EQ(resumed.result().magnetization.n_rounds, 100);
}

}  // namespace
