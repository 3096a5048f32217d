// SPDX-License-Identifier: Apache-2.0
// The vector path of the continuous models' host sweep, once for every target
// (families/detail/vector_draws-inl.hpp says how it is compiled): a node's Gaussian draws and
// double-well slice steps for up to 32 machines side by side. Every lane does the operations
// of the scalar update (families/real/detail/real_updates.hpp, util/deterministic_math.hpp) in
// the same order on the same words, separate multiplies and adds, IEEE division and square
// root: the same bits as the portable loops and the device kernel on every target, which the
// tests check. Loops that run until every lane is done (stepping out, shrinkage) leave
// finished lanes untouched, so a lane's result does not depend on its neighbours.

#if defined(HAMON_REAL_REGISTERS_INL_HPP_) == defined(HWY_TARGET_TOGGLE)
#ifdef HAMON_REAL_REGISTERS_INL_HPP_
#undef HAMON_REAL_REGISTERS_INL_HPP_
#else
#define HAMON_REAL_REGISTERS_INL_HPP_
#endif

#include <hwy/highway.h>

#include <cstddef>
#include <cstdint>
#include <cstring>

#include "hamon/core/families/detail/vector_draws-inl.hpp"
#include "hamon/core/families/real/detail/real_updates.hpp"

HWY_BEFORE_NAMESPACE();
namespace hamon::detail::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

/// Machines of one call (kRealLanes in families/real/real_family.hpp).
inline constexpr std::size_t kRealRegisterLanes = 32;

/// Horner's rule c[0] r^n + ... + c[n], a multiply then an add per coefficient (horner in
/// util/deterministic_math.hpp).
template <class D, std::size_t N>
HWY_INLINE hn::Vec<D> horner_lanes(D d, hn::Vec<D> r, const double (&c)[N]) {
  auto p = hn::Set(d, c[0]);
  for (std::size_t k = 1; k < N; ++k) p = hn::Add(hn::Mul(p, r), hn::Set(d, c[k]));
  return p;
}

/// normal_quantile_central on every lane, from q = p - 1/2.
template <class D>
HWY_INLINE hn::Vec<D> normal_quantile_central_lanes(D d, hn::Vec<D> q) {
  constexpr double kNum[] = {2.5090809287301226727e+3, 3.3430575583588128105e+4,
                             6.7265770927008700853e+4, 4.5921953931549871457e+4,
                             1.3731693765509461125e+4, 1.9715909503065514427e+3,
                             1.3314166789178437745e+2, 3.3871328727963666080e+0};
  constexpr double kDen[] = {5.2264952788528545610e+3, 2.8729085735721942674e+4,
                             3.9307895800092710610e+4, 2.1213794301586595867e+4,
                             5.3941960214247511077e+3, 6.8718700749205790830e+2,
                             4.2313330701600911252e+1, 1.0};
  const auto r = hn::Sub(hn::Set(d, 0.180625), hn::Mul(q, q));
  return hn::Div(hn::Mul(q, horner_lanes(d, r, kNum)), horner_lanes(d, r, kDen));
}

/// The lanes where q = p - 1/2 lies outside the quantile's central region
/// (!normal_quantile_is_central).
template <class D>
HWY_INLINE hn::Mask<D> normal_quantile_tails(D d, hn::Vec<D> q) {
  return hn::Not(hn::And(hn::Ge(q, hn::Set(d, -0.425)), hn::Le(q, hn::Set(d, 0.425))));
}

