// SPDX-License-Identifier: Apache-2.0
// log Z on a hard ladder, against the exact value: the q = 8 Potts ferromagnet
// (E = -sum delta(x_i, x_j)) on a 4 x 40 strip, open, whose energy variance peaks near
// beta = 1.6 (sigma_E ~ 19 against ~5 at beta = 0; the strip's pseudo-transition), exact
// by the transfer matrix (tests/support, 8^4 states). A coarse fixed ladder across it
// (8 chains over [0, 2.5]: dbeta sigma_E ~ 6.6 at the peak) must either give estimates
// whose errors cover the exact value or flag them, name the pairs, and prefer a trusted
// one; a ladder tuned by the sampler must give both estimates, trusted, within their
// errors and no warnings.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <stdexcept>
#include <string>
#include <vector>

#include "../support/transfer_matrix.hpp"
#include "hamon/core/analysis/diagnostics.hpp"
#include "hamon/core/model/model_builders.hpp"
#include "hamon/policies/dispatch.hpp"

namespace {

using hamon::LogPartition;
using hamon::LogZEstimate;

constexpr int kWidth = 4;
constexpr double kBetaMax = 2.5;
constexpr double kCover = 3.0;  // errors an estimate may be off by

hamon::SpinModel strip() {
  return hamon::make_potts_lattice({40, kWidth}, false, 8);
}

bool warned(const LogPartition& z, const std::string& what) {
  for (const auto& w : z.warnings) {
    if (w.find(what) != std::string::npos) return true;
  }
  return false;
}

void print(const char* ladder, const LogPartition& z, double exact) {
  std::printf("%s: exact %.4f\n", ladder, exact);
  for (const auto& [name, e] :
       {std::pair{"TI", &z.thermodynamic_integration}, std::pair{"SS", &z.stepping_stone}}) {
    std::printf("  %s %.4f +- %.4f (%+.1f errors)%s\n", name, e->value, e->error(),
                (e->value - exact) / e->error(), e->trusted ? "" : " untrusted");
  }
  std::printf("  preferred %s: %s\n", hamon::to_string(z.preferred), z.preferred_reason.c_str());
  for (const auto& w : z.warnings) std::printf("  warning: %s\n", w.c_str());
}

hamon::NrptResult sample(const hamon::SpinModel& model, int chains, bool adapt) {
  hamon::NrptOptions o;
  o.n_chains = chains;
  o.beta_min = 0.0;
  o.beta_max = kBetaMax;
  o.n_rounds = 4000;
  o.burn_in = 1000;
  o.n_expl = 2;
  o.adapt_schedule = adapt;
  o.seed = 11;
  o.observers.energies = true;
  return hamon::routed_nrpt(model, o, hamon::DeviceSpec::backend(hamon::Placement::serial)).result;
}

struct LadderRun {
  LogPartition z;
  double exact = 0.0;
};

// The strip sampled on `chains` chains (tuned during burn-in when `adapt`), its log Z
// estimates (printed) and the exact value.
LadderRun ladder_run(const char* ladder, int chains, bool adapt) {
  const auto model = strip();
  LadderRun out;
  out.exact = hamon::test::potts_strip_moments(model, kWidth, kBetaMax).log_z;
  const auto z = hamon::log_partition(model, sample(model, chains, adapt));
  if (!z) throw std::runtime_error("no log Z from a run that recorded energies from beta 0");
  out.z = *z;
  print(ladder, out.z, out.exact);
  return out;
}

const LogZEstimate& preferred(const LogPartition& z) {
  return z.preferred == hamon::LogZMethod::stepping_stone ? z.stepping_stone
                                                          : z.thermodynamic_integration;
}

TEST(LogZLadders, CoarseLadderAcrossThePottsPseudoTransitionIsCoveredOrFlagged) {
  const auto [z, exact] = ladder_run("coarse ladder", 8, false);
  // Either estimate: its error covers the exact value, or it is flagged with a warning
  // naming its method (and the pairs).
  EXPECT_TRUE(std::abs(z.stepping_stone.value - exact) <= kCover * z.stepping_stone.error() ||
              (!z.stepping_stone.trusted && warned(z, "stepping stone: pair beta")));
  EXPECT_TRUE(std::abs(z.thermodynamic_integration.value - exact) <=
                  kCover * z.thermodynamic_integration.error() ||
              (!z.thermodynamic_integration.trusted && warned(z, "thermodynamic integration")));
  // The weights across the peak are hopelessly heavy-tailed: stepping stone is flagged,
  // naming the pair that straddles it (1.43 -> 1.79).
  EXPECT_FALSE(z.stepping_stone.trusted);
  EXPECT_TRUE(warned(z, "pair beta 1.43 -> 1.79"));
  // Below the peak Var(E) falls from ~150 to ~26 in one interval, too fast for the
  // end-point correction: the quadrature falls back to the bracket there, and says so.
  EXPECT_TRUE(warned(z, "interval beta 1.79 -> 2.14"));
  EXPECT_TRUE(warned(z, "not smooth on the scale of the interval"));
  // Preferred: never an untrusted estimate silently; the one preferred covers the value.
  const LogZEstimate& best = preferred(z);
  if (best.trusted) {
    EXPECT_LE(std::abs(best.value - exact), kCover * best.error());
  } else {
    EXPECT_NE(z.preferred_reason.find("neither"), std::string::npos) << z.preferred_reason;
    EXPECT_TRUE(warned(z, "neither estimate can be trusted"));
  }
}

TEST(LogZLadders, TunedLadderGivesBothEstimatesWithinTheirErrors) {
  const auto [z, exact] = ladder_run("tuned ladder", 24, true);
  EXPECT_TRUE(z.warnings.empty()) << ::testing::PrintToString(z.warnings);
  for (const LogZEstimate* e : {&z.stepping_stone, &z.thermodynamic_integration}) {
    EXPECT_TRUE(e->trusted);
    EXPECT_LE(std::abs(e->value - exact), kCover * e->error())
        << e->value << " +- " << e->error() << ", exact " << exact;
    EXPECT_LT(e->error(), 1.0);  // the quadrature's per-interval bound is most of TI's
  }
}

}  // namespace
