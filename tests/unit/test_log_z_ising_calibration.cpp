// SPDX-License-Identifier: Apache-2.0
// Calibration over seeds of the log Z a run reports on Ising ladders, against enumeration.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <vector>

#include "../support/exact_enumeration.hpp"
#include "../support/statistics_checks.hpp"
#include "hamon/core/analysis/log_partition.hpp"
#include "hamon/core/model/model_builders.hpp"
#include "hamon/policies/dispatch.hpp"

namespace {

TEST(LogZIsingCalibration, ReportedErrorsHoldOverSeeds) {
  // A 4x4 periodic ferromagnet at beta = 0.6 (log Z by enumeration), 8 chains linear from
  // 0, 2000 rounds, 200 seeds. Tolerances: the sample variance of 200 unit-variance z has sd
  // sqrt(2 / 199) = 0.10, so [0.75, 1.3] is 2.5-3 sd either side (batch means from 32
  // batches make z a t with ~31 degrees of freedom: 1.07).
  //  - stepping stone (trusted runs) and the preferred estimate: var z in the band;
  //  - thermodynamic integration's statistical error alone: var z in the band (its
  //    discretisation error is reported apart, and here is a bound: with it var z < 0.75).
  const auto model = hamon::make_lattice({4, 4}, true);
  const double beta = 0.6;
  const double exact = hamon::test::exact_moments(model, beta).log_z;
  hamon_test::ZMoments ss, ti_total, ti_stat, preferred;
  for (std::uint64_t seed = 1; seed <= 200; ++seed) {
    hamon::NrptOptions o;
    o.n_chains = 8;
    o.beta_max = beta;
    o.n_rounds = 2000;
    o.burn_in = 200;
    o.seed = seed;
    o.observers.energies = true;
    const auto r =
        hamon::routed_nrpt(model, o, hamon::DeviceSpec::backend(hamon::Placement::serial)).result;
    const auto z = hamon::log_partition(model, r);
    ASSERT_TRUE(z.has_value());
    const auto& s = z->stepping_stone;
    const auto& t = z->thermodynamic_integration;
    if (s.trusted) ss.add((s.value - exact) / s.error());
    ti_total.add((t.value - exact) / t.error());
    ti_stat.add((t.value - exact) / t.standard_error);
    const auto& p = z->preferred == hamon::LogZMethod::stepping_stone ? s : t;
    preferred.add((p.value - exact) / p.error());
  }
  std::printf(
      "  var z over 200 seeds: stepping stone %.3f (%lld trusted), TI statistical %.3f, "
      "TI total %.3f, preferred %.3f\n",
      ss.variance(), static_cast<long long>(ss.n), ti_stat.variance(), ti_total.variance(),
      preferred.variance());
  ASSERT_GE(ss.n, 150);
  for (const auto* zs : {&ss, &ti_stat, &preferred}) {
    EXPECT_GE(zs->variance(), 0.75);
    EXPECT_LE(zs->variance(), 1.3);
    EXPECT_LE(std::abs(zs->mean()), 0.3);
  }
  EXPECT_LT(ti_total.variance(), 0.75);
}

}  // namespace
