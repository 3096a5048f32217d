// SPDX-License-Identifier: Apache-2.0
// The exact ground-state oracles (tests/support/ground_state_enumeration.hpp, by Gray-code
// enumeration, and strip_ground_state.hpp, by a min-sum column transfer) against each
// other on random strips small enough to enumerate, against the model's own energy
// function, and against closed forms (ferromagnet, bipartite antiferromagnet).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <vector>

#include "../support/ground_state_enumeration.hpp"
#include "../support/ising_strip.hpp"
#include "../support/potts_strip.hpp"
#include "../support/strip_ground_state.hpp"
#include "hamon/core/model/model_builders.hpp"

namespace {

using hamon::ValueDistribution;
using hamon::test::GroundState;
using hamon::test::ising_strip;
using hamon::test::IsingStripSpec;

/// A W x M strip (ising_strip.hpp) of these couplings, fields and clamps.
hamon::SpinModel strip(int width, int length, bool periodic,
                       ValueDistribution coupling = ValueDistribution::constant(1.0),
                       ValueDistribution field = ValueDistribution::constant(0.0),
                       std::vector<hamon::Clamp> clamps = {}) {
  IsingStripSpec spec;
  spec.width = width;
  spec.length = length;
  spec.periodic_width = periodic;
  spec.coupling = coupling;
  spec.field = field;
  spec.clamps = std::move(clamps);
  return ising_strip(spec);
}

double tolerance(const hamon::SpinModel& model) {
  return 1e-9 * (1.0 + model.magnitude());
}

/// The configuration holds every clamp and its energy is the reported minimum.
void expect_consistent(const hamon::SpinModel& model, const GroundState& g) {
  ASSERT_EQ(g.configuration.size(), static_cast<std::size_t>(model.n_nodes()));
  for (std::size_t i = 0; i < g.configuration.size(); ++i) {
    if (model.clamped()[i] != 0) {
      EXPECT_EQ(g.configuration[i], model.clamped()[i]) << "node " << i;
    }
  }
  EXPECT_NEAR(model.energy(g.configuration), g.energy, tolerance(model));
}

/// No single spin flip lowers the energy (a ground state is a local minimum).
void expect_no_better_flip(const hamon::SpinModel& model, const GroundState& g) {
  std::vector<std::int8_t> s = g.configuration;
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (model.clamped()[i] != 0) continue;
    s[i] = static_cast<std::int8_t>(-s[i]);
    EXPECT_GE(model.energy(s), g.energy - tolerance(model)) << "flipping node " << i;
    s[i] = static_cast<std::int8_t>(-s[i]);
  }
}

TEST(GroundStateOracles, viterbi_matches_enumeration_on_random_strips) {
  int checked = 0;
  for (int width = 1; width <= 4; ++width) {
    for (int length = 1; length <= 5; ++length) {
      for (int variant = 0; variant < 4; ++variant) {
        const bool periodic = width >= 3 && variant % 2 == 1;
        const bool gaussian = variant >= 2;
        const auto seed = static_cast<std::uint64_t>(100 * width + 10 * length + variant);
        IsingStripSpec spec;
        spec.width = width;
        spec.length = length;
        spec.periodic_width = periodic;
        spec.coupling =
            gaussian ? ValueDistribution::gaussian(seed) : ValueDistribution::pm_one(seed);
        // +-J with +-0.5 fields keeps integer-and-half energies (exact ties); Gaussian
        // with small Gaussian fields.
        spec.field = gaussian ? ValueDistribution::gaussian(seed + 1, 0.1)
                              : ValueDistribution::pm_one(seed + 1, 0.5);
        const int n = width * length;
        if (n >= 3) spec.clamps = {{n / 2, variant % 3 == 0 ? 1 : -1}};
        const hamon::SpinModel model = ising_strip(spec);
        const GroundState exact = hamon::test::ground_state_by_enumeration(model);
        const GroundState viterbi = hamon::test::strip_ground_state(model, width);
        SCOPED_TRACE(testing::Message() << width << " x " << length << " variant " << variant);
        EXPECT_NEAR(viterbi.energy, exact.energy, tolerance(model));
        expect_consistent(model, exact);
        expect_consistent(model, viterbi);
        expect_no_better_flip(model, viterbi);
        EXPECT_GE(exact.degeneracy, 1);
        ++checked;
      }
    }
  }
  EXPECT_EQ(checked, 80);
}

TEST(GroundStateOracles, viterbi_matches_enumeration_at_the_enumeration_limit) {
  // 4 x 6 periodic-width Gaussian strip with fields, one clamp: 23 free spins (2^23 states).
  const hamon::SpinModel model = strip(4, 6, true, ValueDistribution::gaussian(77),
                                       ValueDistribution::gaussian(78, 0.2), {{13, -1}});
  const GroundState exact = hamon::test::ground_state_by_enumeration(model);
  const GroundState viterbi = hamon::test::strip_ground_state(model, 4);
  EXPECT_NEAR(viterbi.energy, exact.energy, tolerance(model));
  EXPECT_EQ(exact.degeneracy, 1);  // continuous couplings and fields: no ties
  EXPECT_EQ(viterbi.configuration, exact.configuration);
}

