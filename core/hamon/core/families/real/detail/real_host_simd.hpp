// SPDX-License-Identifier: Apache-2.0
#pragma once
// The AVX-512 register paths of the continuous models' host sweep (families/real/real_family.hpp):
// a node's Gaussian draws and double-well slice steps for up to 32 machines side by side.
// Every lane does the operations of the scalar update (families/real/detail/real_updates.hpp,
// util/deterministic_math.hpp) in the same order on the same words, separate multiplies
// and adds, IEEE division and square root: the same bits as the portable loops and the
// device kernel, which the tests check. Loops that run until every lane is done (stepping
// out, shrinkage) leave finished lanes untouched, so a lane's result does not depend on
// its neighbours. Compiled and chosen as families/detail/host_simd.hpp says.

#include "hamon/core/families/detail/host_simd.hpp"

#ifdef HAMON_HOST_AVX512

#include <cstdint>

#include "hamon/core/families/real/detail/real_updates.hpp"

namespace hamon::detail::simd {

/// Lanes l < lanes (at most 8) of one register set.
HAMON_AVX512 inline __mmask8 lane_mask8(std::int32_t lanes) {
  return lanes >= 8 ? __mmask8(0xFF) : __mmask8((1u << (lanes < 0 ? 0 : lanes)) - 1u);
}

HAMON_AVX512 inline __m512d negate8(__m512d x) {
  return _mm512_castsi512_pd(
      _mm512_xor_si512(_mm512_castpd_si512(x), _mm512_set1_epi64(std::int64_t{1} << 63)));
}

/// Horner's rule c[0] r^n + ... + c[n], a multiply then an add per coefficient.
template <int N>
HAMON_AVX512 inline __m512d horner8(__m512d r, const double (&c)[N]) {
  __m512d p = _mm512_set1_pd(c[0]);
  for (int k = 1; k < N; ++k) p = _mm512_add_pd(_mm512_mul_pd(p, r), _mm512_set1_pd(c[k]));
  return p;
}

/// The central region of standard_normal_quantile (normal_quantile_central) of 8 lanes,
/// from q = p - 1/2.
HAMON_AVX512 inline __m512d normal_quantile_central8(__m512d q) {
  constexpr double kNum[] = {2.5090809287301226727e+3, 3.3430575583588128105e+4,
                             6.7265770927008700853e+4, 4.5921953931549871457e+4,
                             1.3731693765509461125e+4, 1.9715909503065514427e+3,
                             1.3314166789178437745e+2, 3.3871328727963666080e+0};
  constexpr double kDen[] = {5.2264952788528545610e+3, 2.8729085735721942674e+4,
                             3.9307895800092710610e+4, 2.1213794301586595867e+4,
                             5.3941960214247511077e+3, 6.8718700749205790830e+2,
                             4.2313330701600911252e+1, 1.0};
  const __m512d r = _mm512_sub_pd(_mm512_set1_pd(0.180625), _mm512_mul_pd(q, q));
  return _mm512_div_pd(_mm512_mul_pd(q, horner8(r, kNum)), horner8(r, kDen));
}

/// The lanes of 8 where q = p - 1/2 lies outside the quantile's central region.
HAMON_AVX512 inline __mmask8 normal_quantile_tails8(__m512d q) {
  return static_cast<__mmask8>(~(_mm512_cmp_pd_mask(q, _mm512_set1_pd(-0.425), _CMP_GE_OQ) &
                                 _mm512_cmp_pd_mask(q, _mm512_set1_pd(0.425), _CMP_LE_OQ)));
}

/// standard_normal_quantile's tails for 8 probabilities outside its central region.
HAMON_AVX512 inline __m512d normal_quantile_tail8(__m512d p) {
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
  const __mmask8 lower =
      _mm512_cmp_pd_mask(_mm512_sub_pd(p, _mm512_set1_pd(0.5)), _mm512_setzero_pd(), _CMP_LT_OQ);
  const __m512d tail = _mm512_mask_mov_pd(_mm512_sub_pd(_mm512_set1_pd(1.0), p), lower, p);
  const __m512d r = _mm512_sqrt_pd(negate8(log8(tail)));
  const __m512d rn = _mm512_sub_pd(r, _mm512_set1_pd(1.6));
  __m512d num = horner8(rn, kNearNum);
  __m512d den = horner8(rn, kNearDen);
  const __mmask8 far = _mm512_cmp_pd_mask(r, _mm512_set1_pd(5.0), _CMP_NLE_UQ);
  if (far != 0) {  // min(p, 1 - p) below about 1.4e-11: never for a 32-bit word
    const __m512d rf = _mm512_sub_pd(r, _mm512_set1_pd(5.0));
    num = _mm512_mask_mov_pd(num, far, horner8(rf, kFarNum));
    den = _mm512_mask_mov_pd(den, far, horner8(rf, kFarDen));
  }
  const __m512d value = _mm512_div_pd(num, den);
  return _mm512_mask_mov_pd(value, lower, negate8(value));
}

/// standard_normal_quantile (util/deterministic_math.hpp) of 8 probabilities in (0, 1).
HAMON_AVX512 inline __m512d normal_quantile8(__m512d p) {
  const __m512d central = normal_quantile_central8(_mm512_sub_pd(p, _mm512_set1_pd(0.5)));
  const __mmask8 tails = normal_quantile_tails8(_mm512_sub_pd(p, _mm512_set1_pd(0.5)));
  if (tails == 0) return central;
  return _mm512_mask_mov_pd(central, tails, normal_quantile_tail8(p));
}

/// The Gaussian updates of `lanes` (at most 32) machines of one node: lane l draws from
/// words[l] (to_unit_interval, standard_normal_quantile) and writes gaussian_site_value
/// (d, h, phi[l], a[l], b[l], z) to out[l]. Arrays of 32. The tails' lanes (about 15%)
/// are packed together first, so their log, square root and division run on about one
/// register per node rather than four. With `same_a` (every a[l] equal) the square root
/// of the precision is taken once.
HAMON_AVX512 inline void gaussian_lanes(const std::uint32_t* words, const double* phi,
                                        const double* a, const double* b, double d, double h,
                                        double* out, std::int32_t lanes, bool same_a) {
  constexpr int R = 4;
  __m512d p[R], z[R];
  __mmask8 tails[R];
  alignas(64) double packed[8 * R + 8];
  std::int32_t n_tails = 0;
  for (int k = 0; k < R; ++k) {
    p[k] = unit_interval8(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(words + 8 * k)));
    const __m512d q = _mm512_sub_pd(p[k], _mm512_set1_pd(0.5));
    z[k] = normal_quantile_central8(q);
    tails[k] = normal_quantile_tails8(q) & lane_mask8(lanes - 8 * k);
    _mm512_mask_compressstoreu_pd(packed + n_tails, tails[k], p[k]);
    n_tails += _mm_popcnt_u32(tails[k]);
  }
  for (std::int32_t t = 0; t < n_tails; t += 8) {
    _mm512_store_pd(packed + t, normal_quantile_tail8(_mm512_mask_loadu_pd(
                                    _mm512_set1_pd(0.25), lane_mask8(n_tails - t), packed + t)));
  }
  n_tails = 0;
  __m512d root_a = _mm512_setzero_pd();
  if (same_a) root_a = _mm512_sqrt_pd(_mm512_set1_pd(a[0] * d));
  for (int k = 0; k < R && 8 * k < lanes; ++k) {
    z[k] = _mm512_mask_expandloadu_pd(z[k], tails[k], packed + n_tails);
    n_tails += _mm_popcnt_u32(tails[k]);
    const __m512d av = _mm512_loadu_pd(a + 8 * k);
    const __m512d precision = _mm512_mul_pd(av, _mm512_set1_pd(d));
    const __m512d mean = _mm512_div_pd(
        _mm512_add_pd(_mm512_mul_pd(av, _mm512_set1_pd(h)),
                      _mm512_mul_pd(_mm512_loadu_pd(b + 8 * k), _mm512_loadu_pd(phi + 8 * k))),
        precision);
    const __m512d root = same_a ? root_a : _mm512_sqrt_pd(precision);
    _mm512_mask_storeu_pd(out + 8 * k, lane_mask8(lanes - 8 * k),
                          _mm512_add_pd(mean, _mm512_div_pd(z[k], root)));
  }
}

