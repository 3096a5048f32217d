// SPDX-License-Identifier: Apache-2.0
// What a sampler allocates in its execution space, seen through Kokkos's allocation hooks
// (allocation_log.hpp): trace chunks no longer than the run writes, and a run continued
// past its plan that grows them without changing a bit.
#include <gtest/gtest.h>

#include <Kokkos_Core.hpp>
#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "allocation_log.hpp"
#include "hamon/core/impl/sampler_impl.hpp"
#include "hamon/core/model_builders.hpp"
#include "hamon/core/sampler.hpp"
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

}  // namespace
