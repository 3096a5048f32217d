// SPDX-License-Identifier: Apache-2.0
// The error bars of a continuous run's node means and node variances, calibrated over
// seeds against exact answers: a Gaussian's closed forms (support/continuous_oracles.hpp)
// and a coupled pair of double wells by a fine 2-D grid computed here.
//
// The statistic is the mean of z^2, z = (estimate - exact) / error, over every node and
// seed of a case: 1 for calibrated errors (about 1.07 for a t with 31 degrees of freedom,
// the 32 batches' errors), below for errors too large, above for errors too small or a
// bias. The band is [0.75, 1.3]: with N independent z-scores the mean of z^2 scatters by
// about sqrt(2.5 / N) (t_31 has Var(z^2) ~ 2.5), so the band needs a few hundred of them
// to mean something (each case says how many it has), while the errors this replaced (each
// batch's second moment centred on the whole run's mean) fall far outside it.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <vector>

#include "continuous_checks.hpp"
#include "continuous_oracles.hpp"
#include "hamon/core/model/spin_model.hpp"
#include "hamon/core/sampler/nrpt.hpp"

namespace {

using Space = TEST_EXECSPACE;

struct NodeExact {
  std::vector<double> means;
  std::vector<double> variances;
};

/// Mean z^2 of the node means and of the node variances over `seeds` runs.
struct Calibration {
  double means = 0.0;
  double variances = 0.0;
  int count = 0;  // z-scores of each kind
};

Calibration calibrate(const hamon::SpinModel& model, const NodeExact& exact, double beta_max,
                      int seeds, std::int64_t rounds) {
  Calibration out;
  double sum_m = 0.0, sum_v = 0.0;
  for (int seed = 1; seed <= seeds; ++seed) {
    hamon::NrptOptions o;
    o.n_chains = 4;
    o.beta_max = beta_max;
    o.n_rounds = rounds;
    o.burn_in = 200;
    o.seed = static_cast<std::uint64_t>(seed);
    o.observers.moments = true;
    const auto r = hamon::nrpt(Space(), model, o);
    const hamon::Moments& m = r.moments;
    for (std::size_t i = 0; i < exact.means.size(); ++i) {
      const double zm = hamon_test::z_of(m.node_means[i], exact.means[i], m.node_means_stderr[i]);
      const double zv =
          hamon_test::z_of(m.node_variances[i], exact.variances[i], m.node_variances_stderr[i]);
      sum_m += zm * zm;
      sum_v += zv * zv;
      ++out.count;
    }
  }
  out.means = sum_m / out.count;
  out.variances = sum_v / out.count;
  return out;
}

void expect_calibrated(const Calibration& c, const char* name) {
  std::printf("  [%s] mean z^2 over %d z-scores: means %.3f, variances %.3f\n", name, c.count,
              c.means, c.variances);
  EXPECT_GT(c.means, 0.75) << name << ": node-mean errors too large";
  EXPECT_LT(c.means, 1.3) << name << ": node-mean errors too small";
  EXPECT_GT(c.variances, 0.75) << name << ": node-variance errors too large";
  EXPECT_LT(c.variances, 1.3) << name << ": node-variance errors too small";
}

TEST(TEST_CATEGORY, continuous_node_variance_errors_are_calibrated_on_a_gaussian) {
  // A 6-node chain whose fields give means of 2..4 standard deviations: where the old
  // errors were largest (a batch's second moment about the run's mean moves with the
  // batch's own mean, by 2 <x> (m_batch - <x>)).
  std::vector<hamon::Edge> edges;
  for (int i = 0; i + 1 < 6; ++i) edges.push_back({i, i + 1, 0.3});
  const auto model = hamon::SpinModel::gaussian(6, edges, std::vector<double>(6, 1.0),
                                                {2.0, -1.5, 2.5, 1.0, -2.0, 3.0});
  const auto exact = hamon_test::gaussian_exact(model, 1.0);
  expect_calibrated(calibrate(model, {exact.means, exact.variances}, 1.0, 128, 1600), "gaussian");
}

/// <x_i> and Var x_i of two coupled double wells at beta by a trapezoid grid on
/// [-reach, reach]^2 (the density vanishes at the edges, so the rule converges
/// geometrically; 1201^2 points agree with 801^2 to 1e-12).
NodeExact double_well_pair(const std::vector<double>& lambda, const std::vector<double>& h,
                           double coupling, double beta, int points = 1201, double reach = 2.6) {
  const double step = 2.0 * reach / (points - 1);
  auto u = [&](std::size_t i, double x) {
    const double s = x * x - 1.0;
    return lambda[i] * s * s - h[i] * x;
  };
  double peak = -1e300;
  std::vector<double> x(static_cast<std::size_t>(points));
  for (int a = 0; a < points; ++a) x[static_cast<std::size_t>(a)] = -reach + step * a;
  for (double a : x) {
    for (double b : x) peak = std::max(peak, -beta * (u(0, a) + u(1, b) - coupling * a * b));
  }
  double z = 0.0, s0 = 0.0, s1 = 0.0, q0 = 0.0, q1 = 0.0;
  for (double a : x) {
    for (double b : x) {
      const double w = std::exp(-beta * (u(0, a) + u(1, b) - coupling * a * b) - peak);
      z += w, s0 += w * a, s1 += w * b, q0 += w * a * a, q1 += w * b * b;
    }
  }
  NodeExact out;
  out.means = {s0 / z, s1 / z};
  out.variances = {q0 / z - out.means[0] * out.means[0], q1 / z - out.means[1] * out.means[1]};
  return out;
}

TEST(TEST_CATEGORY, continuous_node_variance_errors_are_calibrated_on_double_wells) {
  // lambda = (1.5, 0.7), h = (0.3, -0.2), J = 0.8: bimodal sites whose x^2 hardly moves,
  // so a variance's error is mostly its mean's (d Var = -2 <x> d<x>), which the old
  // errors left out. At beta = 2 a run of 4,000 rounds tunnels often enough that <x>'s
  // error (about 0.05) is small against <x> (0.3): the jackknife's linearisation holds
  // there. At beta = 4 (barriers 6 and 2.8) runs this short cross too rarely, <x>'s error
  // is as large as <x> itself, and no error bar of a variance from them is calibrated
  // (its z then follows the mean's squared error). The two sites' z-scores move together
  // (J = 0.8), so the 320 z-scores count as about 160: a spread of about 0.13 for the
  // mean of z^2, the band about two of those each side.
  const std::vector<double> lambda = {1.5, 0.7}, h = {0.3, -0.2};
  const auto model = hamon::SpinModel::double_well(2, {{0, 1, 0.8}}, lambda, h);
  EXPECT_NEAR(double_well_pair(lambda, h, 0.8, 4.0).variances[0], 0.9458, 5e-5);  // 1500^2 grid
  const NodeExact exact = double_well_pair(lambda, h, 0.8, 2.0);
  expect_calibrated(calibrate(model, exact, 2.0, 160, 4000), "double wells");
}

}  // namespace
