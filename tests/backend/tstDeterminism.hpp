// SPDX-License-Identifier: Apache-2.0
// Bit-identity: the same run in TEST_EXECSPACE and in the Serial reference gives the same
// samples, energies, swap decisions and statistics, bit for bit. CTest runs the OpenMP
// binary with 1 and 2 threads, so thread count is covered too.
#include <gtest/gtest.h>

#include <Kokkos_Core.hpp>
#include <cstring>

#include "hamon/core/model/model_builders.hpp"
#include "hamon/core/sampler/nrpt.hpp"
#include "same_bits.hpp"

namespace {

using hamon_test::expect_same_bits;
using hamon_test::ReferenceSpace;

TEST(TEST_CATEGORY, determinism_matches_serial_bit_for_bit) {
  const auto model = hamon::make_lattice({10, 10}, true, hamon::ValueDistribution::gaussian(2),
                                         hamon::ValueDistribution::gaussian(3, 0.1));
  hamon::NrptOptions o;
  o.n_chains = 7;  // not a multiple of the 4 machines per random draw
  o.beta_max = 1.5;
  o.n_rounds = 300;
  o.burn_in = 200;
  o.n_expl = 3;
  o.seed = 20261130;
  o.adapt_schedule = true;
  o.observers.samples_every = 3;
  o.observers.energies = true;
  o.observers.moments = true;
  o.observers.moment_batches = 10;
  const auto here = hamon::nrpt(TEST_EXECSPACE(), model, o);
  const auto reference = hamon::nrpt(ReferenceSpace(), model, o);
  expect_same_bits(here.betas, reference.betas, "betas");
  expect_same_bits(here.swaps.accepted, reference.swaps.accepted, "accepted swaps");
  expect_same_bits(here.round_trips, reference.round_trips, "round trips");
  expect_same_bits(here.restarts, reference.restarts, "restarts");
  expect_same_bits(here.machine_of_chain, reference.machine_of_chain, "permutation");
  expect_same_bits(here.samples, reference.samples, "samples");
  expect_same_bits(here.energies, reference.energies, "energies");
  expect_same_bits(here.final_energies, reference.final_energies, "final energies");
  expect_same_bits(here.best_energies, reference.best_energies, "best energies");
  expect_same_bits(here.best_state, reference.best_state, "best state");
  EXPECT_EQ(here.best_round, reference.best_round);
  expect_same_bits(here.moments.node_means, reference.moments.node_means, "node means");
  expect_same_bits(here.moments.edge_means_stderr, reference.moments.edge_means_stderr,
                   "edge stderr");
  EXPECT_EQ(here.moments.energy_per_node.mean, reference.moments.energy_per_node.mean);
  EXPECT_GT(here.total_round_trips + here.swaps.accepted[0], 0);
}

TEST(TEST_CATEGORY, determinism_in_parallel_kernels_matches_serial) {
  // Big enough that host kernels run in parallel rather than on the calling thread
  // (launch.hpp): a 3D +-J glass with fields (register path) and a 2D Gaussian glass
  // (portable loops with exp), against the Serial reference.
  for (const bool gaussian : {false, true}) {
    const auto model =
        gaussian ? hamon::make_lattice({64, 48}, true, hamon::ValueDistribution::gaussian(8),
                                       hamon::ValueDistribution::gaussian(9, 0.2))
                 : hamon::make_lattice({16, 16, 16}, true, hamon::ValueDistribution::pm_one(8),
                                       hamon::ValueDistribution::pm_one(9));
    hamon::NrptOptions o;
    o.n_chains = gaussian ? 20 : 9;
    o.beta_max = 1.2;
    o.n_rounds = 30;
    o.burn_in = 10;
    o.n_expl = 2;
    o.seed = 5;
    o.observers.samples_every = 5;
    o.observers.energies = true;
    const auto here = hamon::nrpt(TEST_EXECSPACE(), model, o);
    const auto reference = hamon::nrpt(ReferenceSpace(), model, o);
    expect_same_bits(here.samples, reference.samples, "samples");
    expect_same_bits(here.energies, reference.energies, "energies");
    expect_same_bits(here.swaps.accepted, reference.swaps.accepted, "accepted swaps");
  }
}

TEST(TEST_CATEGORY, determinism_different_seeds_differ) {
  // Ising spins and q = 3 Potts states.
  for (const auto& model :
       {hamon::make_lattice({8, 8}, true), hamon::make_potts_lattice({8, 8}, true, 3)}) {
    hamon::NrptOptions o;
    o.n_chains = 4;
    o.n_rounds = 50;
    o.observers.samples_every = 1;
    o.seed = 1;
    const auto a = hamon::nrpt(TEST_EXECSPACE(), model, o);
    o.seed = 2;
    const auto b = hamon::nrpt(TEST_EXECSPACE(), model, o);
    EXPECT_NE(a.samples, b.samples);
  }
}

}  // namespace

