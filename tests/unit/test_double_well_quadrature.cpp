// SPDX-License-Identifier: Apache-2.0
// A double-well site's log Z (reference_log_z) against an independent fine reference, from
// mild wells to extreme ones (beta lambda up to 1e16, a field of 1000 at beta 1000), where a
// grid of fixed size cannot see a well 1 / sqrt(8 beta lambda) wide; and its error
// estimate, which must cover the difference.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <vector>

#include "hamon/core/model/reference_log_z.hpp"
#include "hamon/core/model/spin_model.hpp"

namespace {

/// The reference: the minima of u(x) = lambda (x^2 - 1)^2 - h x found by a scan and
/// Newton's method on u', then the midpoint rule in long double with a step of 2e-4 widths
/// (1 / sqrt(beta u'')) over +-40 widths of each (merged where they overlap): the rule's
/// error on these smooth peaks is far below double precision, and 40 widths take the
/// exponent ~800 below a narrow peak, and past e^-60 of a wide one's (a quartic falls
/// faster than its curvature says). Independent of the library's code: other rule, other
/// precision, fixed windows, no refinement.
double reference_site_log_z(double beta, double lambda, double h) {
  auto u = [&](long double x) {
    const long double s = x * x - 1;
    return lambda * s * s - h * x;
  };
  auto du = [&](long double x) { return 4 * lambda * x * (x * x - 1) - h; };
  auto d2u = [&](long double x) { return lambda * (12 * x * x - 4); };
  std::vector<long double> modes;
  const long double reach = 2 + std::cbrt(std::abs(h) / lambda);
  long double previous = -reach;
  for (int k = 1; k <= 20000; ++k) {  // sign changes of u' from - to + are minima
    const long double x = -reach + 2 * reach * k / 20000;
    if (du(previous) < 0 && du(x) >= 0) {
      long double m = 0.5L * (previous + x);
      for (int i = 0; i < 60; ++i) m -= du(m) / d2u(m);
      modes.push_back(m);
    }
    previous = x;
  }
  long double peak = -1e300L;
  for (long double m : modes) peak = std::max(peak, -beta * u(m));
  // The windows, merged where they overlap (wide wells), each at the finer step.
  std::vector<std::vector<long double>> windows;  // {from, to, step}
  for (long double m : modes) {
    const long double width = 1 / std::sqrt(beta * d2u(m));
    const long double from = m - 40 * width, to = m + 40 * width, step = 2e-4L * width;
    if (!windows.empty() && windows.back()[1] >= from) {
      windows.back()[1] = to;
      windows.back()[2] = std::min(windows.back()[2], step);
    } else {
      windows.push_back({from, to, step});
    }
  }
  long double sum = 0;
  for (const auto& w : windows) {
    const auto n = static_cast<long>(std::ceil((w[1] - w[0]) / w[2]));
    const long double step = (w[1] - w[0]) / n;
    for (long k = 0; k < n; ++k) {
      const long double x = w[0] + (k + 0.5L) * step;
      sum += std::exp(-beta * u(x) - peak) * step;
    }
  }
  return static_cast<double>(peak + std::log(sum));
}

TEST(DoubleWellQuadrature, matches_a_fine_reference_from_mild_to_extreme_wells) {
  struct Case {
    double beta, lambda, h;
  };
  // beta lambda from 20 to 1e16; fields that tilt the wells, and one that leaves one well.
  for (const Case c : {Case{2.0, 10.0, 0.0}, Case{1.0, 1e7, 0.0}, Case{1.0, 1e8, 0.0},
                       Case{1.0, 1e16, 0.0}, Case{1000.0, 1.0, 1000.0}, Case{50.0, 1e4, 3.0},
                       Case{4.0, 1.5, 0.3}, Case{1e3, 1.0, -0.05}}) {
    const hamon::QuadratureLogZ q = hamon::double_well_site_log_z(c.beta, c.lambda, c.h);
    const double reference = reference_site_log_z(c.beta, c.lambda, c.h);
    std::printf("  [beta %g lambda %g h %g] %.12f +- %.1e vs %.12f (diff %.1e, %lld points)\n",
                c.beta, c.lambda, c.h, q.value, q.error, reference, q.value - reference,
                static_cast<long long>(q.points));
    // 1e-10, relative where log Z is large: there the exponent's own rounding (an ulp of
    // 4.8e6 is 1e-9) is what the double can tell.
    const double tolerance = 1e-10 * std::max(1.0, std::abs(reference));
    EXPECT_NEAR(q.value, reference, tolerance) << c.beta << " " << c.lambda << " " << c.h;
    // An honest estimate: it covers the difference (the reference's own error is below
    // 1e-15), and it is small.
    EXPECT_LE(std::abs(q.value - reference), q.error + 1e-15);
    EXPECT_GT(q.error, 0.0);
    EXPECT_LT(q.error, tolerance);
  }
}

TEST(DoubleWellQuadrature, the_reference_log_z_of_narrow_wells_is_a_quadrature_with_an_error) {
  // lambda = 1e8 at beta = 1, two sites without fields: each site two wells of width
  // 1 / sqrt(8e8), log Z = 2 log(2 sqrt(pi / 4e8)) + O(1e-9) = -17.2760 (a grid of 20,001
  // points over the sites' reach gave -19.2575).
  const auto model = hamon::SpinModel::double_well(2, {}, {1e8, 1e8}, {0.0, 0.0});
  const hamon::ReferenceLogZ z = hamon::reference_log_z_with_error(model, 1.0);
  const double laplace = 2.0 * std::log(2.0 * std::sqrt(std::acos(-1.0) / 4e8));
  EXPECT_NEAR(z.value, -17.2760, 5e-5);
  EXPECT_NEAR(z.value, laplace, 1e-8);
  EXPECT_NEAR(z.value, 2.0 * reference_site_log_z(1.0, 1e8, 0.0), 1e-10);
  EXPECT_EQ(z.value, hamon::reference_log_z(model, 1.0));
  EXPECT_FALSE(z.exact);
  EXPECT_GT(z.error, 0.0);
  // Two equal sites: one quadrature, its error counted twice (the same error, the same sign).
  EXPECT_EQ(z.error, 2.0 * hamon::double_well_site_log_z(1.0, 1e8, 0.0).error);
  // Gaussian sites are closed forms: exact, no error.
  const auto g = hamon::SpinModel::gaussian(2, {}, {2.0, 0.5}, {0.3, -1.0});
  EXPECT_TRUE(hamon::reference_log_z_with_error(g, 1.5).exact);
  EXPECT_EQ(hamon::reference_log_z_with_error(g, 1.5).error, 0.0);
}

}  // namespace
