// SPDX-License-Identifier: Apache-2.0
// What a sampler allocates in its execution space, seen through Kokkos's allocation hooks
// (allocation_log.hpp): trace chunks no longer than the run writes, a run continued past
// its plan that grows them without changing a bit, and the memory check's count of the
// sampler's allocations (sampler/detail/space_memory.hpp), which is the peak of what it
// really holds, for every family and decision table.
#include <gtest/gtest.h>

#include <Kokkos_Core.hpp>
#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "allocation_log.hpp"
#include "hamon/core/families/model_families.hpp"
#include "hamon/core/model/device_model.hpp"
#include "hamon/core/model/model_builders.hpp"
#include "hamon/core/sampler/detail/sampler_impl.hpp"
#include "hamon/core/sampler/detail/space_memory.hpp"
#include "hamon/core/sampler/sampler.hpp"
#include "library_instantiations.hpp"
#include "same_bits.hpp"

namespace {

using hamon_test::AllocationLog;
using hamon_test::expect_same_bits;

/// A 32 x 32 lattice (1024 nodes) recording every trace of `rounds` measured rounds.
hamon::NrptOptions traced_run(std::int64_t rounds) {
  hamon::NrptOptions o;
  o.n_chains = 4;
  o.beta_max = 0.4;
  o.burn_in = 5;
  o.n_rounds = rounds;
  o.observers.samples_every = 1;
  o.observers.energies = true;
  o.observers.index_process = true;
  return o;
}

TEST(TEST_CATEGORY, trace_chunks_hold_no_more_rows_than_the_run_writes) {
  const auto model = hamon::make_lattice({32, 32}, true);
  for (const std::int64_t rounds : {std::int64_t(3), std::int64_t(5000)}) {
    SCOPED_TRACE(std::to_string(rounds) + " rounds");
    const hamon::NrptOptions o = traced_run(rounds);
    AllocationLog log;
    hamon::Sampler<TEST_EXECSPACE> s(TEST_EXECSPACE(), model, o);
    const std::int64_t rows = std::min<std::int64_t>(rounds, hamon::detail::kTraceChunkRows);
    EXPECT_EQ(log.sizes_of("hamon::samples_chunk"), std::vector<std::int64_t>{rows * 1024});
    EXPECT_EQ(log.sizes_of("hamon::energy_chunk"), std::vector<std::int64_t>{rows * 4 * 8});
    EXPECT_EQ(log.sizes_of("hamon::index_chunk"), std::vector<std::int64_t>{rows * 4 * 4});
  }
}

TEST(TEST_CATEGORY, a_run_past_its_plan_grows_its_chunks_and_keeps_its_bits) {
  const auto model = hamon::make_lattice({32, 32}, true);
  const std::int64_t planned = 3, run = 40;
  const hamon::NrptResult longer = hamon::nrpt(TEST_EXECSPACE(), model, traced_run(run));
  const hamon::NrptOptions o = traced_run(planned);
  AllocationLog log;
  hamon::Sampler<TEST_EXECSPACE> s(TEST_EXECSPACE(), model, o);
  s.run(o.burn_in + run);
  const hamon::NrptResult r = s.result();
  // 3 rows, then chunks of 6, 12, 24: the run flushes when each fills.
  EXPECT_EQ(log.sizes_of("hamon::samples_chunk"),
            (std::vector<std::int64_t>{3 * 1024, 6 * 1024, 12 * 1024, 24 * 1024}));
  EXPECT_EQ(r.n_samples, run);
  expect_same_bits(r.samples, longer.samples, "samples");
  expect_same_bits(r.energies, longer.energies, "energies");
  expect_same_bits(r.index_process, longer.index_process, "index process");
}

/// The peak of the bytes a sampler holds in its memory space (from building the model to
/// its result and state) and the memory check's count of them.
struct Counted {
  std::int64_t peak = 0;
  std::int64_t allocations = 0;
  double estimate = 0.0;
  std::string listing;
};

Counted count_sampler(const hamon::SpinModel& model, const hamon::NrptOptions& o) {
  using memory_space = TEST_EXECSPACE::memory_space;
  const auto device_model = hamon::make_device_model(TEST_EXECSPACE(), model);
  const auto family = hamon::detail::family_of<TEST_EXECSPACE>(device_model);
  const auto n_chains = static_cast<std::int32_t>(hamon::ladder_of(o).size());
  Counted c;
  for (const auto& part : hamon::detail::sampler_space_parts<std::int8_t>(
           device_model, o, n_chains, hamon::MachineBlock{0, n_chains},
           family.node_columns(device_model), family.table_bytes(device_model, n_chains))) {
    c.estimate += part.bytes;
    c.listing += std::string("counted ") + part.what + ": " +
                 std::to_string(static_cast<std::int64_t>(part.bytes)) + "\n";
  }
  AllocationLog log;
  {
    hamon::Sampler<TEST_EXECSPACE> s(TEST_EXECSPACE(), model, o);
    s.run(o.burn_in + o.n_rounds);
    s.result();
    s.state();
  }
  c.peak = log.peak_bytes(memory_space::name());
  c.allocations = log.allocations();
  c.listing += log.listing();
  return c;
}

TEST(TEST_CATEGORY, the_memory_check_counts_what_the_sampler_allocates) {
  struct Case {
    const char* name;
    hamon::SpinModel model;
    bool observed;
  };
  const std::vector<Case> cases = {
      {"real couplings (field boundaries)",
       hamon::make_lattice({12, 10}, true, hamon::ValueDistribution::gaussian(3),
                           hamon::ValueDistribution::gaussian(4, 0.2)),
       true},
      {"+-1 lattice (thresholds, lattice tables)",
       hamon::make_lattice({16, 16}, true, hamon::ValueDistribution::pm_one(5)), true},
      {"+-1 lattice, nothing recorded",
       hamon::make_lattice({16, 16}, true, hamon::ValueDistribution::pm_one(5)), false},
      {"Potts (weights, state counts)",
       hamon::make_potts_lattice({6, 8}, true, 4, hamon::ValueDistribution::pm_one(5),
                                 hamon::PottsFields{{1.0, 0.0, -1.0, 2.0}, std::nullopt}),
       true}};
  for (const Case& k : cases) {
    SCOPED_TRACE(k.name);
    hamon::NrptOptions o = traced_run(60);
    o.n_chains = 20;
    o.observers.samples_every = k.observed ? 3 : 0;
    o.observers.energies = k.observed;
    o.observers.index_process = k.observed;
    o.observers.moments = k.observed;
    o.observers.magnetization = k.observed;
    o.observers.moment_batches = 4;
    const Counted c = count_sampler(k.model, o);
    // Kokkos reports a View's data (rounded up to 8 bytes); the count adds each View's
    // 128-byte header, which Kokkos leaves out of its report (but for an empty View).
    EXPECT_GT(c.peak, 0);
    EXPECT_GE(c.estimate, static_cast<double>(c.peak)) << c.listing;
    EXPECT_LE(c.estimate, static_cast<double>(c.peak + 128 * c.allocations)) << c.listing;
  }
}

TEST(TEST_CATEGORY, a_sampler_that_does_not_fit_is_refused_before_it_allocates) {
  // 256 x 256 nodes, 16 chains, 3 sample rows: validate_options counts the spins and the
  // recorded traces (about 1.4 MiB); the sampler also holds the model (about 5.5 MiB).
  const auto model = hamon::make_lattice({256, 256}, true);
  hamon::NrptOptions o = traced_run(3);
  o.n_chains = 16;
  ::setenv("HAMON_MEMORY_LIMIT", "3M", 1);
  EXPECT_NO_THROW(hamon::validate_options(o, model.n_nodes()));
  AllocationLog log;
  try {
    hamon::Sampler<TEST_EXECSPACE> s(TEST_EXECSPACE(), model, o);
    ADD_FAILURE() << "a sampler of about 7 MiB accepted under a 3 MiB limit";
  } catch (const std::invalid_argument& e) {
    const std::string message = e.what();
    for (const char* word : {"the sampler in", "needs", "model", "spins", "HAMON_MEMORY_LIMIT"}) {
      EXPECT_NE(message.find(word), std::string::npos) << word << " in " << message;
    }
  }
  ::unsetenv("HAMON_MEMORY_LIMIT");
  EXPECT_TRUE(log.sizes_of("hamon::spins").empty()) << "the state was allocated";
  EXPECT_TRUE(log.sizes_of("hamon::samples_chunk").empty()) << "a chunk was allocated";
}

}  // namespace