TEST(GroundStateOracles, viterbi_matches_enumeration_on_potts_strips) {
  for (std::uint64_t seed = 1; seed <= 4; ++seed) {
    hamon::test::PottsStripSpec spec;
    spec.width = 3;
    spec.length = 3;
    spec.q = 3;
    spec.periodic = seed % 2 == 0;
    spec.matrix_every = 3;
    spec.clamps = {{4, static_cast<int>(seed % 3)}};
    spec.seed = seed;
    const hamon::SpinModel model = hamon::test::potts_strip(spec);
    const GroundState exact = hamon::test::ground_state_by_enumeration(model);
    const GroundState viterbi = hamon::test::strip_ground_state(model, 3);
    EXPECT_NEAR(viterbi.energy, exact.energy, tolerance(model)) << "seed " << seed;
    std::vector<std::uint8_t> states(viterbi.configuration.begin(), viterbi.configuration.end());
    EXPECT_NEAR(model.potts_energy(states), viterbi.energy, tolerance(model));
    EXPECT_EQ(viterbi.configuration[4], static_cast<std::int8_t>(seed % 3));
  }
}

TEST(GroundStateOracles, ferromagnet_is_aligned) {
  // Open 4 x 5 ferromagnet, J = 1, no field: E0 = -(bonds) = -(4 * 4 + 3 * 5) = -31, twice
  // degenerate; a clamp picks the sign.
  const hamon::SpinModel free_model = strip(4, 5, false);
  const GroundState g = hamon::test::ground_state_by_enumeration(free_model);
  EXPECT_EQ(g.energy, -31.0);
  EXPECT_EQ(g.degeneracy, 2);
  EXPECT_EQ(hamon::test::strip_ground_state(free_model, 4).energy, -31.0);

  const hamon::SpinModel clamped = strip(4, 5, true, ValueDistribution::constant(1.0),
                                         ValueDistribution::constant(0.0), {{7, -1}});
  // Periodic width: 4 * 5 + 4 * 4 = 36 bonds.
  const GroundState down = hamon::test::strip_ground_state(clamped, 4);
  EXPECT_EQ(down.energy, -36.0);
  EXPECT_EQ(down.configuration, std::vector<std::int8_t>(20, -1));
  EXPECT_EQ(hamon::test::ground_state_by_enumeration(clamped).degeneracy, 1);
}

TEST(GroundStateOracles, bipartite_antiferromagnet_is_a_checkerboard) {
  // J = -1 on a periodic-width strip of even width (bipartite): every bond satisfied by
  // the checkerboard, E0 = -(bonds), twice degenerate.
  const hamon::SpinModel model = strip(4, 4, true, ValueDistribution::constant(-1.0));
  const double bonds = static_cast<double>(model.n_edges());
  const GroundState exact = hamon::test::ground_state_by_enumeration(model);
  EXPECT_EQ(exact.energy, -bonds);
  EXPECT_EQ(exact.degeneracy, 2);
  const GroundState viterbi = hamon::test::strip_ground_state(model, 4);
  EXPECT_EQ(viterbi.energy, -bonds);
  for (int m = 0; m < 4; ++m) {
    for (int x = 0; x < 4; ++x) {
      const int sign = (m + x) % 2 == 0 ? 1 : -1;
      EXPECT_EQ(viterbi.configuration[static_cast<std::size_t>(m * 4 + x)],
                sign * viterbi.configuration[0]);
    }
  }
  // Odd periodic width frustrates every row: the checkerboard no longer satisfies them all.
  const hamon::SpinModel odd = strip(3, 4, true, ValueDistribution::constant(-1.0));
  EXPECT_GT(hamon::test::strip_ground_state(odd, 3).energy, -static_cast<double>(odd.n_edges()));
}

TEST(GroundStateOracles, viterbi_on_a_benchmark_strip_is_a_local_minimum) {
  // The 10 x 80 Gaussian strip of the performance record: too large to enumerate, so its
  // configuration is checked against the model's energy and every single flip.
  const hamon::SpinModel model =
      strip(10, 80, true, ValueDistribution::gaussian(1), ValueDistribution::gaussian(2, 0.1));
  const GroundState g = hamon::test::strip_ground_state(model, 10);
  expect_consistent(model, g);
  expect_no_better_flip(model, g);
}

TEST(GroundStateOracles, refuse_what_they_cannot_do) {
  const hamon::SpinModel big = strip(5, 6, false);
  EXPECT_THROW(hamon::test::ground_state_by_enumeration(big), std::invalid_argument);
  // Bonds of span 5 do not fit a front of width 4.
  EXPECT_THROW(hamon::test::strip_ground_state(big, 4), std::invalid_argument);
  EXPECT_THROW(hamon::test::strip_ground_state(strip(13, 2, false), 13), std::invalid_argument);
}

}  // namespace
