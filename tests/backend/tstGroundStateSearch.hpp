// SPDX-License-Identifier: Apache-2.0
// NRPT finds the exact ground state of glass strips with fields: the run's best state
// (best_energy, best_state) equals the min-sum column transfer's
// (tests/support/strip_ground_state.hpp), its configuration has that energy, the energy
// trace of every chain and measured round reaches it, and nothing goes below it. The strips are
// built as the sampler numbers them (ising_strip.hpp). Seeds are fixed and the engine is
// bit-identical across spaces, so the outcome is too; the runs are several times longer than the
// first hit needs on these seeds.
#include <gtest/gtest.h>

#include <Kokkos_Core.hpp>
#include <algorithm>
#include <cmath>

#include "hamon/core/model/model_builders.hpp"
#include "hamon/core/sampler/nrpt.hpp"
#include "ising_strip.hpp"
#include "strip_ground_state.hpp"

namespace {

using Space = TEST_EXECSPACE;
using hamon::ValueDistribution;

/// An NRPT run on a geometric ladder up to beta_max, with every chain's energy trace.
hamon::NrptResult search_run(const hamon::SpinModel& model, double beta_max, std::int32_t chains,
                             std::int64_t rounds, std::uint64_t seed) {
  hamon::NrptOptions o;
  o.n_chains = chains;
  const double beta_min = 0.1;
  for (std::int32_t c = 0; c < chains; ++c) {
    o.betas.push_back(beta_min * std::pow(beta_max / beta_min, c / (chains - 1.0)));
  }
  o.n_rounds = rounds;
  o.n_expl = 2;
  o.seed = seed;
  o.observers.energies = true;
  const hamon::NrptResult r = hamon::nrpt(Space(), model, o);
  EXPECT_EQ(r.energies.size(), static_cast<std::size_t>(rounds * chains));
  return r;
}

hamon::SpinModel periodic_strip(int width, int length, ValueDistribution coupling,
                                ValueDistribution field) {
  hamon::test::IsingStripSpec spec;
  spec.width = width;
  spec.length = length;
  spec.periodic_width = true;
  spec.coupling = coupling;
  spec.field = field;
  return hamon::test::ising_strip(spec);
}

void expect_ground_state(const hamon::SpinModel& model, int width, const hamon::NrptResult& r) {
  const double exact = hamon::test::strip_ground_state(model, width).energy;
  const double tol = 1e-9 * std::abs(exact);
  const double lowest = *std::min_element(r.energies.begin(), r.energies.end());
  EXPECT_GE(lowest, exact - tol) << "a chain went below the exact ground state";
  EXPECT_NEAR(lowest, exact, tol) << "lowest visited " << lowest << ", exact " << exact;
  EXPECT_NEAR(r.best_energy, exact, tol) << "best_energy " << r.best_energy << ", exact " << exact;
  EXPECT_NEAR(model.energy(r.best_state), r.best_energy, tol) << "the best state's own energy";
}

TEST(TEST_CATEGORY, ground_state_search_pm_j_strip_with_fields) {
  // 4 x 12, periodic width, +-1 couplings, +-0.5 fields.
  const hamon::SpinModel model =
      periodic_strip(4, 12, ValueDistribution::pm_one(11), ValueDistribution::pm_one(12, 0.5));
  expect_ground_state(model, 4, search_run(model, 4.0, 12, 2000, 5));
}

TEST(TEST_CATEGORY, ground_state_search_gaussian_strip_with_small_fields) {
  // 6 x 20, periodic width, unit Gaussian couplings, Gaussian fields of deviation 0.1.
  const hamon::SpinModel model =
      periodic_strip(6, 20, ValueDistribution::gaussian(21), ValueDistribution::gaussian(22, 0.1));
  expect_ground_state(model, 6, search_run(model, 6.0, 16, 4000, 7));
}

}  // namespace
