// SPDX-License-Identifier: Apache-2.0
#include "hamon/core/model/reference_log_z.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <map>
#include <utility>
#include <vector>

#include "hamon/core/model/spin_model.hpp"

namespace hamon {

namespace {

/// How far below the highest peak the intervals reach: e^-60 ~ 1e-26 of the peak.
constexpr double kDepth = 60.0;
/// Two successive halvings agreeing this closely (relative) end the refinement.
constexpr double kAgreement = 1e-13;
/// No interval is refined past this many points (the error then says so).
constexpr std::int64_t kMaxPoints = std::int64_t{1} << 24;

/// The real roots of x^3 - x - c = 0 (u'(x) = 0 with c = h / (4 lambda)), ascending,
/// polished by Newton's method.
std::vector<double> stationary_points(double c) {
  std::vector<double> roots;
  constexpr double kPi = 3.14159265358979323846;
  const double limit = 2.0 / (3.0 * std::sqrt(3.0));  // |c| above: one real root
  if (std::abs(c) < limit) {
    const double angle = std::acos(std::clamp(c / limit, -1.0, 1.0)) / 3.0;
    for (int k = 2; k >= 0; --k) {
      roots.push_back(2.0 / std::sqrt(3.0) * std::cos(angle - 2.0 * kPi * k / 3.0));
    }
  } else {
    const double root = std::sqrt(c * c / 4.0 - 1.0 / 27.0);
    roots.push_back(std::cbrt(c / 2.0 + root) + std::cbrt(c / 2.0 - root));
  }
  for (double& x : roots) {
    for (int i = 0; i < 4; ++i) {
      const double slope = 3.0 * x * x - 1.0;
      if (slope == 0.0) break;
      x -= (x * x * x - x - c) / slope;
    }
  }
  std::sort(roots.begin(), roots.end());
  return roots;
}

struct Site {
  double beta, lambda, h;
  /// The exponent -beta u(x).
  double exponent(double x) const {
    const double s = (x - 1.0) * (x + 1.0);
    return -beta * (lambda * s * s - h * x);
  }
  /// exponent(anchor + t) - exponent(anchor), from t itself: with s0 = anchor^2 - 1 and
  /// d = t (2 anchor + t), u changes by lambda d (d + 2 s0) - h t. Neither the large
  /// exponent at the anchor (beta h x reaches 5e6 at beta = h = 1000) nor x's rounding in
  /// a narrow well (4e-9 wide at beta lambda = 1e16) then adds noise to the integrand.
  double offset(double anchor, double t) const {
    const double s0 = (anchor - 1.0) * (anchor + 1.0);
    const double d = t * (2.0 * anchor + t);
    return -beta * (lambda * d * (d + 2.0 * s0) - h * t);
  }
  /// How far exponent(x) may be off by its rounding: a few ulps of its largest term.
  double rounding(double x) const {
    const double s = (x - 1.0) * (x + 1.0);
    return 8.0 * std::numeric_limits<double>::epsilon() * beta * (lambda * s * s + std::abs(h * x));
  }
  /// Its slope -beta u'(x).
  double slope(double x) const { return -beta * (4.0 * lambda * x * (x * x - 1.0) - h); }
  /// The width of the peak at a mode, 1 / sqrt(beta u''(x)).
  double width(double x) const {
    const double curvature = beta * lambda * (12.0 * x * x - 4.0);
    return curvature > 0.0 ? 1.0 / std::sqrt(curvature) : std::numeric_limits<double>::infinity();
  }
};

/// Where the exponent falls to `level` between `from` (above it) and the point `direction`
/// (+1 or -1) away where it is below, by bisection; the exponent is monotone there.
double crossing(const Site& site, double from, double to, double level) {
  for (int i = 0; i < 200 && from != to; ++i) {
    const double middle = 0.5 * (from + to);
    if (middle == from || middle == to) break;
    (site.exponent(middle) >= level ? from : to) = middle;
  }
  return to;
}

/// A point past `mode` in `direction` where the exponent is below `level` (doubling steps
/// of the mode's width; u grows like x^4, so this ends).
double beyond(const Site& site, double mode, double direction, double level) {
  double step = std::min(site.width(mode), 1.0);
  double x = mode + direction * step;
  while (site.exponent(x) >= level) {
    step *= 2.0;
    x = mode + direction * step;
  }
  return x;
}

/// The trapezoid rule on [anchor + a, anchor + b], in units of exp(peak), from n intervals,
/// halving the step until two results agree; `change` gets the last halving's change.
double trapezoid(const Site& site, double anchor, double a, double b, std::int64_t n, double peak,
                 double& change, std::int64_t& points) {
  const double shift = site.exponent(anchor) - peak;
  auto f = [&](double t) { return std::exp(site.offset(anchor, t) + shift); };
  double step = (b - a) / static_cast<double>(n);
  double sum = 0.5 * (f(a) + f(b));
  for (std::int64_t k = 1; k < n; ++k) sum += f(a + step * static_cast<double>(k));
  points += n + 1;
  double value = sum * step;
  change = std::numeric_limits<double>::infinity();
  while (n < kMaxPoints) {
    double added = 0.0;
    for (std::int64_t k = 0; k < n; ++k) added += f(a + step * (static_cast<double>(k) + 0.5));
    points += n;
    sum += added;
    n *= 2;
    step *= 0.5;
    const double finer = sum * step;
    change = std::abs(finer - value);
    value = finer;
    if (change <= kAgreement * value) break;
  }
  return value;
}

/// Independent spins in the fields: log 2 cosh(beta h_i) per free node (as
/// |x| + log1p(exp(-2 |x|)), which cannot overflow), beta h_i c_i per node clamped to c_i.
double ising_reference_log_z(const SpinModel& model, double beta) {
  double sum = 0.0;
  for (std::size_t i = 0; i < model.fields().size(); ++i) {
    const double x = beta * model.fields()[i];
    const std::int8_t clamp = model.clamped()[i];
    sum += clamp != 0 ? x * clamp : std::abs(x) + std::log1p(std::exp(-2.0 * std::abs(x)));
  }
  return sum;
}

}  // namespace

ReferenceLogZ reference_log_z_with_error(const SpinModel& model, double beta) {
  if (model.is_potts()) throw ModelError("reference_log_z: a Potts model has no reference");
  ReferenceLogZ out;
  if (!model.is_continuous()) {
    if (!(beta >= 0.0) || !std::isfinite(beta)) {
      throw ModelError("reference_log_z: beta must be a finite number >= 0");
    }
    out.value = ising_reference_log_z(model, beta);
    return out;
  }
  if (!(beta > 0.0) || !std::isfinite(beta)) {
    throw ModelError("reference_log_z: beta must be a finite number > 0");
  }
  constexpr double kTwoPi = 6.283185307179586476925;
  // Sites of equal (weight, field) share their integral: a lattice's many equal sites cost
  // one quadrature (and its error counts once per site: the same error, the same sign).
  std::map<std::pair<double, double>, QuadratureLogZ> site_log_z;
  for (std::size_t i = 0; i < model.node_weights().size(); ++i) {
    const double w = model.node_weights()[i];
    const double h = model.fields()[i];
    if (model.continuous_kind() == ContinuousKind::gaussian) {
      out.value += 0.5 * std::log(kTwoPi / (beta * w)) + beta * h * h / (2.0 * w);
      continue;
    }
    const auto [it, fresh] = site_log_z.try_emplace({w, h});
    if (fresh) it->second = double_well_site_log_z(beta, w, h);
    out.value += it->second.value;
    out.error += it->second.error;
    out.exact = false;
  }
  return out;
}

QuadratureLogZ double_well_site_log_z(double beta, double lambda, double h) {
  const Site site{beta, lambda, h};
  const std::vector<double> roots = stationary_points(h / (4.0 * lambda));
  // Minima of u: the outer two of three roots, or the only one.
  std::vector<double> modes = {roots.front()};
  if (roots.size() == 3) modes.push_back(roots.back());
  double peak = -std::numeric_limits<double>::infinity();
  double level = std::numeric_limits<double>::infinity();
  for (double m : modes) {
    peak = std::max(peak, site.exponent(m));
    level = std::min(level, site.exponent(m) - kDepth);  // every mode's own peak counts
  }
  // Each mode's interval; with two modes, one interval when the barrier (the middle root)
  // stands above the level.
  struct Interval {
    double a, b, width, anchor;  // anchor: the (first) mode inside
  };
  std::vector<Interval> intervals;
  const bool joined = modes.size() == 2 && site.exponent(roots[1]) >= level;
  for (std::size_t k = 0; k < modes.size(); ++k) {
    const double m = modes[k];
    const double left = k == 1 ? roots[1] : beyond(site, m, -1.0, level);
    const double right = k == 0 && modes.size() == 2 ? roots[1] : beyond(site, m, 1.0, level);
    const double a = site.exponent(left) < level ? crossing(site, m, left, level) : left;
    const double b = site.exponent(right) < level ? crossing(site, m, right, level) : right;
    if (joined && k == 1) {
      intervals.back().b = b;
      intervals.back().width = std::min(intervals.back().width, site.width(m));
    } else {
      intervals.push_back({a, b, site.width(m), m});
    }
  }
  QuadratureLogZ out;
  double total = 0.0, error = 0.0;
  for (const Interval& in : intervals) {
    const double length = in.b - in.a;
    const double guess = std::ceil(length / (0.5 * std::min(in.width, length)));
    const auto n = std::max<std::int64_t>(64, static_cast<std::int64_t>(std::min(guess, 1e7)));
    double change = 0.0;
    total +=
        trapezoid(site, in.anchor, in.a - in.anchor, in.b - in.anchor, n, peak, change, out.points);
    error += change;
  }
  // Past the outer ends the exponent is concave (|x| > 1 / sqrt(3) there), so each tail is
  // at most its end's value over its slope there; between two intervals the integrand is
  // below the level over the gap.
  for (const double end : {intervals.front().a, intervals.back().b}) {
    error += std::exp(site.exponent(end) - peak) / std::abs(site.slope(end));
  }
  if (intervals.size() == 2) error += std::exp(level - peak) * (intervals[1].a - intervals[0].b);
  // The sums' rounding: each point's term and addition round, relative eps each.
  error += 2.0 * std::numeric_limits<double>::epsilon() * static_cast<double>(out.points) * total;
  out.value = peak + std::log(total);
  // Relative error of the integral = absolute error of its log; and the exponents at the
  // modes (the peak, each interval's shift) carry their rounding.
  double rounding = 0.0;
  for (double m : modes) rounding = std::max(rounding, site.rounding(m));
  out.error = error / total + 2.0 * rounding;
  return out;
}

}  // namespace hamon
