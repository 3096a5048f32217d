// SPDX-License-Identifier: Apache-2.0
// Guards against models the fast paths would get wrong: a periodic lattice extent below 3
// (the lattice fast path would count its bonds twice), and energies far from the unit
// scale (the fixed-point accumulation must keep a resolution relative to the model's
// magnitude, and refuse what a double cannot hold).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "hamon/core/families/family_facts.hpp"
#include "hamon/core/model/colouring.hpp"
#include "hamon/core/model/device_model.hpp"
#include "hamon/core/model/lattice_geometry.hpp"
#include "hamon/core/model/model_builders.hpp"
#include "hamon/core/util/memory_limit.hpp"
#include "hamon/policies/dispatch.hpp"
#include "hamon/policies/resolve_device.hpp"

namespace {

using hamon::SpinModel;

TEST(LatticeFastPath, needs_every_periodic_extent_at_least_three) {
  EXPECT_TRUE(hamon::detail::lattice_tables(hamon::make_lattice({4, 4}, true), 64).applies);
  EXPECT_TRUE(hamon::detail::lattice_tables(hamon::make_lattice({4, 4, 4}, true), 64).applies);
  // A periodic 2 x 4 lattice: along the extent of 2 the + and - neighbours are one node,
  // so the model has one bond where the fast path would walk two. make_lattice refuses
  // the shape; a hand-made model can still claim it, with 4 extra (non-lattice) bonds
  // (x, 0)-(x + 2, 1) making up the edge count the fast path checks. It must take the
  // general path.
  std::vector<hamon::Edge> edges;
  for (std::int64_t x = 0; x < 4; ++x) {
    edges.push_back({x, (x + 1) % 4, 1.0});          // row 0
    edges.push_back({4 + x, 4 + (x + 1) % 4, 1.0});  // row 1
    edges.push_back({x, 4 + x, 1.0});                // across the extent of 2
    edges.push_back({x, 4 + (x + 2) % 4, 1.0});      // not a lattice bond
  }
  const SpinModel fake = SpinModel::from_edges(8, edges)
                             .with_blocks(hamon::checkerboard_colouring({2, 4}, true))
                             .with_lattice_shape({{2, 4}, true});
  ASSERT_EQ(fake.n_edges(), 16);
  EXPECT_FALSE(hamon::detail::lattice_tables(fake, 64).applies);
}

// Scales every coupling and field of `model` by `factor`.
SpinModel scaled(const SpinModel& model, double factor) {
  std::vector<hamon::Edge> edges = model.edges();
  for (hamon::Edge& e : edges) e.coupling *= factor;
  std::vector<double> fields = model.fields();
  for (double& h : fields) h *= factor;
  return SpinModel::from_edges(model.n_nodes(), edges, fields);
}

TEST(FixedPointEnergies, resolution_is_relative_to_the_model_magnitude) {
  // A Gaussian glass with fields, scaled from 1e-15 to 1e19 (beyond 2^61 ~ 2.3e18, where a
  // 40-bit fixed point overflowed silently): every recorded energy must equal the host
  // reference energy of the recorded state to 1e-12 of the model's magnitude (the
  // fixed-point rounding is 2^-61 of it per node; doubles add ~1e-16 relative).
  const SpinModel base = hamon::make_lattice({4, 4}, false, hamon::ValueDistribution::gaussian(3),
                                             hamon::ValueDistribution::gaussian(4, 0.5));
  for (double factor : {1e-15, 1.0, 1e19}) {
    SCOPED_TRACE(factor);
    const SpinModel model = scaled(base, factor);
    hamon::NrptOptions o;
    o.betas = {1.0 / factor};
    o.n_rounds = 50;
    o.seed = 9;
    o.observers.samples_every = 1;
    o.observers.energies = true;
    const auto r =
        hamon::routed_nrpt(model, o, hamon::DeviceSpec::backend(hamon::Placement::serial)).result;
    ASSERT_EQ(r.n_samples, 50);
    const auto n = static_cast<std::size_t>(model.n_nodes());
    for (std::int64_t s = 0; s < r.n_samples; ++s) {
      const std::vector<std::int8_t> spins(
          r.samples.begin() + static_cast<std::ptrdiff_t>(s * n),
          r.samples.begin() + static_cast<std::ptrdiff_t>((s + 1) * n));
      EXPECT_NEAR(r.energies[static_cast<std::size_t>(s)], model.energy(spins),
                  1e-12 * model.magnitude())
          << "sample " << s;
    }
  }
  EXPECT_LT(hamon::detail::energy_fraction_bits_for(scaled(base, 1e19)), 0);
  EXPECT_GT(hamon::detail::energy_fraction_bits_for(scaled(base, 1e-15)), 100);
}

TEST(FixedPointEnergies, a_model_beyond_a_double_is_refused) {
  const std::vector<hamon::Edge> edges = {{0, 1, 1.5e308}, {1, 2, 1.5e308}};
  try {
    (void)SpinModel::from_edges(3, edges);
    FAIL() << "accepted a model whose energy scale overflows";
  } catch (const hamon::ModelError& error) {
    EXPECT_NE(std::string(error.what()).find("overflows a double"), std::string::npos)
        << error.what();
  }
}

TEST(Limits, a_run_that_cannot_fit_is_refused_before_allocating) {
  // 128 chains x 2^31 rounds of recorded energies: 2^31 * 128 * 8 B = 2 TiB, twice; no
  // test machine has that, so validate_options (called before any allocation) refuses it
  // saying how much it needs, for what, and how much there is.
  hamon::NrptOptions o;
  o.n_chains = 128;
  o.n_rounds = std::int64_t{1} << 31;
  o.observers.energies = true;
  try {
    hamon::validate_options(o, 64);
    FAIL() << "accepted a run of 4 TiB";
  } catch (const std::invalid_argument& error) {
    const std::string message = error.what();
    for (const char* word : {"needs", "energies", "GiB", "this machine has"}) {
      EXPECT_NE(message.find(word), std::string::npos) << word << " in " << message;
    }
  }
  o.observers.energies = false;  // 128 x 64 spins: fits anywhere
  EXPECT_NO_THROW(hamon::validate_options(o, 64));
}

TEST(Limits, real_values_are_counted_at_their_size) {
  // A 32 x 32 Gaussian's samples, every round of 100,000 kept: 1024 doubles a row, twice
  // (the sampler's copy and the result's) = 1.53 GiB. Counted at a spin's byte, the refusal
  // said 0.191 GiB, and a run without a trace sink could be admitted and run out of memory.
  hamon::NrptOptions o;
  o.n_chains = 6;
  o.n_rounds = 100000;
  o.observers.samples_every = 1;
  const auto gaussian = hamon::SpinModel::gaussian(2, {}, {1.0, 1.0});
  EXPECT_EQ(hamon::family_facts(gaussian).value_bytes, sizeof(double));
  EXPECT_EQ(hamon::family_facts(hamon::make_lattice({4, 4}, true)).value_bytes, 1U);
  ::setenv("HAMON_MEMORY_LIMIT", "100M", 1);
  for (const auto& [bytes, figure] :
       {std::pair<std::size_t, const char*>{8, "8 B, twice) 1.53 GiB"},
        {1, "1 B, twice) 0.191 GiB"}}) {
    try {
      hamon::validate_options(o, 1024, bytes);
      ADD_FAILURE() << "accepted under a 100 MiB limit";
    } catch (const std::invalid_argument& error) {
      EXPECT_NE(std::string(error.what()).find(figure), std::string::npos) << error.what();
    }
  }
  ::unsetenv("HAMON_MEMORY_LIMIT");
}

TEST(Limits, sweeps_per_round_stay_in_their_counter_domain) {
  // Sweep s of a round draws at sweep word s, a Potts update at s | 2^29, a tie's low bits
  // at s | 2^30: 2^29 sweeps are the most whose words are all distinct (the sweep 2^29
  // would draw a Potts run's numbers, the sweep 2^30 the ties of sweep 0).
  hamon::NrptOptions o;
  o.n_expl = std::int32_t{1} << 29;
  EXPECT_NO_THROW(hamon::validate_options(o, 64));
  for (const std::int32_t n_expl : {(std::int32_t{1} << 29) + 1, (std::int32_t{1} << 30) + 1}) {
    o.n_expl = n_expl;
    try {
      hamon::validate_options(o, 64);
      ADD_FAILURE() << "n_expl " << n_expl << " accepted";
    } catch (const std::invalid_argument& error) {
      EXPECT_NE(std::string(error.what()).find("n_expl must be in [1, 2^29]"), std::string::npos)
          << error.what();
    }
  }
}

TEST(Limits, the_memory_limit_can_be_set_and_is_checked) {
  // HAMON_MEMORY_LIMIT replaces the physical memory as the limit (and is named in the
  // refusal); an invalid value is an error wherever it is read, also through routing.
  hamon::NrptOptions o;
  o.n_chains = 8;
  o.n_rounds = 1 << 24;  // 2^24 x 8 x 16 B = 2 GiB of energies
  o.observers.energies = true;
  ::setenv("HAMON_MEMORY_LIMIT", "1G", 1);
  try {
    hamon::validate_options(o, 64);
    ADD_FAILURE() << "2 GiB accepted under a 1 GiB limit";
  } catch (const std::invalid_argument& error) {
    EXPECT_NE(std::string(error.what()).find("HAMON_MEMORY_LIMIT allows 1 GiB"), std::string::npos)
        << error.what();
  }
  // The graph reader refuses a declared node count before allocating for it (a libFuzzer
  // finding: "nodes 222222228" made it allocate gigabytes for a 30-byte file).
  const std::string path = ::testing::TempDir() + "hamon_huge_graph.txt";
  {
    std::ofstream out(path);
    out << "nodes 222222228\nedge 3 1 1.\n";
  }
  try {
    (void)hamon::read_graph_file(path);
    ADD_FAILURE() << "a 14 GB model accepted under a 1 GiB limit";
  } catch (const hamon::ModelError& error) {
    EXPECT_NE(std::string(error.what()).find(":1: a model of 222222228 nodes needs"),
              std::string::npos)
        << error.what();
  }
  ::setenv("HAMON_MEMORY_LIMIT", "lots", 1);
  EXPECT_THROW(hamon::validate_options(o, 64), std::invalid_argument);
  EXPECT_THROW(hamon::check_environment(), std::invalid_argument);
  ::setenv("HAMON_MEMORY_LIMIT", "1T", 1);
  EXPECT_EQ(hamon::memory_limit_bytes(), 1099511627776.0);
  ::unsetenv("HAMON_MEMORY_LIMIT");
  EXPECT_GT(hamon::memory_limit_bytes(), 0.0);  // the physical memory
}

}  // namespace