namespace {

TEST(TEST_CATEGORY, determinism_acceptance_table_matches_exp_path) {
  // Integer couplings and fields: the sweep looks heat-bath factors up in a table. The
  // same run with the table switched off (exp evaluated per update) gives the same bits.
  const auto model = hamon::make_lattice({8, 8}, true, hamon::ValueDistribution::pm_one(4),
                                         hamon::ValueDistribution::constant(1.0));
  TEST_EXECSPACE space;
  const auto with_table = hamon::make_device_model(space, model);
  ASSERT_EQ(with_table.integer_field_bound, 5);
  auto without_table = with_table;
  without_table.integer_field_bound = -1;
  hamon::NrptOptions o;
  o.n_chains = 5;
  o.beta_max = 1.2;
  o.n_rounds = 200;
  o.n_expl = 2;
  o.seed = 99;
  o.observers.samples_every = 2;
  o.observers.energies = true;
  const auto a = hamon::nrpt(space, with_table, o);
  const auto b = hamon::nrpt(space, without_table, o);
  expect_same_bits(a.samples, b.samples, "samples");
  expect_same_bits(a.energies, b.energies, "energies");
  expect_same_bits(a.swaps.accepted, b.swaps.accepted, "accepted swaps");
}

}  // namespace

namespace {

hamon::NrptResult run_lattice(const hamon::DeviceModel<TEST_EXECSPACE::memory_space>& model) {
  hamon::NrptOptions o;
  o.n_chains = 7;
  o.beta_max = 1.0;
  o.n_rounds = 150;
  o.n_expl = 2;
  o.seed = 5;
  o.observers.samples_every = 3;
  o.observers.energies = true;
  return hamon::nrpt(TEST_EXECSPACE(), model, o);
}

TEST(TEST_CATEGORY, determinism_lattice_fast_path_matches_general_path) {
  // Periodic 2D and 3D lattices with integer couplings and fields take the lattice fast
  // path (implicit neighbours); with it switched off the general CSR path runs. Same bits.
  TEST_EXECSPACE space;
  for (const auto& extents : {std::vector<int>{6, 8}, std::vector<int>{4, 4, 6}}) {
    const auto model = hamon::make_lattice(extents, true, hamon::ValueDistribution::pm_one(8),
                                           hamon::ValueDistribution::pm_one(9));
    const auto fast = hamon::make_device_model(space, model);
    ASSERT_TRUE(fast.lattice.enabled);
    auto general = fast;
    general.lattice.enabled = false;
    const auto a = run_lattice(fast);
    const auto b = run_lattice(general);
    expect_same_bits(a.samples, b.samples, "samples");
    expect_same_bits(a.energies, b.energies, "energies");
    expect_same_bits(a.swaps.accepted, b.swaps.accepted, "accepted swaps");
  }
  // Not applicable: odd extent, Gaussian couplings, open boundaries, clamps.
  EXPECT_FALSE(hamon::make_device_model(space, hamon::make_lattice({5, 6}, true)).lattice.enabled);
  EXPECT_FALSE(hamon::make_device_model(
                   space, hamon::make_lattice({6, 6}, true, hamon::ValueDistribution::gaussian(1)))
                   .lattice.enabled);
  EXPECT_FALSE(hamon::make_device_model(space, hamon::make_lattice({6, 6}, false)).lattice.enabled);
}

TEST(TEST_CATEGORY, determinism_potts_weight_table_and_lattice_path_match_the_general_paths) {
  // A q = 3 Potts lattice with integer couplings and fields: weights come from a per-chain
  // table and neighbours from the lattice fast path. With the table off
  // (integer_field_bound = -1: the deterministic exp per update) or the fast path off (the
  // CSR loops): same bits.
  hamon::PottsFields integer;
  integer.uniform = {1.0, 0.0, 0.0};
  TEST_EXECSPACE space;
  const auto fast = hamon::make_device_model(
      space,
      hamon::make_potts_lattice({6, 8}, true, 3, hamon::ValueDistribution::pm_one(5), integer));
  ASSERT_GE(fast.integer_field_bound, 0);
  ASSERT_TRUE(fast.lattice.enabled);
  const auto reference = run_lattice(fast);
  auto without_table = fast;
  without_table.integer_field_bound = -1;
  auto general = fast;
  general.lattice.enabled = false;
  for (const auto& other : {run_lattice(without_table), run_lattice(general)}) {
    expect_same_bits(other.samples, reference.samples, "samples");
    expect_same_bits(other.energies, reference.energies, "energies");
    expect_same_bits(other.swaps.accepted, reference.swaps.accepted, "accepted swaps");
  }
}

}  // namespace
