// SPDX-License-Identifier: Apache-2.0
#pragma once
// AVX-512 building blocks of the host sweep: 16 Philox4x32-10 generators in registers, the
// reordering of their bytes into machine lanes, and the byte decisions. Never in device
// code; everything here computes exactly what the portable loops compute, which the tests
// check bit for bit.
//
// Chosen at run time: on x86-64 with GCC or Clang every AVX-512 function is compiled for
// AVX-512 F/BW/VL/DQ by a target attribute (HAMON_AVX512), whatever the build's -march,
// and runs only where cpu_has_avx512() says the CPU has them. So one binary (a Spack build
// for a generic target, a cluster node unlike the build host) takes the register path
// where the CPU has it and the portable loops elsewhere, never an illegal instruction.
// Not under nvcc (its front end is not given the AVX-512 headers) nor with
// HAMON_DISABLE_HOST_SIMD.

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__)) && !defined(__CUDACC__) && \
    !defined(__CUDA_ARCH__) && !defined(HAMON_DISABLE_HOST_SIMD)
#define HAMON_HOST_AVX512 1
#define HAMON_AVX512 __attribute__((target("avx512f,avx512bw,avx512vl,avx512dq")))
#endif

#ifdef HAMON_HOST_AVX512
// GCC 12's AVX-512 headers trip its own -Wuninitialized (_mm512_undefined_*, GCC PR
// 105593, fixed in 12.3); the pragma covers the header's text.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wuninitialized"
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#include <immintrin.h>
#pragma GCC diagnostic pop
#else
#include <immintrin.h>
#endif

#include <cstdint>

#include "hamon/core/util/counter_rng.hpp"
#include "hamon/core/util/deterministic_math.hpp"

