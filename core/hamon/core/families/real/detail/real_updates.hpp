// SPDX-License-Identifier: Apache-2.0
#pragma once
// The local updates of continuous models (spin_model.hpp), one site of one machine at a
// time, as device functions of the site's conditional density
//
//   p(x) ~ exp(-a (node term of x) + b x phi),  phi = sum_j J_ij x_j,
//
// with a = b = beta for a machine at beta on the model itself, and a = beta_max, b = beta
// on the annealing path (NrptOptions::reference). Every random word is a Philox word keyed
// by (node, machine, sweep, round) and the try (real_draw), and every operation is plain
// double arithmetic or deterministic_math.hpp's, so an update gives the same bits on every
// execution space.

#include <Kokkos_Core.hpp>
#include <cstdint>

#include "hamon/core/util/counter_rng.hpp"
#include "hamon/core/util/deterministic_math.hpp"

namespace hamon::detail {

/// Machine indices of continuous models stay below 2^24: the draw's second counter word
/// carries the machine in its low 24 bits and the call (which group of four words) above.
inline constexpr std::int32_t kMaxRealMachines = 1 << 24;

/// Four words for site `node` of `machine` in (sweep, round), call `call` < 256.
KOKKOS_INLINE_FUNCTION Philox4 real_draw(std::uint64_t seed, std::int64_t node,
                                         std::int32_t machine, std::uint32_t sweep,
                                         std::uint32_t round, std::uint32_t call) {
  return philox4(seed, static_cast<std::uint32_t>(node),
                 static_cast<std::uint32_t>(machine) | (call << 24), sweep, round);
}

/// Gaussian site: d x^2 / 2 - h x, so x ~ N((a h + b phi) / (a d), 1 / (a d)), exactly:
/// `z` is a standard normal draw (standard_normal_quantile of one uniform word).
KOKKOS_INLINE_FUNCTION double gaussian_site_value(double d, double h, double phi, double a,
                                                  double b, double z) {
  const double precision = a * d;
  const double mean = (a * h + b * phi) / precision;
  return mean + z / device_sqrt(precision);
}

/// The log density of a double-well site, up to a constant.
struct DoubleWellSite {
  double a_lambda;  // a lambda
  double slope;     // a h + b phi

  KOKKOS_INLINE_FUNCTION double log_density(double x) const {
    const double s = x * x - 1.0;
    return slope * x - a_lambda * s * s;
  }
};

/// Stepping-out steps and shrinkage tries of one slice-sampling update.
inline constexpr std::int32_t kSliceSteps = 16;
inline constexpr std::int32_t kSliceTries = 32;

/// One slice-sampling update of a double-well site (Neal 2003, stepping out and
/// shrinkage) from x0. The slice level, the interval's placement and the split of the
/// stepping-out budget take the first three words of call 0; shrinkage try t takes word t
/// of the calls after (its fourth word is try 0). The width is the scale of a well,
/// 1 / sqrt(a lambda), at most 10.
///
/// At most `tries` shrinkage tries: when none lands in the slice the site keeps x0. That
/// keeps the update exact: a move to x1 != x0 after t tries has the probability it has
/// with unbounded shrinkage, which is symmetric in (x0, x1), and the rest stays at x0, so
/// the chain stays reversible for the slice's uniform distribution (tested with a bound
/// of one try). The interval shrinks towards x0 geometrically, so with 32 tries the bound
/// is reached with probability far below 1e-6 per update.
template <class Words>
KOKKOS_INLINE_FUNCTION double double_well_slice_step(const DoubleWellSite& site, double x0,
                                                     const Words& words, std::int32_t tries) {
  const Philox4 first = words(0u);
  const double level = site.log_density(x0) + deterministic_log(to_unit_interval(first.w[0]));
  const double scale = site.a_lambda > 0.01 ? 1.0 / device_sqrt(site.a_lambda) : 10.0;
  double left = x0 - scale * to_unit_interval(first.w[1]);
  double right = left + scale;
  auto steps_left = static_cast<std::int32_t>(
      (static_cast<std::uint64_t>(first.w[2]) * static_cast<std::uint64_t>(kSliceSteps)) >> 32);
  std::int32_t steps_right = kSliceSteps - 1 - steps_left;
  while (steps_left > 0 && site.log_density(left) > level) {
    left -= scale;
    --steps_left;
  }
  while (steps_right > 0 && site.log_density(right) > level) {
    right += scale;
    --steps_right;
  }
  Philox4 batch = first;
  for (std::int32_t t = 0; t < tries; ++t) {
    const auto slot = static_cast<std::uint32_t>((t + 3) % 4);
    if (t > 0 && slot == 0) batch = words(static_cast<std::uint32_t>((t + 3) / 4));
    const double x1 = left + (right - left) * to_unit_interval(batch.w[slot]);
    if (site.log_density(x1) > level) return x1;
    if (x1 < x0) {
      left = x1;
    } else {
      right = x1;
    }
  }
  return x0;
}

}  // namespace hamon::detail