/// standard_normal_quantile's tails for probabilities outside its central region.
template <class D>
HWY_INLINE hn::Vec<D> normal_quantile_tail_lanes(D d, hn::Vec<D> p) {
  constexpr double kNearNum[] = {7.74545014278341407640e-4, 2.27238449892691845833e-2,
                                 2.41780725177450611770e-1, 1.27045825245236838258e+0,
                                 3.64784832476320460504e+0, 5.76949722146069140550e+0,
                                 4.63033784615654529590e+0, 1.42343711074968357734e+0};
  constexpr double kNearDen[] = {1.05075007164441684324e-9, 5.47593808499534494600e-4,
                                 1.51986665636164571966e-2, 1.48103976427480074590e-1,
                                 6.89767334985100004550e-1, 1.67638483018380384940e+0,
                                 2.05319162663775882187e+0, 1.0};
  constexpr double kFarNum[] = {2.01033439929228813265e-7, 2.71155556874348757815e-5,
                                1.24266094738807843860e-3, 2.65321895265761230930e-2,
                                2.96560571828504891230e-1, 1.78482653991729133580e+0,
                                5.46378491116411436990e+0, 6.65790464350110377720e+0};
  constexpr double kFarDen[] = {2.04426310338993978564e-15, 1.42151175831644588870e-7,
                                1.84631831751005468180e-5,  7.86869131145613259100e-4,
                                1.48753612908506148525e-2,  1.36929880922735805310e-1,
                                5.99832206555887937690e-1,  1.0};
  const auto lower = hn::Lt(hn::Sub(p, hn::Set(d, 0.5)), hn::Zero(d));
  const auto tail = hn::IfThenElse(lower, p, hn::Sub(hn::Set(d, 1.0), p));
  const auto r = hn::Sqrt(hn::Neg(log_lanes(d, tail)));
  const auto rn = hn::Sub(r, hn::Set(d, 1.6));
  auto num = horner_lanes(d, rn, kNearNum);
  auto den = horner_lanes(d, rn, kNearDen);
  const auto far = hn::Not(hn::Le(r, hn::Set(d, 5.0)));
  if (HWY_UNLIKELY(!hn::AllFalse(d, far))) {  // min(p, 1 - p) below about 1.4e-11
    const auto rf = hn::Sub(r, hn::Set(d, 5.0));
    num = hn::IfThenElse(far, horner_lanes(d, rf, kFarNum), num);
    den = hn::IfThenElse(far, horner_lanes(d, rf, kFarDen), den);
  }
  const auto value = hn::Div(num, den);
  return hn::IfThenElse(lower, hn::Neg(value), value);
}

/// standard_normal_quantile of probabilities in (0, 1) on every lane.
template <class D>
HWY_INLINE hn::Vec<D> normal_quantile_lanes(D d, hn::Vec<D> p) {
  const auto q = hn::Sub(p, hn::Set(d, 0.5));
  const auto central = normal_quantile_central_lanes(d, q);
  const auto tails = normal_quantile_tails(d, q);
  if (hn::AllFalse(d, tails)) return central;
  return hn::IfThenElse(tails, normal_quantile_tail_lanes(d, p), central);
}

/// to_unit_interval of 32-bit words on every lane.
template <class D>
HWY_INLINE hn::Vec<D> unit_interval_of_words(D d, const std::uint32_t* words) {
  const hn::RebindToUnsigned<D> du64;
  const hn::Rebind<std::uint32_t, D> du32;
  return unit_interval_lanes(
      d, hn::BitCast(hn::RebindToSigned<D>(), hn::PromoteTo(du64, hn::LoadU(du32, words))));
}