namespace hamon::detail::simd {

/// Whether this CPU runs the register path (AVX-512 F, BW, VL and DQ); checked once.
inline bool cpu_has_avx512() {
#if defined(__AVX512F__) && defined(__AVX512BW__) && defined(__AVX512VL__) && defined(__AVX512DQ__)
  return true;  // the build targets it already
#else
  static const bool has = __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
                          __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("avx512dq");
  return has;
#endif
}

/// Word j of generator g (g < 16) at dword lane g of words[j].
struct PhiloxWords16 {
  __m512i words[4];
};

/// Philox4x32-10 (counter_rng.hpp) for 8 R generators in 64-bit lanes, R registers per
/// counter word, in place: on entry the counters' words in the low dwords (the high ones
/// zero), on return the words in the low dwords (the high ones hold anything).
template <int R>
HAMON_AVX512 inline void philox_lanes64(std::uint64_t seed, __m512i (&c0)[R], __m512i (&c1)[R],
                                        __m512i (&c2)[R], __m512i (&c3)[R]) {
  const __m512i m0 = _mm512_set1_epi64(kPhiloxMultiplier0);
  const __m512i m1 = _mm512_set1_epi64(kPhiloxMultiplier1);
  auto k0 = static_cast<std::uint32_t>(seed);
  auto k1 = static_cast<std::uint32_t>(seed >> 32);
  for (int r = 0; r < kPhiloxRounds; ++r) {
    const __m512i key0 = _mm512_set1_epi64(k0);
    const __m512i key1 = _mm512_set1_epi64(k1);
    for (int h = 0; h < R; ++h) {
      const __m512i p0 = _mm512_mul_epu32(c0[h], m0);
      const __m512i p1 = _mm512_mul_epu32(c2[h], m1);
      // The high halves of the products move to the low dwords by a dword swap (a
      // shuffle port, leaving the shift/multiply port to the multiplies).
      const __m512i hi0 = _mm512_shuffle_epi32(p0, _MM_PERM_CDAB);
      const __m512i hi1 = _mm512_shuffle_epi32(p1, _MM_PERM_CDAB);
      c0[h] = _mm512_ternarylogic_epi64(hi1, c1[h], key0, 0x96);  // xor of the three
      c2[h] = _mm512_ternarylogic_epi64(hi0, c3[h], key1, 0x96);
      c1[h] = p1;
      c3[h] = p0;
    }
    k0 += kPhiloxWeyl0;
    k1 += kPhiloxWeyl1;
  }
}

/// Philox4x32-10 for N batches of 16 counters (node[b][g], group[g], c, d) under `seed`.
/// The counters live in 64-bit lanes (8 generators per register): _mm512_mul_epu32 forms
/// the full 32x32->64 products in one instruction and reads only the low halves, so the
/// high halves may hold anything between rounds. A round is a chain multiply -> swap ->
/// xor (~7 cycles); 2 N independent registers per word keep the multiplier busy meanwhile.
template <int N>
HAMON_AVX512 inline void philox16(std::uint64_t seed, const __m512i (&node)[N], __m512i group,
                                  std::uint32_t c, std::uint32_t d, PhiloxWords16 (&out)[N]) {
  constexpr int R = 2 * N;  // registers per counter word
  __m512i c0[R], c1[R], c2[R], c3[R];
  const __m512i group_lo = _mm512_cvtepu32_epi64(_mm512_castsi512_si256(group));
  const __m512i group_hi = _mm512_cvtepu32_epi64(_mm512_extracti64x4_epi64(group, 1));
  for (int b = 0; b < N; ++b) {
    c0[2 * b] = _mm512_cvtepu32_epi64(_mm512_castsi512_si256(node[b]));
    c0[2 * b + 1] = _mm512_cvtepu32_epi64(_mm512_extracti64x4_epi64(node[b], 1));
    c1[2 * b] = group_lo;
    c1[2 * b + 1] = group_hi;
  }
  for (int h = 0; h < R; ++h) {
    c2[h] = _mm512_set1_epi64(c);
    c3[h] = _mm512_set1_epi64(d);
  }
  philox_lanes64<R>(seed, c0, c1, c2, c3);
  // The low dword of each 64-bit lane, generators 0..7 then 8..15.
  const __m512i even = _mm512_setr_epi32(0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30);
  for (int b = 0; b < N; ++b) {
    out[b] = PhiloxWords16{{_mm512_permutex2var_epi32(c0[2 * b], even, c0[2 * b + 1]),
                            _mm512_permutex2var_epi32(c1[2 * b], even, c1[2 * b + 1]),
                            _mm512_permutex2var_epi32(c2[2 * b], even, c2[2 * b + 1]),
                            _mm512_permutex2var_epi32(c3[2 * b], even, c3[2 * b + 1])}};
  }
}

/// Stores the 16 generators' words generator by generator: generator g's four words (its
/// 16 bytes, byte j for machine lane j) at out + generator_offset(g). `out`: 64 dwords,
/// 64-byte aligned. A 4 x 4 transpose within each 128-bit lane, so generator 4 i + j lands
/// in lane i of register j.
HAMON_AVX512 inline void store_by_generator(const PhiloxWords16& p, std::uint32_t* out) {
  const __m512i t0 = _mm512_unpacklo_epi32(p.words[0], p.words[1]);
  const __m512i t1 = _mm512_unpackhi_epi32(p.words[0], p.words[1]);
  const __m512i t2 = _mm512_unpacklo_epi32(p.words[2], p.words[3]);
  const __m512i t3 = _mm512_unpackhi_epi32(p.words[2], p.words[3]);
  _mm512_store_si512(out, _mm512_unpacklo_epi64(t0, t2));
  _mm512_store_si512(out + 16, _mm512_unpackhi_epi64(t0, t2));
  _mm512_store_si512(out + 32, _mm512_unpacklo_epi64(t1, t3));
  _mm512_store_si512(out + 48, _mm512_unpackhi_epi64(t1, t3));
}

inline constexpr std::int32_t generator_offset(std::int32_t g) {
  return 16 * (g % 4) + 4 * (g / 4);
}

/// The 16 bytes of a generator stored by store_by_generator, one per dword lane.
HAMON_AVX512 inline __m512i generator_bytes(const std::uint32_t* by_generator, std::int32_t g) {
  return _mm512_cvtepu8_epi32(
      _mm_load_si128(reinterpret_cast<const __m128i*>(by_generator + generator_offset(g))));
}

/// Lanes l < lanes set.
HAMON_AVX512 inline __mmask32 lane_mask(std::int32_t lanes) {
  return lanes >= 32 ? __mmask32(0xFFFFFFFFu) : __mmask32((1u << lanes) - 1u);
}

/// byte_threshold_decision (families/spin/heat_bath.hpp) on 16 lanes: lane l is possible iff
/// index[l] >= floor[l]; it decides +1 iff possible and bytes[l] < limits[index[l]] >> 24,
/// and ties iff possible and the two are equal. `limit` returns the gathered limits.
struct ByteDecisions16 {
  __mmask16 up, tie;
  __m512i limit;
};

HAMON_AVX512 inline ByteDecisions16 decide_bytes16(__mmask16 active, __m512i index, __m512i floor,
                                                   __m512i bytes, const std::uint32_t* limits) {
  const __mmask16 possible = _mm512_mask_cmpge_epi32_mask(active, index, floor);
  const __m512i limit =
      _mm512_mask_i32gather_epi32(_mm512_setzero_si512(), possible, index, limits, 4);
  const __m512i top = _mm512_srli_epi32(limit, 24);
  return ByteDecisions16{_mm512_mask_cmplt_epu32_mask(possible, bytes, top),
                         _mm512_mask_cmpeq_epi32_mask(possible, bytes, top), limit};
}

/// deterministic_exp (util/deterministic_math.hpp) on 8 lanes: the same operations in the same
/// order, so the same bits (separate multiplies and adds, never fused).
HAMON_AVX512 inline __m512d exp8(__m512d x) {
  constexpr double kLog2e = 1.4426950408889634074;
  constexpr double kLn2Hi = 6.93147180369123816490e-01;
  constexpr double kLn2Lo = 1.90821492927058770002e-10;
  constexpr double kRoundMagic = 6755399441055744.0;
  x = _mm512_min_pd(_mm512_max_pd(x, _mm512_set1_pd(-708.0)), _mm512_set1_pd(708.0));
  const __m512d magic = _mm512_set1_pd(kRoundMagic);
  const __m512d k =
      _mm512_sub_pd(_mm512_add_pd(_mm512_mul_pd(x, _mm512_set1_pd(kLog2e)), magic), magic);
  const __m512d r = _mm512_sub_pd(_mm512_sub_pd(x, _mm512_mul_pd(k, _mm512_set1_pd(kLn2Hi))),
                                  _mm512_mul_pd(k, _mm512_set1_pd(kLn2Lo)));
  auto step = [&r](__m512d p, double c)
                  HAMON_AVX512 { return _mm512_add_pd(_mm512_mul_pd(p, r), _mm512_set1_pd(c)); };
  __m512d p = _mm512_set1_pd(1.0 / 6227020800.0);
  p = step(p, 1.0 / 479001600.0);
  p = step(p, 1.0 / 39916800.0);
  p = step(p, 1.0 / 3628800.0);
  p = step(p, 1.0 / 362880.0);
  p = step(p, 1.0 / 40320.0);
  p = step(p, 1.0 / 5040.0);
  p = step(p, 1.0 / 720.0);
  p = step(p, 1.0 / 120.0);
  p = step(p, 1.0 / 24.0);
  p = step(p, 1.0 / 6.0);
  p = step(p, 0.5);
  p = step(p, 1.0);
  p = step(p, 1.0);
  const __m512i bits =
      _mm512_slli_epi64(_mm512_add_epi64(_mm512_cvttpd_epi64(k), _mm512_set1_epi64(1023)), 52);
  return _mm512_mul_pd(p, _mm512_castsi512_pd(bits));
}

/// deterministic_log (util/deterministic_math.hpp) on 8 lanes: the same operations in the
/// same order (subnormals scaled by 2^54 first where a lane has one), so the same bits.
HAMON_AVX512 inline __m512d log8(__m512d x) {
  constexpr double kLn2Hi = 6.93147180369123816490e-01;
  constexpr double kLn2Lo = 1.90821492927058770002e-10;
  const __m512i exponent_mask = _mm512_set1_epi64(0x7FF0000000000000ll);
  __m512i bits = _mm512_and_si512(_mm512_castpd_si512(x), _mm512_set1_epi64(0x7FFFFFFFFFFFFFFFll));
  const __mmask8 subnormal =
      _mm512_cmpeq_epi64_mask(_mm512_and_si512(bits, exponent_mask), _mm512_setzero_si512());
  bits =
      _mm512_mask_mov_epi64(bits, subnormal,
                            _mm512_castpd_si512(_mm512_mul_pd(
                                _mm512_castsi512_pd(bits), _mm512_set1_pd(18014398509481984.0))));
  __m512i k = _mm512_mask_mov_epi64(_mm512_set1_epi64(-1023), subnormal, _mm512_set1_epi64(-1077));
  k = _mm512_add_epi64(k, _mm512_srli_epi64(bits, 52));
  const __m512i fraction = _mm512_and_si512(bits, _mm512_set1_epi64(0x000FFFFFFFFFFFFFll));
  const __mmask8 halve = _mm512_cmpge_epu64_mask(fraction, _mm512_set1_epi64(0x0006A09E667F3BCDll));
  const __m512i m_bits = _mm512_or_si512(
      fraction, _mm512_mask_mov_epi64(_mm512_set1_epi64(0x3FF0000000000000ll), halve,
                                      _mm512_set1_epi64(0x3FE0000000000000ll)));
  k = _mm512_mask_add_epi64(k, halve, k, _mm512_set1_epi64(1));
  const __m512d f = _mm512_sub_pd(_mm512_castsi512_pd(m_bits), _mm512_set1_pd(1.0));
  const __m512d s = _mm512_div_pd(f, _mm512_add_pd(_mm512_set1_pd(2.0), f));
  const __m512d z = _mm512_mul_pd(s, s);
  auto step = [&z](__m512d r, double c)
                  HAMON_AVX512 { return _mm512_add_pd(_mm512_mul_pd(r, z), _mm512_set1_pd(c)); };
  __m512d r = _mm512_set1_pd(2.0 / 21.0);
  r = step(r, 2.0 / 19.0);
  r = step(r, 2.0 / 17.0);
  r = step(r, 2.0 / 15.0);
  r = step(r, 2.0 / 13.0);
  r = step(r, 2.0 / 11.0);
  r = step(r, 2.0 / 9.0);
  r = step(r, 2.0 / 7.0);
  r = step(r, 2.0 / 5.0);
  r = step(r, 2.0 / 3.0);
  r = _mm512_mul_pd(r, z);
  const __m512d half_f2 = _mm512_mul_pd(_mm512_mul_pd(_mm512_set1_pd(0.5), f), f);
  const __m512d dk = _mm512_cvtepi64_pd(k);
  const __m512d small = _mm512_add_pd(_mm512_mul_pd(s, _mm512_add_pd(half_f2, r)),
                                      _mm512_mul_pd(dk, _mm512_set1_pd(kLn2Lo)));
  return _mm512_sub_pd(_mm512_mul_pd(dk, _mm512_set1_pd(kLn2Hi)),
                       _mm512_sub_pd(_mm512_sub_pd(half_f2, small), f));
}

/// to_unit_interval of the low dwords of 8 64-bit lanes.
HAMON_AVX512 inline __m512d unit_interval64(__m512i words) {
  const __m512d w = _mm512_cvtepu64_pd(_mm512_and_si512(words, _mm512_set1_epi64(0xFFFFFFFFll)));
  return _mm512_mul_pd(_mm512_add_pd(w, _mm512_set1_pd(0.5)), _mm512_set1_pd(1.0 / 4294967296.0));
}

/// to_unit_interval (counter_rng.hpp) of 8 words.
HAMON_AVX512 inline __m512d unit_interval8(__m256i words) {
  return _mm512_mul_pd(_mm512_add_pd(_mm512_cvtepu32_pd(words), _mm512_set1_pd(0.5)),
                       _mm512_set1_pd(1.0 / 4294967296.0));
}

}  // namespace hamon::detail::simd

#endif  // HAMON_HOST_AVX512
