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

struct Ladder {
  int chains;
  std::int64_t rounds;
};

TEST(LogZIsingCalibration, Explore) {
  const auto model = hamon::make_lattice({4, 4}, true);
  const double beta = 0.6;
  const double exact = hamon::test::exact_moments(model, beta).log_z;
  for (const Ladder ladder : {Ladder{4, 2000}, Ladder{6, 1000}, Ladder{8, 1000}, Ladder{8, 2000}, Ladder{4, 1000}}) {
    hamon_test::ZMoments ss, ti, ti_stat, pref;
    int ti_pref = 0, untrusted = 0;
    for (std::uint64_t seed = 1; seed <= 200; ++seed) {
      hamon::NrptOptions o;
      o.n_chains = ladder.chains;
      o.beta_max = beta;
      o.n_rounds = ladder.rounds;
      o.burn_in = 200;
      o.seed = seed;
      o.observers.energies = true;
      const auto r =
          hamon::routed_nrpt(model, o, hamon::DeviceSpec::backend(hamon::Placement::serial)).result;
      const auto z = hamon::log_partition(model, r);
      const auto& s = z->stepping_stone;
      const auto& t = z->thermodynamic_integration;
      if (s.trusted) ss.add((s.value - exact) / s.error());
      ti.add((t.value - exact) / t.error());
      ti_stat.add((t.value - exact) / t.standard_error);
      const auto& p = z->preferred == hamon::LogZMethod::stepping_stone ? s : t;
      pref.add((p.value - exact) / p.error());
      if (z->preferred != hamon::LogZMethod::stepping_stone) ++ti_pref;
      if (!s.trusted) ++untrusted;
    }
    std::printf("%d chains %lld rounds: var z SS %.3f (mean %+.2f) TI %.3f TI-stat %.3f (mean %+.2f) preferred %.3f; TI preferred %d, SS untrusted %d\n",
                ladder.chains, static_cast<long long>(ladder.rounds), ss.variance(), ss.mean(),
                ti.variance(), ti_stat.variance(), ti_stat.mean(), pref.variance(), ti_pref, untrusted);
  }
}

}  // namespace