/// DoubleWellSite::log_density on 8 lanes.
HAMON_AVX512 inline __m512d double_well_log_density8(__m512d a_lambda, __m512d slope, __m512d x) {
  const __m512d s = _mm512_sub_pd(_mm512_mul_pd(x, x), _mm512_set1_pd(1.0));
  return _mm512_sub_pd(_mm512_mul_pd(slope, x), _mm512_mul_pd(_mm512_mul_pd(a_lambda, s), s));
}

/// The four words of call `call` (real_draw) for machines machine0 + l, l < 8 R.
template <int R>
HAMON_AVX512 inline void real_draw_lanes(std::uint64_t seed, std::uint32_t node,
                                         std::uint32_t machine0, std::uint32_t sweep,
                                         std::uint32_t round, std::uint32_t call,
                                         __m512i (&w)[4][R]) {
  const __m512i offsets = _mm512_setr_epi64(0, 1, 2, 3, 4, 5, 6, 7);
  for (int h = 0; h < R; ++h) {
    w[0][h] = _mm512_set1_epi64(node);
    w[1][h] = _mm512_add_epi64(
        offsets, _mm512_set1_epi64(static_cast<std::uint32_t>(machine0 + 8 * h) | (call << 24)));
    w[2][h] = _mm512_set1_epi64(sweep);
    w[3][h] = _mm512_set1_epi64(round);
  }
  philox_lanes64<R>(seed, w[0], w[1], w[2], w[3]);
}

