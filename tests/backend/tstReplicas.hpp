// SPDX-License-Identifier: Apache-2.0
// Replicas (NrptOptions::n_replicas): R ladders of one model as R x n machines of one
// state. Replica 0 is the run of one replica (its machines draw the same numbers: the
// sweep's draws are keyed by machine, ladder r's swaps by (i, r)); each replica mixes on
// its own; a run of replicas splits, saves and resumes with the same bits on any space
// (CTest runs OpenMP with 1 and 2 threads); a state of another replica count is refused.
#include <gtest/gtest.h>

#include <Kokkos_Core.hpp>
#include <vector>

#include "hamon/core/model/model_builders.hpp"
#include "hamon/core/sampler/checkpoint.hpp"
#include "hamon/core/sampler/sampler.hpp"
#include "resumed_run.hpp"
#include "same_bits.hpp"
#include "same_results.hpp"

namespace {

using hamon_test::expect_same_bits;
using hamon_test::expect_same_results;
using hamon_test::ReferenceSpace;
using hamon_test::resumed_through_checkpoint;

hamon::SpinModel replica_glass() {
  return hamon::make_lattice({6, 6}, true, hamon::ValueDistribution::gaussian(21),
                             hamon::ValueDistribution::gaussian(22, 0.2));
}

/// Every observer on, a fixed ladder (adaptation would see the pooled swap counts).
hamon::NrptOptions replica_run(std::int32_t replicas) {
  hamon::NrptOptions o;
  o.n_chains = 5;
  o.beta_max = 1.2;
  o.burn_in = 50;
  o.n_rounds = 400;
  o.n_expl = 2;
  o.seed = 91;
  o.n_replicas = replicas;
  o.observers.samples_every = 3;
  o.observers.energies = true;
  o.observers.index_process = true;
  o.observers.moments = true;
  o.observers.moment_batches = 4;
  return o;
}

template <class T>
std::vector<T> first(const std::vector<T>& v, std::size_t n) {
  return std::vector<T>(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(n));
}

TEST(TEST_CATEGORY, replicas_replica_zero_is_the_one_replica_run) {
  const auto model = replica_glass();
  const auto one = replica_run(1);
  const auto three = replica_run(3);
  hamon::Sampler<TEST_EXECSPACE> a(TEST_EXECSPACE(), model, one);
  hamon::Sampler<TEST_EXECSPACE> b(TEST_EXECSPACE(), model, three);
  a.run(one.burn_in + one.n_rounds);
  b.run(three.burn_in + three.n_rounds);
  const hamon::NrptResult ra = a.result();
  const hamon::NrptResult rb = b.result();
  const std::size_t n = 5;
  ASSERT_EQ(rb.chain_of_machine.size(), 3 * n);
  ASSERT_EQ(rb.round_trips.size(), 3 * n);
  // The observers record replica 0: the same traces and moments as the one-replica run.
  expect_same_bits(rb.samples, ra.samples, "samples");
  expect_same_bits(rb.energies, ra.energies, "energy trace");
  expect_same_bits(rb.index_process, ra.index_process, "index process");
  expect_same_bits(rb.moments.node_means, ra.moments.node_means, "node means");
  expect_same_bits(rb.final_energies, ra.final_energies, "final energies");
  expect_same_bits(first(rb.chain_of_machine, n), ra.chain_of_machine, "replica 0's permutation");
  expect_same_bits(first(rb.round_trips, n), ra.round_trips, "replica 0's round trips");
  expect_same_bits(first(rb.restarts, n), ra.restarts, "replica 0's restarts");
  const hamon::SamplerState sa = a.state();
  const hamon::SamplerState sb = b.state();
  EXPECT_EQ(sb.n_machines, 15);
  expect_same_bits(first(sb.spins, sa.spins.size()), sa.spins, "replica 0's spins");
  // The counters are pooled: every replica attempts each pair once per pass.
  for (std::size_t i = 0; i < ra.swaps.attempted.size(); ++i) {
    EXPECT_EQ(rb.swaps.attempted[i], 3 * ra.swaps.attempted[i]) << "pair " << i;
  }
  EXPECT_EQ(rb.spin_updates, 3 * ra.spin_updates);
}

TEST(TEST_CATEGORY, replicas_mix_each_on_its_own_ladder) {
  const auto model = replica_glass();
  const auto o = replica_run(3);
  const hamon::NrptResult r = hamon::nrpt(TEST_EXECSPACE(), model, o);
  const std::size_t n = 5;
  for (std::size_t rep = 0; rep < 3; ++rep) {
    std::int64_t trips = 0;
    for (std::size_t k = 0; k < n; ++k) {
      trips += r.round_trips[rep * n + k];
      // Every machine stays in its ladder, at a chain that names it back.
      const std::int32_t c = r.chain_of_machine[rep * n + k];
      ASSERT_GE(c, 0);
      ASSERT_LT(c, 5);
      EXPECT_EQ(r.machine_of_chain[rep * n + static_cast<std::size_t>(c)],
                static_cast<std::int32_t>(rep * n + k));
    }
    EXPECT_GT(trips, 0) << "replica " << rep;
  }
  EXPECT_NEAR(r.tau_observed,
              static_cast<double>(r.total_round_trips) / (3.0 * static_cast<double>(o.n_rounds)),
              1e-15);
  // Independent streams: the replicas' permutations and spins differ.
  hamon::Sampler<TEST_EXECSPACE> s(TEST_EXECSPACE(), model, o);
  s.run(100);
  const hamon::SamplerState state = s.state();
  const std::size_t ladder = n * static_cast<std::size_t>(state.n_nodes);
  const std::vector<std::int8_t> r0(state.spins.begin(), state.spins.begin() + ladder);
  const std::vector<std::int8_t> r1(state.spins.begin() + ladder, state.spins.begin() + 2 * ladder);
  EXPECT_NE(r0, r1);
}

TEST(TEST_CATEGORY, replicas_resume_with_the_same_bits_on_any_space) {
  const auto model = replica_glass();
  auto o = replica_run(2);
  o.adapt_schedule = true;  // the ladder adapts on the pooled counts, in every replica
  o.adapt_phases = 2;
  o.burn_in = 150;
  const hamon::NrptResult reference = hamon::nrpt(ReferenceSpace(), model, o);
  expect_same_results(hamon::nrpt(TEST_EXECSPACE(), model, o), reference);
  for (std::int64_t rounds : {60, 151, 300}) {
    SCOPED_TRACE("saved after round " + std::to_string(rounds));
    expect_same_results(
        resumed_through_checkpoint<TEST_EXECSPACE, ReferenceSpace>(model, o, rounds), reference);
    expect_same_results(
        resumed_through_checkpoint<ReferenceSpace, TEST_EXECSPACE>(model, o, rounds), reference);
  }
}

TEST(TEST_CATEGORY, replicas_refuse_a_state_of_another_count) {
  const auto model = replica_glass();
  const auto two = replica_run(2);
  hamon::Sampler<TEST_EXECSPACE> s(TEST_EXECSPACE(), model, two);
  s.run(20);
  const hamon::Checkpoint c{s.identity(), s.state(), {}};
  // The identity names the replica count ...
  EXPECT_THROW(hamon::Sampler<TEST_EXECSPACE>(TEST_EXECSPACE(), model, replica_run(1), c),
               hamon::CheckpointError);
  // ... and the state's shape does too.
  EXPECT_THROW(hamon::Sampler<TEST_EXECSPACE>(TEST_EXECSPACE(), model, replica_run(1), c.state),
               std::invalid_argument);
  EXPECT_THROW(hamon::Sampler<TEST_EXECSPACE>(TEST_EXECSPACE(), model, replica_run(4), c.state),
               std::invalid_argument);
  // A machine moved into another replica's ladder is refused.
  hamon::SamplerState crossed = c.state;
  const std::int32_t m0 = crossed.machine_of_chain[0];
  const std::int32_t m5 = crossed.machine_of_chain[5];
  crossed.machine_of_chain[0] = m5;
  crossed.machine_of_chain[5] = m0;
  crossed.chain_of_machine[static_cast<std::size_t>(m5)] = 0;
  crossed.chain_of_machine[static_cast<std::size_t>(m0)] = 0;
  EXPECT_THROW(hamon::Sampler<TEST_EXECSPACE>(TEST_EXECSPACE(), model, two, crossed),
               std::invalid_argument);
  EXPECT_NO_THROW(hamon::Sampler<TEST_EXECSPACE>(TEST_EXECSPACE(), model, two, c.state));
}

}  // namespace