/// gaussian_registers (real_registers.hpp) on this target. The tails' lanes (about 15%) are
/// gathered first, so their log, square root and division run on a few vectors per node
/// rather than on every lane.
HWY_INLINE void gaussian_lanes(const std::uint32_t* words, const double* phi, const double* a,
                               const double* b, double d_site, double h, double* out,
                               std::int32_t lanes, bool same_a) {
  const hn::ScalableTag<double> d;
  constexpr std::size_t kMax = hn::MaxLanes(d);
  static_assert(kMax <= 64, "a vector's tail lanes in one 64-bit word");
  const std::size_t n = hn::Lanes(d);
  alignas(64) double z[kRealRegisterLanes];
  alignas(64) double packed[kRealRegisterLanes + kMax];  // the tails' p, then their z
  std::uint64_t tail_bits[kRealRegisterLanes];           // per vector, its tails' lanes
  std::size_t n_tails = 0;
  for (std::size_t k = 0, v = 0; k < kRealRegisterLanes; k += n, ++v) {
    const auto p = unit_interval_of_words(d, words + k);
    const auto q = hn::Sub(p, hn::Set(d, 0.5));
    hn::Store(normal_quantile_central_lanes(d, q), d, z + k);
    const std::int32_t left = lanes - static_cast<std::int32_t>(k);
    const auto tails = hn::And(normal_quantile_tails(d, q),
                               hn::FirstN(d, left < 0 ? 0 : static_cast<std::size_t>(left)));
    alignas(8) std::uint8_t bits[8] = {};
    hn::StoreMaskBits(d, tails, bits);
    std::memcpy(&tail_bits[v], bits, sizeof bits);
    n_tails += hn::CompressStore(p, tails, d, packed + n_tails);
  }
  if (n_tails > 0) {
    // Harmless probabilities in the last vector's unused lanes.
    hn::StoreU(hn::Set(d, 0.25), d, packed + n_tails);
    for (std::size_t t = 0; t < n_tails; t += n) {
      hn::Store(normal_quantile_tail_lanes(d, hn::Load(d, packed + t)), d, packed + t);
    }
    // Back to their lanes, in the order they were packed.
    std::size_t t = 0;
    for (std::size_t k = 0, v = 0; k < kRealRegisterLanes; k += n, ++v) {
      for (std::uint64_t bits = tail_bits[v]; bits != 0; bits &= bits - 1) {
        z[k + hwy::Num0BitsBelowLS1Bit_Nonzero64(bits)] = packed[t++];
      }
    }
  }
  const auto dv = hn::Set(d, d_site);
  const auto hv = hn::Set(d, h);
  const auto root_a = hn::Sqrt(hn::Set(d, a[0] * d_site));
  for (std::size_t k = 0; k < static_cast<std::size_t>(lanes); k += n) {
    const auto av = hn::LoadU(d, a + k);
    const auto precision = hn::Mul(av, dv);
    const auto mean = hn::Div(
        hn::Add(hn::Mul(av, hv), hn::Mul(hn::LoadU(d, b + k), hn::LoadU(d, phi + k))), precision);
    const auto root = same_a ? root_a : hn::Sqrt(precision);
    hn::BlendedStore(hn::Add(mean, hn::Div(hn::Load(d, z + k), root)),
                     hn::FirstN(d, static_cast<std::size_t>(lanes) - k), d, out + k);
  }
}

/// DoubleWellSite::log_density on every lane.
template <class D>
HWY_INLINE hn::Vec<D> double_well_log_density(D d, hn::Vec<D> a_lambda, hn::Vec<D> slope,
                                              hn::Vec<D> x) {
  const auto s = hn::Sub(hn::Mul(x, x), hn::Set(d, 1.0));
  return hn::Sub(hn::Mul(slope, x), hn::Mul(hn::Mul(a_lambda, s), s));
}

/// The four words of real_draw call `call` for machines machine0 + l, l < 32: word j of
/// machine l in words[j][l], in 64-bit lanes.
struct RealDraws {
  alignas(64) std::int64_t words[4][kRealRegisterLanes];

  HWY_INLINE void draw(std::uint64_t seed, std::uint32_t node, std::uint32_t machine0,
                       std::uint32_t sweep, std::uint32_t round, std::uint32_t call) {
    alignas(64) std::uint32_t nodes[kGeneratorBatch], machines[kGeneratorBatch];
    alignas(64) std::uint32_t generated[4 * kGeneratorBatch];
    static_assert(kRealRegisterLanes == kGeneratorBatch, "one batch of generators per call");
    for (std::size_t l = 0; l < kRealRegisterLanes; ++l) {
      nodes[l] = node;
      machines[l] = (machine0 + static_cast<std::uint32_t>(l)) | (call << 24);
    }
    philox_generators(seed, nodes, machines, sweep, round, kRealRegisterLanes, generated);
    // Generator by generator to word by word: words (0, 1) and (2, 3) of a generator are
    // one 64-bit value each.
    const hn::ScalableTag<std::uint64_t> du;
    const hn::RebindToSigned<decltype(du)> di;
    const auto* pairs = reinterpret_cast<const std::uint64_t*>(generated);
    const auto low = hn::Set(du, 0xFFFFFFFFull);
    for (std::size_t l = 0; l < kRealRegisterLanes; l += hn::Lanes(du)) {
      hn::Vec<decltype(du)> w01, w23;
      hn::LoadInterleaved2(du, pairs + 2 * l, w01, w23);
      hn::Store(hn::BitCast(di, hn::And(w01, low)), di, words[0] + l);
      hn::Store(hn::BitCast(di, hn::ShiftRight<32>(w01)), di, words[1] + l);
      hn::Store(hn::BitCast(di, hn::And(w23, low)), di, words[2] + l);
      hn::Store(hn::BitCast(di, hn::ShiftRight<32>(w23)), di, words[3] + l);
    }
  }
};

