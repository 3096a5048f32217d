// SPDX-License-Identifier: Apache-2.0
// The best-state tracker (sampler/detail/best_states.hpp) against the traces: every machine's
// best energy is the lowest it had in the rounds traced, the run's best is the lowest of the
// energy trace, found in the round the trace says, and the saved configuration has that
// energy when recomputed on the host. Ising and Potts; splits and checkpoints are covered by
// the sampler's tests (same_results.hpp compares the best states too). On the annealing path
// (an Ising model's independent reference, every continuous model) the best state is the
// model's lowest E, not the swap energy E - E_ref's: exact oracles for both.
#include <gtest/gtest.h>

#include <Kokkos_Core.hpp>
#include <algorithm>
#include <limits>

#include "hamon/core/model/model_builders.hpp"
#include "hamon/core/sampler/nrpt.hpp"
#include "hamon/core/sampler/sampler.hpp"
#include "run_options.hpp"

namespace {

/// Every round traced: no burn-in, so the trace holds every round the tracker saw.
hamon::NrptOptions traced_run(std::int32_t chains) {
  hamon::NrptOptions o = hamon_test::observed_run(chains);
  o.burn_in = 0;
  o.adapt_schedule = false;
  return o;
}

/// Checks r's best states against its traces (rounds x chains, by temperature and by machine).
void expect_best_of_traces(const hamon::NrptResult& r) {
  const auto chains = r.betas.size();
  ASSERT_EQ(r.energies.size(), static_cast<std::size_t>(r.n_rounds) * chains);
  ASSERT_EQ(r.index_process.size(), r.energies.size());
  ASSERT_EQ(r.best_energies.size(), chains);
  std::vector<double> lowest(chains, std::numeric_limits<double>::infinity());
  double overall = std::numeric_limits<double>::infinity();
  std::int64_t first_round = -1;
  for (std::int64_t t = 0; t < r.n_rounds; ++t) {
    for (std::size_t m = 0; m < chains; ++m) {
      // The trace's row of round t: by temperature; the index process says each machine's.
      const auto c = static_cast<std::size_t>(r.index_process[t * chains + m]);
      const double e = r.energies[t * chains + c];
      lowest[m] = std::min(lowest[m], e);
      if (e < overall) {
        overall = e;
        first_round = t;
      }
    }
  }
  for (std::size_t m = 0; m < chains; ++m) {
    EXPECT_EQ(r.best_energies[m], lowest[m]) << "machine " << m;
  }
  EXPECT_EQ(r.best_energy, overall);
  EXPECT_EQ(r.best_round, first_round) << "ties keep the earliest";
  ASSERT_GE(r.best_chain, 0);
  ASSERT_LT(r.best_chain, static_cast<std::int32_t>(chains));
  EXPECT_GE(r.round_trips_since_best, 0);
  EXPECT_LE(r.round_trips_since_best, r.total_round_trips);
}

TEST(TEST_CATEGORY, best_states_are_the_lowest_energies_of_the_traces) {
  const auto model = hamon::make_lattice({6, 6}, true, hamon::ValueDistribution::gaussian(3),
                                         hamon::ValueDistribution::gaussian(4, 0.2));
  for (std::int32_t chains : {1, 6}) {
    SCOPED_TRACE(std::to_string(chains) + " chains");
    const auto r = hamon::nrpt(TEST_EXECSPACE(), model, traced_run(chains));
    expect_best_of_traces(r);
    ASSERT_EQ(r.best_state.size(), static_cast<std::size_t>(model.n_nodes()));
    EXPECT_NEAR(model.energy(r.best_state), r.best_energy, 1e-9);
  }
}

TEST(TEST_CATEGORY, best_states_of_a_potts_model) {
  const auto model =
      hamon::make_potts_lattice({5, 5}, true, 3, hamon::ValueDistribution::pm_one(8));
  const auto r = hamon::nrpt(TEST_EXECSPACE(), model, traced_run(5));
  expect_best_of_traces(r);
  ASSERT_EQ(r.best_state.size(), static_cast<std::size_t>(model.n_nodes()));
  const std::vector<std::uint8_t> states(r.best_state.begin(), r.best_state.end());
  EXPECT_EQ(model.potts_energy(states), r.best_energy);  // integer couplings: exact
}

TEST(TEST_CATEGORY, best_states_follow_burn_in_and_count_trips_after_it) {
  // A ground state of a small ferromagnet is found in burn-in; the trips counted since are
  // the measured ones (the counters restart with measurement).
  const auto model = hamon::make_lattice({4, 4}, true);
  auto o = traced_run(4);
  o.burn_in = 200;
  const auto r = hamon::nrpt(TEST_EXECSPACE(), model, o);
  EXPECT_EQ(r.best_energy, -32.0);
  EXPECT_LT(r.best_round, o.burn_in);
  EXPECT_EQ(r.round_trips_since_best, r.total_round_trips);
  for (double e : r.energies) EXPECT_GE(e, r.best_energy);
}

TEST(TEST_CATEGORY, best_state_on_the_annealing_path_is_the_models_ground_state) {
  // A 3-spin chain, J = 1 on (0, 1) and (1, 2), fields (3, 0, -3): E = -(3 s0 - 3 s2 + s0 s1
  // + s1 s2) has its minimum -6 at (+1, +-1, -1), while the swap energy E - E_ref = -(s0 s1 +
  // s1 s2) is lowest (-2) at the aligned states, whose E is 0 or -2 at best.
  const auto model = hamon::SpinModel::from_edges(3, {{0, 1, 1.0}, {1, 2, 1.0}}, {3.0, 0.0, -3.0});
  auto o = traced_run(4);
  o.beta_min = 0.0;
  o.beta_max = 2.0;
  o.n_rounds = 2000;
  o.reference = hamon::AnnealingReference::independent;
  const auto r = hamon::nrpt(TEST_EXECSPACE(), model, o);
  ASSERT_TRUE(r.annealed);
  EXPECT_EQ(r.best_energy, -6.0);  // integer terms: exact
  ASSERT_EQ(r.best_state.size(), 3u);
  EXPECT_EQ(r.best_state[0], 1);
  EXPECT_EQ(r.best_state[2], -1);
  EXPECT_EQ(model.energy(r.best_state), r.best_energy);
  for (double e : r.best_energies) EXPECT_GE(e, -6.0);
  ASSERT_GE(r.best_chain, 0);
  EXPECT_EQ(r.best_beta, r.betas[static_cast<std::size_t>(r.best_chain)]);
}

TEST(TEST_CATEGORY, best_state_of_a_gaussian_is_its_lowest_energy) {
  // A 2-node Gaussian, P = [[2, -0.8], [-0.8, 1.5]], h = (1, -0.5): E = x'Px/2 - h'x is
  // bounded below by E_min = -h'P^-1 h / 2 (at x* = P^-1 h), while the swap energy
  // E - E_ref = -J x0 x1 has no lower bound. The best state's energy is E of its values
  // (to the fixed point's rounding), at or above E_min, and close to it: 8000 draws of
  // beta (E - E_min), a chi-square with 2 degrees of freedom over 2 at the target, fall
  // below 0.05 with probability 1 - e^-0.05 each, so all missing it has probability
  // (e^-0.05)^2000 < 1e-40 from the target chain alone.
  const auto model = hamon::SpinModel::gaussian(2, {{0, 1, 0.8}}, {2.0, 1.5}, {1.0, -0.5});
  auto o = traced_run(4);
  o.beta_min = 0.25;
  o.beta_max = 1.0;
  o.n_rounds = 2000;
  const auto r = hamon::nrpt(TEST_EXECSPACE(), model, o);
  ASSERT_TRUE(r.annealed);
  const double det = 2.0 * 1.5 - 0.8 * 0.8;
  const double x0 = (1.5 * 1.0 + 0.8 * -0.5) / det;
  const double x1 = (0.8 * 1.0 + 2.0 * -0.5) / det;
  const double e_min = -0.5 * (1.0 * x0 - 0.5 * x1);
  ASSERT_EQ(r.best_real_state.size(), 2u);
  EXPECT_NEAR(r.best_energy, model.continuous_energy(r.best_real_state), 1e-6);
  EXPECT_GE(r.best_energy, e_min - 1e-6);
  EXPECT_LE(r.best_energy, e_min + 0.05);
  for (double e : r.best_energies) EXPECT_GE(e, e_min - 1e-6);
}

TEST(TEST_CATEGORY, best_states_before_any_round_are_none) {
  const auto model = hamon::make_lattice({4, 4}, true);
  hamon::Sampler<TEST_EXECSPACE> sampler(TEST_EXECSPACE(), model, traced_run(3));
  const auto r = sampler.result();
  EXPECT_EQ(r.best_round, -1);
  EXPECT_TRUE(r.best_state.empty());
  // A state saved before the first round restores (its copies are valid variables).
  hamon::Sampler<TEST_EXECSPACE> again(TEST_EXECSPACE(), model, traced_run(3), sampler.state());
  again.run(5);
  EXPECT_GE(again.result().best_round, 0);
}

}  // namespace
