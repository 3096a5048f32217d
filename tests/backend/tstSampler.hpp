// SPDX-License-Identifier: Apache-2.0
// The resumable sampler (hamon/core/sampler/sampler.hpp): its contracts, on every space and (CTest
// runs OpenMP with 1 and 2 threads) thread count:
//   run(a); run(b) == run(a + b), for splits inside burn-in, adaptation and measurement;
//   state() -> checkpoint bytes -> a new Sampler -> run == never stopping, on this space
//   and across spaces (Serial <-> TEST_EXECSPACE);
//   traces handed to a TraceSink in chunks == the traces kept in memory;
//   the index process counts no pseudo round trips from the initial permutation.
#include <gtest/gtest.h>

#include <Kokkos_Core.hpp>
#include <cstring>
#include <sstream>

#include "hamon/core/model/model_builders.hpp"
#include "hamon/core/sampler/checkpoint.hpp"
#include "hamon/core/sampler/detail/sampler_impl.hpp"
#include "hamon/core/sampler/sampler.hpp"
#include "library_instantiations.hpp"
#include "same_bits.hpp"
#include "same_results.hpp"

namespace {

using hamon_test::expect_same_bits;
using hamon_test::expect_same_results;
using hamon_test::ReferenceSpace;

/// A glass with fields (real couplings: the exp path) and every observer on, with
/// adaptation (updates at rounds 50, 100; settling 100..150; measurement from 150).
hamon::SpinModel glass() {
  return hamon::make_lattice({6, 6}, true, hamon::ValueDistribution::gaussian(11),
                             hamon::ValueDistribution::gaussian(12, 0.2));
}

hamon::NrptOptions observed_run() {
  hamon::NrptOptions o;
  o.n_chains = 5;
  o.beta_max = 1.2;
  o.burn_in = 150;
  o.n_rounds = 500;
  o.n_expl = 2;
  o.seed = 77;
  o.adapt_schedule = true;
  o.adapt_phases = 4;
  o.observers.samples_every = 3;
  o.observers.energies = true;
  o.observers.index_process = true;
  o.observers.moments = true;
  o.observers.moment_batches = 4;  // 4..8 batches: several doublings in 500 rounds
  return o;
}

TEST(TEST_CATEGORY, sampler_split_runs_give_the_same_bits) {
  const auto model = glass();
  const auto o = observed_run();
  hamon::Sampler<TEST_EXECSPACE> whole(TEST_EXECSPACE(), model, o);
  whole.run(o.burn_in + o.n_rounds);
  const hamon::NrptResult reference = whole.result();
  EXPECT_EQ(reference.n_rounds, o.n_rounds);
  EXPECT_EQ(reference.moments.n_samples, o.n_rounds);
  // Splits inside an adaptation segment, at a ladder update, in settling, at the start of
  // measurement, inside measurement, and one round at a time for a stretch.
  for (const std::vector<std::int64_t>& pieces :
       {std::vector<std::int64_t>{37, 13, 50, 49, 1, 500}, std::vector<std::int64_t>{150, 250, 250},
        std::vector<std::int64_t>{1, 1, 1, 1, 646}, std::vector<std::int64_t>{649, 1}}) {
    hamon::Sampler<TEST_EXECSPACE> split(TEST_EXECSPACE(), model, o);
    for (std::int64_t n : pieces) {
      EXPECT_EQ(split.run(n), n);
      (void)split.result();  // result() at any time changes nothing
    }
    EXPECT_EQ(split.rounds_done(), o.burn_in + o.n_rounds);
    expect_same_results(split.result(), reference);
  }
}

TEST(TEST_CATEGORY, sampler_nrpt_is_the_sampler_run_to_the_end) {
  const auto model = glass();
  const auto o = observed_run();
  hamon::Sampler<TEST_EXECSPACE> sampler(TEST_EXECSPACE(), model, o);
  sampler.run(o.burn_in + o.n_rounds);
  expect_same_results(sampler.result(), hamon::nrpt(TEST_EXECSPACE(), model, o));
}

TEST(TEST_CATEGORY, sampler_stops_when_asked_and_continues) {
  const auto model = glass();
  const auto o = observed_run();
  hamon::Sampler<TEST_EXECSPACE> a(TEST_EXECSPACE(), model, o);
  std::int64_t calls = 0;
  EXPECT_EQ(a.run(600, [&calls]() { return ++calls == 123; }), 123);
  EXPECT_EQ(a.rounds_done(), 123);
  a.run(o.burn_in + o.n_rounds - 123);
  expect_same_results(a.result(), hamon::nrpt(TEST_EXECSPACE(), model, o));
}

/// Saves after `first` rounds through the checkpoint format, continues in `To`.
template <class From, class To>
hamon::NrptResult saved_and_continued(const hamon::SpinModel& model, const hamon::NrptOptions& o,
                                      std::int64_t first) {
  hamon::Checkpoint c;
  {
    hamon::Sampler<From> before(From(), model, o);
    before.run(first);
    c.identity = hamon::identity_of(model, o);
    c.state = before.state();
  }
  std::stringstream bytes;
  hamon::write_checkpoint(bytes, c);
  const hamon::Checkpoint back = hamon::read_checkpoint(bytes, "in memory");
  hamon::check_identity(back.identity, hamon::identity_of(model, o), "in memory");
  hamon::Sampler<To> after(To(), model, o, back.state);
  EXPECT_EQ(after.rounds_done(), first);
  after.run(o.burn_in + o.n_rounds - first);
  return after.result();
}

TEST(TEST_CATEGORY, sampler_from_a_checkpoint_checks_its_identity) {
  const auto model = glass();
  const auto o = observed_run();
  // identity() names the host model whether the sampler got it on the host or in the
  // execution space, so either kind resumes the other's checkpoints.
  hamon::Sampler<TEST_EXECSPACE> from_host(TEST_EXECSPACE(), model, o);
  const auto device_model = hamon::make_device_model(TEST_EXECSPACE(), model);
  hamon::Sampler<TEST_EXECSPACE> from_views(TEST_EXECSPACE(), device_model, o);
  const hamon::CheckpointIdentity expected = hamon::identity_of(model, o);
  for (const hamon::SamplerBase* s : {&from_host, &from_views}) {
    EXPECT_NO_THROW(hamon::check_identity(s->identity(), expected, "identity()"));
    EXPECT_EQ(s->identity().model_fingerprint, expected.model_fingerprint);
  }
  from_host.run(75);
  const hamon::Checkpoint c{from_host.identity(), from_host.state(), {}};
  auto refusal = [&](const hamon::SpinModel& m, const hamon::NrptOptions& options) {
    try {
      hamon::Sampler<TEST_EXECSPACE> resumed(TEST_EXECSPACE(), m, options, c);
    } catch (const hamon::CheckpointError& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  auto other_seed = o;
  other_seed.seed += 1;
  EXPECT_NE(refusal(model, other_seed).find("the checkpoint: the sampling options"),
            std::string::npos);
  const auto other_model = hamon::make_lattice({6, 6}, true, hamon::ValueDistribution::gaussian(13),
                                               hamon::ValueDistribution::gaussian(12, 0.2));
  EXPECT_NE(refusal(other_model, o).find("the model"), std::string::npos);
  auto longer = o;
  longer.n_rounds += 100;  // the planned length shapes no bits
  EXPECT_EQ(refusal(model, longer), "");
  // Accepted, it continues with the bits of a run that never stopped.
  hamon::Sampler<TEST_EXECSPACE> resumed(TEST_EXECSPACE(), device_model, o, c);
  EXPECT_EQ(resumed.rounds_done(), 75);
  resumed.run(o.burn_in + o.n_rounds - 75);
  expect_same_results(resumed.result(), hamon::nrpt(TEST_EXECSPACE(), model, o));
}

TEST(TEST_CATEGORY, sampler_state_continues_with_the_same_bits_on_any_space) {
  const auto model = glass();
  const auto o = observed_run();
  const hamon::NrptResult reference = hamon::nrpt(ReferenceSpace(), model, o);
  for (std::int64_t first : {0, 75, 100, 150, 151, 400}) {
    SCOPED_TRACE("saved after round " + std::to_string(first));
    expect_same_results(saved_and_continued<TEST_EXECSPACE, TEST_EXECSPACE>(model, o, first),
                        reference);
    expect_same_results(saved_and_continued<TEST_EXECSPACE, ReferenceSpace>(model, o, first),
                        reference);
    expect_same_results(saved_and_continued<ReferenceSpace, TEST_EXECSPACE>(model, o, first),
                        reference);
  }
}

TEST(TEST_CATEGORY, sampler_lattice_fast_path_resumes_too) {
  // A +-J lattice takes the lattice fast path with integer thresholds.
  const auto model = hamon::make_lattice({8, 8}, true, hamon::ValueDistribution::pm_one(5));
  auto o = observed_run();
  o.n_chains = 9;
  const hamon::NrptResult reference = hamon::nrpt(ReferenceSpace(), model, o);
  expect_same_results(saved_and_continued<TEST_EXECSPACE, ReferenceSpace>(model, o, 333),
                      reference);
}

TEST(TEST_CATEGORY, sampler_potts_splits_and_resumes_with_the_same_bits) {
  // q-state models keep every contract above: a q = 3 Potts glass with general matrices,
  // drawn fields and a clamp (exp path), and a q = 4 ferromagnet with integer fields.
  hamon::PottsFields drawn;
  drawn.drawn = hamon::ValueDistribution::gaussian(13, 0.3);
  const auto glass3 =
      hamon::make_potts_lattice({6, 6}, true, 3, hamon::ValueDistribution::gaussian(11), drawn);
  std::vector<hamon::CouplingMatrix> matrices;
  std::vector<hamon::Edge> edges;
  for (std::size_t e = 0; e < glass3.edges().size(); ++e) {
    const auto& edge = glass3.edges()[e];
    if (e % 4 != 0) {
      edges.push_back(edge);
      continue;
    }
    std::vector<double> w(9);
    for (std::size_t k = 0; k < 9; ++k) w[k] = edge.coupling * (k % 4 == 0 ? 1.0 : 0.25 * (k % 3));
    matrices.push_back({edge.i, edge.j, w});
  }
  hamon::PottsFields integer;
  integer.uniform = {1.0, 0.0, 0.0, -1.0};
  for (const auto& model :
       {hamon::SpinModel::potts(36, 3, edges, glass3.state_fields(), {{7, 2}}, matrices),
        hamon::make_potts_lattice({6, 8}, true, 4, hamon::ValueDistribution::constant(1.0),
                                  integer)}) {
    SCOPED_TRACE("q = " + std::to_string(model.n_states()));
    const auto o = observed_run();
    const hamon::NrptResult reference = hamon::nrpt(ReferenceSpace(), model, o);
    hamon::Sampler<TEST_EXECSPACE> split(TEST_EXECSPACE(), model, o);
    for (std::int64_t n : {37, 13, 50, 49, 1, 500}) EXPECT_EQ(split.run(n), n);
    expect_same_results(split.result(), reference);
    for (std::int64_t first : {75, 151, 400}) {
      SCOPED_TRACE("saved after round " + std::to_string(first));
      expect_same_results(saved_and_continued<TEST_EXECSPACE, TEST_EXECSPACE>(model, o, first),
                          reference);
      expect_same_results(saved_and_continued<TEST_EXECSPACE, ReferenceSpace>(model, o, first),
                          reference);
    }
  }
}

/// Collects what a sink receives, and how it arrives.
struct CollectingSink final : hamon::TraceSink {
  std::vector<std::int8_t> samples;
  std::vector<double> energies;
  std::vector<std::int32_t> index_process;
  std::int64_t deliveries = 0;
  std::int64_t syncs = 0;
  void append_samples(const std::int8_t* rows, std::int64_t n, std::int64_t columns) override {
    samples.insert(samples.end(), rows, rows + n * columns);
    ++deliveries;
  }
  void append_energies(const double* rows, std::int64_t n, std::int64_t columns) override {
    energies.insert(energies.end(), rows, rows + n * columns);
  }
  void append_index_process(const std::int32_t* rows, std::int64_t n,
                            std::int64_t columns) override {
    index_process.insert(index_process.end(), rows, rows + n * columns);
  }
  void sync() override { ++syncs; }
};

TEST(TEST_CATEGORY, sampler_streams_traces_in_chunks) {
  const auto model = hamon::make_lattice({4, 4}, true);
  hamon::NrptOptions o;
  o.n_chains = 3;
  o.beta_max = 0.4;
  o.burn_in = 10;
  // More rounds than two chunks: rows leave the space in kTraceChunkRows pieces.
  o.n_rounds = 2 * hamon::detail::kTraceChunkRows + 123;
  o.observers.samples_every = 1;
  o.observers.energies = true;
  o.observers.index_process = true;
  const hamon::NrptResult kept = hamon::nrpt(TEST_EXECSPACE(), model, o);
  CollectingSink sink;
  hamon::Sampler<TEST_EXECSPACE> streamed(TEST_EXECSPACE(), model, o, &sink);
  streamed.run(o.burn_in + o.n_rounds / 2);
  const hamon::SamplerState middle = streamed.state();  // flushes and syncs the sink
  EXPECT_EQ(sink.syncs, 1);
  EXPECT_TRUE(middle.traces.energies.empty()) << "a sink's rows are not kept";
  EXPECT_EQ(middle.traces.energy_rows, o.n_rounds / 2);
  streamed.run(o.n_rounds - o.n_rounds / 2);
  const hamon::NrptResult r = streamed.result();
  EXPECT_TRUE(r.energies.empty());
  EXPECT_EQ(r.n_samples, o.n_rounds);
  EXPECT_GE(sink.deliveries, 4);  // two full chunks, the state() flush, the rest
  expect_same_bits(sink.samples, kept.samples, "samples");
  expect_same_bits(sink.energies, kept.energies, "energies");
  expect_same_bits(sink.index_process, kept.index_process, "index process");
}

TEST(TEST_CATEGORY, sampler_moment_batches_stay_between_k_and_2k) {
  const auto model = hamon::make_lattice({4, 4}, true);
  hamon::NrptOptions o;
  o.n_chains = 2;
  o.beta_max = 0.3;
  o.n_rounds = 1000;
  o.observers.moments = true;
  o.observers.moment_batches = 8;
  hamon::Sampler<TEST_EXECSPACE> s(TEST_EXECSPACE(), model, o);
  for (std::int64_t m : {1, 15, 16, 17, 100, 1000}) {
    s.run(m - s.measured_rounds());
    const hamon::MomentBatchesState b = s.state().moments;
    SCOPED_TRACE("after " + std::to_string(m) + " rounds");
    EXPECT_EQ(b.n_batches * b.length + b.in_batch, m);
    EXPECT_LT(b.n_batches, 16);
    if (m >= 16) {
      EXPECT_GE(b.n_batches, 8);
    }
    std::int64_t counted = 0;
    for (std::size_t k = 0; k < static_cast<std::size_t>(b.n_batches); ++k) {
      EXPECT_EQ(b.counts[k], b.length);
      counted += b.counts[k];
    }
    EXPECT_EQ(counted + b.counts[static_cast<std::size_t>(b.n_batches)], m);
    EXPECT_EQ(s.result().moments.n_samples, m);
  }
}

TEST(TEST_CATEGORY, sampler_counts_no_pseudo_round_trips) {
  // No couplings, no fields: every energy is 0, so every DEO swap is accepted and each
  // machine walks the ladder one chain per round, turning at the ends. Only machine 0
  // starts at chain 0; no machine can complete a real round trip (0 -> top -> 0) before
  // 2 (N - 1) rounds, although machine N-2 reaches the top in round 0 and chain 0 at
  // round N - 1 (which an index process keyed on the initial permutation would count).
  constexpr std::int32_t n = 6;
  const auto model = hamon::SpinModel::from_edges(4, {});
  hamon::NrptOptions o;
  o.n_chains = n;
  o.beta_max = 1.0;
  o.n_rounds = 100;
  hamon::Sampler<TEST_EXECSPACE> s(TEST_EXECSPACE(), model, o);
  s.run(2 * (n - 1) - 1);
  EXPECT_EQ(s.result().total_round_trips, 0);
  EXPECT_EQ(s.result().swaps.acceptance, std::vector<double>(n - 1, 1.0));
  s.run(100 - s.rounds_done());
  const hamon::NrptResult r = s.result();
  EXPECT_GT(r.total_round_trips, 0);
  for (std::int32_t m = 0; m < n; ++m) {
    const auto k = static_cast<std::size_t>(m);
    // Trips alternate with restarts: a trip needs a restart before it.
    EXPECT_LE(r.round_trips[k], r.restarts[k]);
    EXPECT_GE(r.round_trips[k] + 1, r.restarts[k]);
  }
}

TEST(TEST_CATEGORY, sampler_refuses_a_state_that_does_not_fit) {
  const auto model = glass();
  const auto o = observed_run();
  hamon::Sampler<TEST_EXECSPACE> s(TEST_EXECSPACE(), model, o);
  s.run(20);
  const hamon::SamplerState good = s.state();
  auto refused = [&](hamon::SamplerState bad, const hamon::NrptOptions& options,
                     const std::string& words) {
    try {
      hamon::Sampler<TEST_EXECSPACE> x(TEST_EXECSPACE(), model, options, bad);
      ADD_FAILURE() << "accepted: " << words;
    } catch (const std::invalid_argument& e) {
      EXPECT_NE(std::string(e.what()).find(words), std::string::npos) << e.what();
    }
  };
  auto fewer = o;
  fewer.n_chains = 4;
  refused(good, fewer, "machines");
  hamon::SamplerState bad = good;
  bad.spins.pop_back();
  refused(bad, o, "spins");
  bad = good;
  bad.attempted.push_back(0);
  refused(bad, o, "attempted");
  bad = good;
  bad.moments.length = 0;
  refused(bad, o, "moment batches");
  auto no_moments = o;
  no_moments.observers.moments = false;
  refused(good, no_moments, "moments");
  // Values the kernels index with or decide from, each in a state of the right shape:
  // permutations that are not each other's inverse, a chain out of range, a trip phase
  // TripPhase does not have, a spin neither +1 nor -1.
  bad = good;
  std::swap(bad.machine_of_chain[1], bad.machine_of_chain[3]);
  refused(bad, o, "not inverse permutations");
  bad = good;
  bad.chain_of_machine[2] = o.n_chains;
  refused(bad, o, "machine 2 is at chain 5");
  bad = good;
  bad.trip_phase[4] = 3;
  refused(bad, o, "trip phase 3");
  bad = good;
  bad.spins[model.n_nodes() + 7] = 0;
  refused(bad, o, "machine 1, node 7 holds 0, not a spin");
  // The best states: their copies are variables like the spins, and each was found in a
  // round before the saved one, at a chain of the ladder.
  hamon::SamplerState best = good;
  best.best.spins[2 * model.n_nodes() + 5] = 3;
  refused(best, o, "machine 2, node 5 holds 3, not a spin");
  best = good;
  best.best.spins.pop_back();
  refused(best, o, "best states' variables have the wrong size");
  best = good;
  best.best.round[1] = good.rounds_done;
  refused(best, o, "machine 1's best state has round 20");
  best = good;
  best.best.chain[3] = o.n_chains;
  refused(best, o, "machine 3's best state");
  best = good;
  best.best.energy_fixed.pop_back();
  refused(best, o, "best states have another number of machines");
  // A row count whose product with the row width overflows: 2^62 rows of 4 chains'
  // energies wrap to the 0 entries kept, which only a check without that product refuses.
  auto four = o;
  four.n_chains = 4;
  hamon::Sampler<TEST_EXECSPACE> four_chains(TEST_EXECSPACE(), model, four);
  four_chains.run(20);
  hamon::SamplerState rows = four_chains.state();
  rows.traces.energy_rows = std::int64_t{1} << 62;
  refused(rows, four, "kept traces do not match their row counts");
  // A starting configuration is held to the same: its permutations and variables.
  hamon::Sampler<TEST_EXECSPACE> fresh(TEST_EXECSPACE(), model, o);
  EXPECT_THROW(fresh.start_from(bad), std::invalid_argument);
  // Past 2^32 rounds: refused by run().
  hamon::Sampler<TEST_EXECSPACE> t(TEST_EXECSPACE(), model, o, good);
  EXPECT_THROW(t.run(std::int64_t{1} << 32), std::invalid_argument);
}

}  // namespace

namespace {

TEST(TEST_CATEGORY, sampler_refuses_potts_states_of_another_q) {
  // A Potts state is a byte read unsigned: q = 3 holds 0, 1 and 2, and 3 or the byte -1
  // (255) would index past the model's tables.
  const auto model = hamon::make_potts_lattice({4, 4}, true, 3);
  hamon::NrptOptions o;
  o.n_chains = 3;
  o.n_rounds = 10;
  o.seed = 4;
  hamon::Sampler<TEST_EXECSPACE> s(TEST_EXECSPACE(), model, o);
  s.run(5);
  const hamon::SamplerState good = s.state();
  EXPECT_NO_THROW((void)hamon::Sampler<TEST_EXECSPACE>(TEST_EXECSPACE(), model, o, good));
  for (const std::int8_t byte : {std::int8_t{3}, std::int8_t{-1}}) {
    hamon::SamplerState bad = good;
    bad.spins[5] = byte;
    try {
      hamon::Sampler<TEST_EXECSPACE> x(TEST_EXECSPACE(), model, o, bad);
      ADD_FAILURE() << "state " << int(byte) << " accepted";
    } catch (const std::invalid_argument& e) {
      const std::string expected =
          "node 5 holds " + std::to_string(int(std::uint8_t(byte))) + ", not a state below q = 3";
      EXPECT_NE(std::string(e.what()).find(expected), std::string::npos) << e.what();
    }
  }
}

TEST(TEST_CATEGORY, sampler_ladder_update_keeps_counters_of_unattempted_pairs) {
  // A segment in which some pair was never attempted has no rejection estimate for it:
  // the ladder must not move on it, and the counters carry over to the next segment.
  const auto model = glass();
  auto o = observed_run();
  hamon::detail::SamplerCore<TEST_EXECSPACE> core(
      TEST_EXECSPACE(), hamon::make_device_model(TEST_EXECSPACE(), model), o, nullptr, nullptr);
  core.run(10, {});
  const std::vector<double> before = core.ladder.betas;
  auto attempted =
      hamon::detail::to_host_vector<std::int64_t>(core.space, core.loop.state.attempted);
  auto accepted = hamon::detail::to_host_vector<std::int64_t>(core.space, core.loop.state.accepted);
  attempted[2] = 0;
  accepted[2] = 0;
  hamon::detail::copy_from_host(core.space, core.loop.state.attempted, attempted);
  hamon::detail::copy_from_host(core.space, core.loop.state.accepted, accepted);
  core.ladder.update(core.space, core.model, core.loop);
  EXPECT_EQ(core.ladder.betas, before);
  EXPECT_EQ(hamon::detail::to_host_vector<std::int64_t>(core.space, core.loop.state.attempted),
            attempted);
  // With every pair attempted, the update moves the ladder and resets the counters.
  core.run(10, {});
  core.ladder.update(core.space, core.model, core.loop);
  EXPECT_NE(core.ladder.betas, before);
  EXPECT_EQ(core.ladder.betas.front(), before.front());
  EXPECT_EQ(core.ladder.betas.back(), before.back());
  for (std::int64_t a :
       hamon::detail::to_host_vector<std::int64_t>(core.space, core.loop.state.attempted)) {
    EXPECT_EQ(a, 0);
  }
}

}  // namespace
