// SPDX-License-Identifier: Apache-2.0
// The error_bars health check judges the node means' error bars, not only the energy's:
// a free node that never changed (error exactly 0) fails it.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <vector>

#include "hamon/core/analysis/diagnostics.hpp"
#include "hamon/core/model/model_builders.hpp"
#include "hamon/policies/dispatch.hpp"

namespace {

using hamon::HealthStatus;

hamon::NrptResult run(const hamon::SpinModel& model, int chains, double beta, std::int64_t rounds,
                      std::uint64_t seed) {
  hamon::NrptOptions o;
  o.n_chains = chains;
  o.beta_max = beta;
  o.n_rounds = rounds;
  o.burn_in = 100;
  o.seed = seed;
  o.observers.energies = true;
  o.observers.moments = true;
  return hamon::routed_nrpt(model, o, hamon::DeviceSpec::backend(hamon::Placement::serial)).result;
}

TEST(NodeErrorHealth, AFreeNodeThatNeverChangedFailsTheCheck) {
  // A 4x4 periodic ferromagnet at beta = 0.4 (well mixed) with one node in a field of 40:
  // flipping it costs exp(-2 beta 40) ~ 1e-14, so the cold chain never sees it at -1 and
  // its batch-means error is exactly 0, which says nothing about the error.
  const auto lattice = hamon::make_lattice({4, 4}, true);
  std::vector<double> fields(16, 0.0);
  fields[5] = 40.0;
  const auto model = hamon::SpinModel::from_edges(16, lattice.edges(), fields, {});
  const auto r = run(model, 6, 0.4, 4000, 3);
  ASSERT_EQ(r.moments.node_means_stderr[5], 0.0);
  const auto d = hamon::diagnose(model, r);
  const auto* check = d.health.find("error_bars");
  ASSERT_NE(check, nullptr);
  EXPECT_EQ(check->status, HealthStatus::fail) << check->message;
  EXPECT_NE(check->message.find("never changed"), std::string::npos) << check->message;
  EXPECT_NE(check->message.find("first node 5"), std::string::npos) << check->message;
  EXPECT_EQ(d.health.overall, HealthStatus::fail);
}

}  // namespace
