// SPDX-License-Identifier: Apache-2.0
// One NRPT run over the ranks of MPI_COMM_WORLD (hamon::Sampler with hamon::MpiExchange)
// gives the bits of one process, for any rank count (CTest runs this binary under 1-4
// ranks), with chain counts that leave ranks empty (5 chains: one block) or split unevenly
// (40 chains: 16 + 16 + 8 over 3 ranks), with a different backend on every other rank,
// with replicas (3 x 12 machines: 16 + 16 + 4 over 3 ranks), and across saved states: one
// process -> ranks, ranks -> one process; a stop asked on one rank ends every rank's run()
// at the same round.
#include <gtest/gtest.h>
#include <mpi.h>

#include <Kokkos_Core.hpp>
#include <optional>
#include <sstream>

#include "hamon/core/model/model_builders.hpp"
#include "hamon/core/sampler/checkpoint.hpp"
#include "hamon/core/sampler/sampler.hpp"
#include "hamon/policies/mpi_exchange.hpp"
#include "run_options.hpp"
#include "same_results.hpp"

namespace {

using hamon_test::expect_same_results;
using hamon_test::ReferenceSpace;

int world_rank() {
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  return rank;
}

/// Real couplings and fields (the exp / field-boundary path), +-1 couplings (the integer
/// threshold path), or a 4-state Potts glass (+-1 couplings, per-state fields: the Potts
/// lattice path with weight tables).
enum class Couplings { real, integer, potts };

hamon::SpinModel model_of(Couplings couplings) {
  if (couplings == Couplings::potts) {
    return hamon::make_potts_lattice({6, 8}, true, 4, hamon::ValueDistribution::pm_one(5),
                                     hamon::PottsFields{{1.0, 0.0, -1.0, 2.0}, std::nullopt});
  }
  if (couplings == Couplings::real) {
    return hamon::make_lattice({6, 6}, true, hamon::ValueDistribution::gaussian(11),
                               hamon::ValueDistribution::gaussian(12, 0.2));
  }
  return hamon::make_lattice({8, 8}, true, hamon::ValueDistribution::pm_one(5));
}

/// Runs `body` with this rank's execution space: Serial on even ranks, the other host
/// backend (OpenMP where compiled in) on odd ones, so every rank count above 1 mixes them.
template <class Body>
void on_this_ranks_space(Body&& body) {
#if defined(KOKKOS_ENABLE_OPENMP) && defined(KOKKOS_ENABLE_SERIAL)
  if (world_rank() % 2 == 1) {
    body(Kokkos::OpenMP());
    return;
  }
#endif
  body(ReferenceSpace());
}

hamon::NrptResult one_process(const hamon::SpinModel& model, const hamon::NrptOptions& o) {
  hamon::Sampler<ReferenceSpace> s(ReferenceSpace(), model, o);
  s.run(o.burn_in + o.n_rounds);
  return s.result();
}

/// Over two ranks or more the replica overlaps and the magnetisation per temperature are off
/// (docs/overlaps.md, docs/magnetization.md), and a run that passed through them has them
/// only from there on: everything else is one process's.
void expect_same_but_one_process_accumulators(const hamon::NrptResult& a, hamon::NrptResult b) {
  b.overlaps = hamon::NrptResult().overlaps;
  b.magnetization = hamon::NrptResult().magnetization;
  hamon::NrptResult without = a;
  without.overlaps = b.overlaps;
  without.magnetization = b.magnetization;
  expect_same_results(without, b);
}

struct Case {
  Couplings couplings;
  int n_chains;
  int n_replicas = 1;
  bool annealed = false;  // reference independent: the annealing path's update
};

hamon::NrptOptions options_of(const Case& c) {
  hamon::NrptOptions o = hamon_test::observed_run(c.n_chains);
  o.n_replicas = c.n_replicas;
  if (c.annealed) o.reference = hamon::AnnealingReference::independent;
  return o;
}

class DistributedRun : public ::testing::TestWithParam<Case> {};

TEST_P(DistributedRun, gives_the_bits_of_one_process) {
  const hamon::SpinModel model = model_of(GetParam().couplings);
  const hamon::NrptOptions o = options_of(GetParam());
  hamon::MpiExchange exchange;
  hamon::NrptResult distributed;
  on_this_ranks_space([&](const auto& space) {
    using Space = std::decay_t<decltype(space)>;
    hamon::Sampler<Space> s(space, model, o, nullptr, &exchange);
    // In three calls, so the collective bookkeeping between calls is exercised too.
    s.run(100);
    s.run(150);
    s.run(o.burn_in + o.n_rounds - 250);
    distributed = s.result();
  });
  if (!exchange.is_root()) return;
  if (exchange.n_ranks() == 1) {
    expect_same_results(distributed, one_process(model, o));
  } else {
    EXPECT_TRUE(distributed.overlaps.empty());
    EXPECT_TRUE(distributed.magnetization.betas.empty());
    expect_same_but_one_process_accumulators(distributed, one_process(model, o));
  }
}

TEST_P(DistributedRun, resumes_a_one_process_state_and_saves_one_that_one_process_resumes) {
  const hamon::SpinModel model = model_of(GetParam().couplings);
  const hamon::NrptOptions o = options_of(GetParam());
  const std::int64_t total = o.burn_in + o.n_rounds;
  hamon::MpiExchange exchange;
  // Every rank makes the same one-process state (at round 90, inside adaptation) and
  // resumes it over the ranks up to round 200 (measurement), where it saves.
  hamon::SamplerState early;
  {
    hamon::Sampler<ReferenceSpace> s(ReferenceSpace(), model, o);
    s.run(90);
    early = s.state();
  }
  hamon::SamplerState saved;
  on_this_ranks_space([&](const auto& space) {
    using Space = std::decay_t<decltype(space)>;
    hamon::Sampler<Space> s(space, model, o, early, nullptr, &exchange);
    s.run(110);
    saved = s.state();
  });
  if (!exchange.is_root()) return;
  // Rank 0's state, through checkpoint bytes, continued by one process.
  hamon::Checkpoint c;
  c.identity = hamon::identity_of(model, o);
  c.state = saved;
  std::stringstream bytes;
  hamon::write_checkpoint(bytes, c);
  const hamon::Checkpoint back = hamon::read_checkpoint(bytes, "in memory");
  hamon::Sampler<ReferenceSpace> after(ReferenceSpace(), model, o, back.state);
  EXPECT_EQ(after.rounds_done(), 200);
  after.run(total - 200);
  if (exchange.n_ranks() == 1) {
    expect_same_results(after.result(), one_process(model, o));
  } else {
    expect_same_but_one_process_accumulators(after.result(), one_process(model, o));
  }
}

TEST_P(DistributedRun, a_stop_asked_on_one_rank_ends_every_rank_at_the_same_round) {
  const hamon::SpinModel model = model_of(GetParam().couplings);
  const hamon::NrptOptions o = options_of(GetParam());
  const std::int64_t total = o.burn_in + o.n_rounds;
  hamon::MpiExchange exchange;
  const bool asks = exchange.rank() == exchange.n_ranks() - 1;
  hamon::NrptResult distributed;
  on_this_ranks_space([&](const auto& space) {
    using Space = std::decay_t<decltype(space)>;
    hamon::Sampler<Space> s(space, model, o, nullptr, &exchange);
    int calls = 0;
    while (s.rounds_done() < total) {
      s.run(total - s.rounds_done(), [&] { return asks && s.rounds_done() % 25 == 0; });
      ++calls;
      // The same round on every rank: the largest and the smallest agree. Both are every
      // rank's, so on a failure every rank leaves the loop together and still makes the
      // collective result() below (a rank that returned alone, as an ASSERT does, would
      // leave the others waiting in their next collective until the test timed out).
      const std::int64_t done = s.rounds_done();
      const std::int64_t latest = exchange.max_over_ranks(done);
      const std::int64_t earliest = -exchange.max_over_ranks(-done);
      EXPECT_EQ(latest, earliest) << "the ranks stopped at different rounds";
      if (latest != earliest) break;
      if (calls % 3 == 0) s.state();  // a checkpoint between some calls
    }
    EXPECT_GE(calls, static_cast<int>(total / 26));
    distributed = s.result();
  });
  if (exchange.is_root())
    expect_same_but_one_process_accumulators(distributed, one_process(model, o));
}

/// Continuous models: their doubles travel between the ranks as bytes, their moment sums
/// are fixed-point integers, so the ranks give one process's bits too; a one-process state
/// resumes over the ranks and theirs (through checkpoint bytes) in one process.
TEST(DistributedContinuousRun, gives_the_bits_of_one_process_and_resumes_across_rank_counts) {
  for (const auto kind : {hamon::ContinuousKind::gaussian, hamon::ContinuousKind::double_well}) {
    const hamon::SpinModel model = hamon::make_continuous_lattice(
        kind, {6, 6}, true, hamon::ValueDistribution::gaussian(11, 0.25),
        std::vector<double>(36, kind == hamon::ContinuousKind::gaussian ? 2.0 : 1.0),
        hamon::draw_node_values(hamon::ValueDistribution::gaussian(12, 0.2),
                                hamon::NodeValueKind::field, 36));
    const hamon::NrptOptions o = hamon_test::observed_run(40);
    const std::int64_t total = o.burn_in + o.n_rounds;
    hamon::NrptResult reference;
    hamon::SamplerStateOf<double> early;
    {
      hamon::Sampler<ReferenceSpace, double> s(ReferenceSpace(), model, o);
      s.run(90);
      early = s.state();
      s.run(total - 90);
      reference = s.result();
    }
    hamon::MpiExchange exchange;
    hamon::NrptResult distributed;
    hamon::SamplerStateOf<double> saved;
    on_this_ranks_space([&](const auto& space) {
      using Space = std::decay_t<decltype(space)>;
      hamon::Sampler<Space, double> straight(space, model, o, nullptr, &exchange);
      straight.run(100);
      straight.run(total - 100);
      distributed = straight.result();
      hamon::Sampler<Space, double> resumed(space, model, o, early, nullptr, &exchange);
      resumed.run(110);
      saved = resumed.state();
    });
    if (!exchange.is_root()) continue;
    expect_same_results(distributed, reference);
    hamon::CheckpointOf<double> c;
    c.identity = hamon::identity_of(model, o);
    c.state = saved;
    std::stringstream bytes;
    hamon::write_checkpoint(bytes, c);
    const auto back = hamon::read_checkpoint<double>(bytes, "in memory");
    hamon::Sampler<ReferenceSpace, double> after(ReferenceSpace(), model, o, back.state);
    EXPECT_EQ(after.rounds_done(), 200);
    after.run(total - 200);
    expect_same_results(after.result(), reference);
    EXPECT_FALSE(reference.real_samples.empty());
  }
}

INSTANTIATE_TEST_SUITE_P(
    Mpi, DistributedRun,
    ::testing::Values(Case{Couplings::real, 5}, Case{Couplings::real, 40},
                      Case{Couplings::integer, 40}, Case{Couplings::integer, 17},
                      Case{Couplings::potts, 40},
                      // 3 replicas of 12 chains: 36 machines, 16 + 16 + 4
                      // over 3 ranks, replica 1 split between two.
                      Case{Couplings::real, 12, 3}, Case{Couplings::real, 40, 1, true}),
    [](const ::testing::TestParamInfo<Case>& param_info) {
      const Couplings c = param_info.param.couplings;
      return std::string(c == Couplings::real      ? "real"
                         : c == Couplings::integer ? "integer"
                                                   : "potts") +
             "_couplings_" + std::to_string(param_info.param.n_chains) + "_chains" +
             (param_info.param.n_replicas > 1
                  ? "_" + std::to_string(param_info.param.n_replicas) + "_replicas"
                  : std::string()) +
             (param_info.param.annealed ? "_annealed" : "");
    });

}  // namespace