/// double_well_registers (real_registers.hpp) on this target: every vector of lanes in one
/// loop per phase (independent chains side by side).
HWY_INLINE void double_well_lanes(std::uint64_t seed, std::uint32_t node, std::uint32_t machine0,
                                  std::uint32_t sweep, std::uint32_t round, const double* x0_in,
                                  const double* a_lambda_in, const double* slope_in, double* out,
                                  std::int32_t lanes, std::int32_t tries) {
  const hn::ScalableTag<double> d;
  const hn::RebindToSigned<decltype(d)> di;
  using V = hn::Vec<decltype(d)>;
  using M = hn::Mask<decltype(d)>;
  const std::size_t n = hn::Lanes(d);
  constexpr std::size_t kVectors = kRealRegisterLanes / hn::MaxLanes(d);
  const auto n_vectors = (static_cast<std::size_t>(lanes) + n - 1) / n;
  // The lanes' starts, zero past the machines (never read beyond them).
  alignas(64) double start[kRealRegisterLanes] = {};
  for (std::int32_t l = 0; l < lanes; ++l) start[l] = x0_in[l];
  RealDraws draws;
  draws.draw(seed, node, machine0, sweep, round, 0u);
  const auto unit = [&](std::size_t slot, std::size_t h) HWY_ATTR {
    return unit_interval_lanes(d, hn::Load(di, draws.words[slot] + h * n));
  };
  V x0[kVectors], al[kVectors], slope[kVectors], level[kVectors], left[kVectors], right[kVectors],
      result[kVectors], scale[kVectors], steps_left[kVectors], steps_right[kVectors];
  M done[kVectors];
  for (std::size_t h = 0; h < n_vectors; ++h) {
    const std::int32_t left_lanes = lanes - static_cast<std::int32_t>(h * n);
    done[h] = hn::Not(hn::FirstN(d, static_cast<std::size_t>(left_lanes)));
    x0[h] = hn::Load(d, start + h * n);
    al[h] = hn::IfThenElseZero(hn::Not(done[h]), hn::LoadU(d, a_lambda_in + h * n));
    slope[h] = hn::IfThenElseZero(hn::Not(done[h]), hn::LoadU(d, slope_in + h * n));
    result[h] = x0[h];
    level[h] =
        hn::Add(double_well_log_density(d, al[h], slope[h], x0[h]), log_lanes(d, unit(0, h)));
    scale[h] = hn::IfThenElse(hn::Gt(al[h], hn::Set(d, 0.01)),
                              hn::Div(hn::Set(d, 1.0), hn::Sqrt(al[h])), hn::Set(d, 10.0));
    left[h] = hn::Sub(x0[h], hn::Mul(scale[h], unit(1, h)));
    right[h] = hn::Add(left[h], scale[h]);
    // (w2 kSliceSteps) >> 32 with kSliceSteps = 16: the word's top four bits, counted in
    // doubles (small integers, exact) so their masks are the values' masks.
    static_assert(kSliceSteps == 16);
    steps_left[h] = hn::ConvertTo(d, hn::ShiftRight<28>(hn::Load(di, draws.words[2] + h * n)));
    steps_right[h] = hn::Sub(hn::Set(d, static_cast<double>(kSliceSteps - 1)), steps_left[h]);
  }
  // Stepping out: a lane steps while it has steps left and its end lies inside the slice.
  const auto stepping = [&](std::size_t h, V steps, V end) HWY_ATTR {
    return hn::AndNot(done[h],
                      hn::And(hn::Gt(steps, hn::Zero(d)),
                              hn::Gt(double_well_log_density(d, al[h], slope[h], end), level[h])));
  };
  const auto step_out = [&](V(&end)[kVectors], V(&steps)[kVectors], bool up) HWY_ATTR {
    M go[kVectors];
    bool any = false;
    for (std::size_t h = 0; h < n_vectors; ++h) {
      go[h] = stepping(h, steps[h], end[h]);
      any = any || !hn::AllFalse(d, go[h]);
    }
    while (any) {
      any = false;
      for (std::size_t h = 0; h < n_vectors; ++h) {
        if (hn::AllFalse(d, go[h])) continue;
        end[h] = hn::IfThenElse(go[h], up ? hn::Add(end[h], scale[h]) : hn::Sub(end[h], scale[h]),
                                end[h]);
        steps[h] = hn::IfThenElse(go[h], hn::Sub(steps[h], hn::Set(d, 1.0)), steps[h]);
        go[h] = stepping(h, steps[h], end[h]);
        any = any || !hn::AllFalse(d, go[h]);
      }
    }
  };
  step_out(left, steps_left, false);
  step_out(right, steps_right, true);
  // Shrinkage: try t takes word (t + 3) % 4 of call (t + 3) / 4.
  for (std::int32_t t = 0; t < tries; ++t) {
    const auto slot = static_cast<std::size_t>((t + 3) % 4);
    bool all_done = true;
    for (std::size_t h = 0; h < n_vectors; ++h) all_done = all_done && hn::AllTrue(d, done[h]);
    if (all_done) break;
    if (t > 0 && slot == 0) {
      draws.draw(seed, node, machine0, sweep, round, static_cast<std::uint32_t>((t + 3) / 4));
    }
    for (std::size_t h = 0; h < n_vectors; ++h) {
      if (hn::AllTrue(d, done[h])) continue;
      const V x1 = hn::Add(left[h], hn::Mul(hn::Sub(right[h], left[h]), unit(slot, h)));
      const M inside =
          hn::AndNot(done[h], hn::Gt(double_well_log_density(d, al[h], slope[h], x1), level[h]));
      result[h] = hn::IfThenElse(inside, x1, result[h]);
      const M outside = hn::AndNot(inside, hn::Not(done[h]));
      done[h] = hn::Or(done[h], inside);
      const M below = hn::And(outside, hn::Lt(x1, x0[h]));
      left[h] = hn::IfThenElse(below, x1, left[h]);
      right[h] = hn::IfThenElse(hn::AndNot(below, outside), x1, right[h]);
    }
  }
  for (std::size_t h = 0; h < n_vectors; ++h) {
    const std::int32_t left_lanes = lanes - static_cast<std::int32_t>(h * n);
    hn::BlendedStore(result[h], hn::FirstN(d, static_cast<std::size_t>(left_lanes)), d,
                     out + h * n);
  }
}

/// f(lanes) of n values, whole vectors and then the rest in a padded one (the tests' hooks).
template <class F>
HWY_INLINE void map_lanes(const double* x, double* out, std::size_t count, F&& f) {
  const hn::ScalableTag<double> d;
  const std::size_t n = hn::Lanes(d);
  std::size_t i = 0;
  for (; i + n <= count; i += n) hn::StoreU(f(d, hn::LoadU(d, x + i)), d, out + i);
  if (i == count) return;
  alignas(64) double padded[hn::MaxLanes(d)];
  for (std::size_t k = 0; k < n; ++k) padded[k] = i + k < count ? x[i + k] : 0.5;
  hn::Store(f(d, hn::Load(d, padded)), d, padded);
  for (std::size_t k = 0; i + k < count; ++k) out[i + k] = padded[k];
}

}  // namespace hamon::detail::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#endif  // HAMON_REAL_REGISTERS_INL_HPP_