/// double_well_slice_step for `lanes` (at most 8 R) machines machine0 + l of one node, in
/// registers: site (a_lambda[l], slope[l]) from x0[l] into out[l]. Arrays of 8 R.
template <int R>
HAMON_AVX512 inline void double_well_lanes(std::uint64_t seed, std::uint32_t node,
                                           std::uint32_t machine0, std::uint32_t sweep,
                                           std::uint32_t round, const double* x0_in,
                                           const double* a_lambda_in, const double* slope_in,
                                           double* out, std::int32_t lanes, std::int32_t tries) {
  __m512i w[4][R];
  real_draw_lanes<R>(seed, node, machine0, sweep, round, 0u, w);
  __m512d x0[R], al[R], slope[R], level[R], left[R], right[R], result[R], scale[R];
  __m512i steps_left[R], steps_right[R];
  __mmask8 done[R];
  for (int h = 0; h < R; ++h) {
    done[h] = static_cast<__mmask8>(~lane_mask8(lanes - 8 * h));
    x0[h] = _mm512_maskz_loadu_pd(static_cast<__mmask8>(~done[h]), x0_in + 8 * h);
    al[h] = _mm512_maskz_loadu_pd(static_cast<__mmask8>(~done[h]), a_lambda_in + 8 * h);
    slope[h] = _mm512_maskz_loadu_pd(static_cast<__mmask8>(~done[h]), slope_in + 8 * h);
    result[h] = x0[h];
    level[h] = _mm512_add_pd(double_well_log_density8(al[h], slope[h], x0[h]),
                             log8(unit_interval64(w[0][h])));
    scale[h] = _mm512_mask_mov_pd(_mm512_set1_pd(10.0),
                                  _mm512_cmp_pd_mask(al[h], _mm512_set1_pd(0.01), _CMP_GT_OQ),
                                  _mm512_div_pd(_mm512_set1_pd(1.0), _mm512_sqrt_pd(al[h])));
    left[h] = _mm512_sub_pd(x0[h], _mm512_mul_pd(scale[h], unit_interval64(w[1][h])));
    right[h] = _mm512_add_pd(left[h], scale[h]);
    // (w2 kSliceSteps) >> 32 with kSliceSteps = 16: the word's top four bits.
    static_assert(kSliceSteps == 16);
    steps_left[h] =
        _mm512_srli_epi64(_mm512_and_si512(w[2][h], _mm512_set1_epi64(0xFFFFFFFFll)), 28);
    steps_right[h] = _mm512_sub_epi64(_mm512_set1_epi64(kSliceSteps - 1), steps_left[h]);
  }
  // Stepping out, every register's lanes in one loop (independent chains side by side):
  // a lane steps while it has steps left and its end lies inside the slice.
  const __m512i one = _mm512_set1_epi64(1);
  auto stepping = [&](int h, __m512i n, __m512d end) HAMON_AVX512 {
    return _mm512_mask_cmp_pd_mask(
        _mm512_mask_cmpgt_epi64_mask(static_cast<__mmask8>(~done[h]), n, _mm512_setzero_si512()),
        double_well_log_density8(al[h], slope[h], end), level[h], _CMP_GT_OQ);
  };
  __mmask8 go[R];
  bool any = false;
  for (int h = 0; h < R; ++h) {
    go[h] = stepping(h, steps_left[h], left[h]);
    any = any || go[h] != 0;
  }
  while (any) {
    any = false;
    for (int h = 0; h < R; ++h) {
      if (go[h] == 0) continue;
      left[h] = _mm512_mask_sub_pd(left[h], go[h], left[h], scale[h]);
      steps_left[h] = _mm512_mask_sub_epi64(steps_left[h], go[h], steps_left[h], one);
      go[h] = stepping(h, steps_left[h], left[h]);
      any = any || go[h] != 0;
    }
  }
  for (int h = 0; h < R; ++h) {
    go[h] = stepping(h, steps_right[h], right[h]);
    any = any || go[h] != 0;
  }
  while (any) {
    any = false;
    for (int h = 0; h < R; ++h) {
      if (go[h] == 0) continue;
      right[h] = _mm512_mask_add_pd(right[h], go[h], right[h], scale[h]);
      steps_right[h] = _mm512_mask_sub_epi64(steps_right[h], go[h], steps_right[h], one);
      go[h] = stepping(h, steps_right[h], right[h]);
      any = any || go[h] != 0;
    }
  }
  // Shrinkage: try t takes word (t + 3) % 4 of call (t + 3) / 4.
  for (std::int32_t t = 0; t < tries; ++t) {
    const int slot = (t + 3) % 4;
    bool all_done = true;
    for (int h = 0; h < R; ++h) all_done = all_done && done[h] == __mmask8(0xFF);
    if (all_done) break;
    if (t > 0 && slot == 0) {
      real_draw_lanes<R>(seed, node, machine0, sweep, round,
                         static_cast<std::uint32_t>((t + 3) / 4), w);
    }
    for (int h = 0; h < R; ++h) {
      const auto active = static_cast<__mmask8>(~done[h]);
      if (active == 0) continue;
      const __m512d x1 = _mm512_add_pd(
          left[h], _mm512_mul_pd(_mm512_sub_pd(right[h], left[h]), unit_interval64(w[slot][h])));
      const __mmask8 inside = _mm512_mask_cmp_pd_mask(
          active, double_well_log_density8(al[h], slope[h], x1), level[h], _CMP_GT_OQ);
      result[h] = _mm512_mask_mov_pd(result[h], inside, x1);
      done[h] |= inside;
      const auto outside = static_cast<__mmask8>(active & ~inside);
      const __mmask8 below = _mm512_mask_cmp_pd_mask(outside, x1, x0[h], _CMP_LT_OQ);
      left[h] = _mm512_mask_mov_pd(left[h], below, x1);
      right[h] = _mm512_mask_mov_pd(right[h], static_cast<__mmask8>(outside & ~below), x1);
    }
  }
  for (int h = 0; h < R; ++h) {
    _mm512_mask_storeu_pd(out + 8 * h, lane_mask8(lanes - 8 * h), result[h]);
  }
}

}  // namespace hamon::detail::simd

#endif  // HAMON_HOST_AVX512
