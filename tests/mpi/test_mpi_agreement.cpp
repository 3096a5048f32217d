// SPDX-License-Identifier: Apache-2.0
// Ranks that did not read the same run stop together before their first round, with one
// message naming the ranks that differ from rank 0 and in what (rank_agreement.hpp): here
// the last rank builds its Sampler with other options, another model or another state to
// resume. Every rank throws at the same call, so no rank is left waiting in a collective;
// under one rank there is nobody to disagree with and the run goes ahead.
#include <gtest/gtest.h>
#include <mpi.h>

#include <Kokkos_Core.hpp>
#include <cstdint>
#include <functional>
#include <stdexcept>
#include <string>

#include "hamon/core/model/model_builders.hpp"
#include "hamon/core/sampler/rank_agreement.hpp"
#include "hamon/core/sampler/sampler.hpp"
#include "hamon/policies/mpi_exchange.hpp"
#include "run_options.hpp"
#include "same_bits.hpp"

namespace {

using hamon_test::ReferenceSpace;

/// What `call` threw on this rank ("" when it returned).
std::string thrown_by(const std::function<void()>& call) {
  try {
    call();
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "";
}

/// The message every rank must throw when the last rank differs in `what`; none under one
/// rank.
std::string expected_message(const hamon::MpiExchange& exchange, const std::string& what) {
  if (exchange.n_ranks() == 1) return "";
  return "rank " + std::to_string(exchange.n_ranks() - 1) + " differs from rank 0 in the " + what;
}

void expect_message(const std::string& got, const std::string& want) {
  if (want.empty()) {
    EXPECT_EQ(got, "");
  } else {
    EXPECT_NE(got.find(want), std::string::npos) << got;
  }
}

hamon::SpinModel glass(std::uint64_t seed) {
  return hamon::make_lattice({6, 6}, true, hamon::ValueDistribution::gaussian(seed));
}

TEST(RankAgreement, names_the_ranks_whose_fingerprints_differ) {
  hamon::MpiExchange exchange;
  // Odd ranks differ in the first input, the last rank in the second.
  const bool odd = exchange.rank() % 2 == 1;
  const bool last = exchange.rank() == exchange.n_ranks() - 1;
  const std::string got = thrown_by([&] {
    hamon::require_same_on_every_rank(
        &exchange, {{"experiment", odd ? 2u : 1u}, {"checkpoint", last ? 4u : 3u}});
  });
  if (exchange.n_ranks() == 1) {
    EXPECT_EQ(got, "");
  } else if (exchange.n_ranks() == 4) {
    EXPECT_NE(got.find("ranks 1 and 3 differ from rank 0 in the experiment; rank 3 in the "
                       "checkpoint"),
              std::string::npos)
        << got;
  } else {
    EXPECT_NE(got.find("from rank 0 in the experiment"), std::string::npos) << got;
  }
}

TEST(RankAgreement, a_rank_with_other_options_stops_every_rank_before_the_first_round) {
  hamon::MpiExchange exchange;
  hamon::NrptOptions o = hamon_test::observed_run(40);
  if (exchange.rank() == exchange.n_ranks() - 1) o.seed += 1;
  hamon::Sampler<ReferenceSpace> s(ReferenceSpace(), glass(11), o, nullptr, &exchange);
  expect_message(thrown_by([&] { s.run(10); }), expected_message(exchange, "options"));
  // The planned length sizes the trace chunks, so it must agree too.
  hamon::NrptOptions longer = hamon_test::observed_run(40);
  if (exchange.rank() == exchange.n_ranks() - 1) longer.n_rounds += 1;
  hamon::Sampler<ReferenceSpace> t(ReferenceSpace(), glass(11), longer, nullptr, &exchange);
  expect_message(thrown_by([&] { t.result(); }), expected_message(exchange, "options"));
}

TEST(RankAgreement, a_rank_with_another_model_stops_every_rank) {
  hamon::MpiExchange exchange;
  const hamon::NrptOptions o = hamon_test::observed_run(40);
  const bool last = exchange.rank() == exchange.n_ranks() - 1;
  hamon::Sampler<ReferenceSpace> s(ReferenceSpace(), glass(last ? 12 : 11), o, nullptr, &exchange);
  expect_message(thrown_by([&] { s.state(); }), expected_message(exchange, "model"));
}

TEST(RankAgreement, a_rank_resuming_another_state_stops_every_rank) {
  hamon::MpiExchange exchange;
  const hamon::NrptOptions o = hamon_test::observed_run(40);
  const bool last = exchange.rank() == exchange.n_ranks() - 1;
  // Every rank saves a one-process state; the last rank's is one round later.
  hamon::SamplerState saved;
  {
    hamon::Sampler<ReferenceSpace> one(ReferenceSpace(), glass(11), o);
    one.run(last ? 21 : 20);
    saved = one.state();
  }
  hamon::Sampler<ReferenceSpace> s(ReferenceSpace(), glass(11), o, saved, nullptr, &exchange);
  expect_message(thrown_by([&] { s.run(5); }), expected_message(exchange, "state it starts from"));
  // The same state everywhere: the run goes ahead.
  hamon::SamplerState same;
  {
    hamon::Sampler<ReferenceSpace> one(ReferenceSpace(), glass(11), o);
    one.run(20);
    same = one.state();
  }
  hamon::Sampler<ReferenceSpace> agreed(ReferenceSpace(), glass(11), o, same, nullptr, &exchange);
  EXPECT_EQ(thrown_by([&] { agreed.run(5); }), "");
  EXPECT_EQ(agreed.rounds_done(), 25);
}

}  // namespace
