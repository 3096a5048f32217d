// SPDX-License-Identifier: Apache-2.0
// Per-target building blocks of the host kernels, written once over Highway's vector ops and
// compiled for every instruction set the build dispatches among (hwy/foreach_target.h
// re-includes this header once per target, hence the toggle guard instead of #pragma once):
// Philox4x32-10 generators in vector lanes, a colour block's neighbour walk, and
// deterministic_exp and deterministic_log on vector lanes. Each computes exactly what its
// scalar original computes (util/counter_rng.hpp, util/deterministic_math.hpp, the blocks'
// for_each_neighbour): integer arithmetic, or the same floating-point operations in the same
// order, never fused (cmake/HamonFloatingPoint.cmake). The tests check it on every target
// this machine runs.
//
// Vectors are kept in small arrays, so the sizeless SVE vectors are not among the targets
// (core/CMakeLists.txt); NEON's fixed-width ones are. The scalar fallback is Highway's one-lane
// HWY_SCALAR where the compiler cannot build its EMU128 (GCC before 12.3).

#if defined(HAMON_VECTOR_DRAWS_INL_HPP_) == defined(HWY_TARGET_TOGGLE)
#ifdef HAMON_VECTOR_DRAWS_INL_HPP_
#undef HAMON_VECTOR_DRAWS_INL_HPP_
#else
#define HAMON_VECTOR_DRAWS_INL_HPP_
#endif

#include <hwy/highway.h>

#include <cstddef>
#include <cstdint>

#include "hamon/core/families/detail/host_vectors.hpp"
#include "hamon/core/families/detail/sweep_blocks.hpp"
#include "hamon/core/util/counter_rng.hpp"

HWY_BEFORE_NAMESPACE();
namespace hamon::detail::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

/// Philox4x32-10 for generators g < count with counters (a[g], b[g], c, d) under `seed`:
/// generator g's words at out[4 g .. 4 g + 3], so its 16 bytes lie in order (byte l of the
/// generator, the draw of lane l, is byte l % 4 of word l / 4 on a little-endian machine).
/// a, b and out have room for count rounded up to kGeneratorBatch; the extra generators
/// compute anything. The counters sit in 64-bit lanes so one MulEven forms each full
/// 32x32->64 product; four vectors in flight keep the multiplier busy through a round's
/// multiply -> shift -> xor chain.
HWY_INLINE void philox_generators(std::uint64_t seed, const std::uint32_t* a,
                                  const std::uint32_t* b, std::uint32_t c, std::uint32_t d,
                                  std::size_t count, std::uint32_t* out) {
#if HWY_TARGET == HWY_SCALAR
  // One lane has no room for a 64-bit product of 32-bit halves: the scalar rounds.
  for (std::size_t g = 0; g < count; ++g) {
    const Philox4 words = philox4(seed, a[g], b[g], c, d);
    for (int w = 0; w < 4; ++w) out[4 * g + static_cast<std::size_t>(w)] = words.w[w];
  }
#else
  constexpr std::size_t kInFlight = 4;
  const hn::ScalableTag<std::uint64_t> d64;
  const hn::Repartition<std::uint32_t, decltype(d64)> d32;  // the same bits as 32-bit lanes
  const hn::Rebind<std::uint32_t, decltype(d64)> counters;  // one 32-bit word per 64-bit lane
  using V = hn::Vec<decltype(d64)>;
  const std::size_t n = hn::Lanes(d64);
  static_assert(kGeneratorBatch % (kInFlight * hn::MaxLanes(d64)) == 0,
                "a batch of generators is whole vectors in flight");
  const auto m0 = hn::BitCast(d32, hn::Set(d64, kPhiloxMultiplier0));
  const auto m1 = hn::BitCast(d32, hn::Set(d64, kPhiloxMultiplier1));
  for (std::size_t g = 0; g < count; g += kInFlight * n) {
    V c0[kInFlight], c1[kInFlight], c2[kInFlight], c3[kInFlight];
    for (std::size_t h = 0; h < kInFlight; ++h) {
      c0[h] = hn::PromoteTo(d64, hn::LoadU(counters, a + g + h * n));
      c1[h] = hn::PromoteTo(d64, hn::LoadU(counters, b + g + h * n));
      c2[h] = hn::Set(d64, c);
      c3[h] = hn::Set(d64, d);
    }
    auto k0 = static_cast<std::uint32_t>(seed);
    auto k1 = static_cast<std::uint32_t>(seed >> 32);
    for (int r = 0; r < kPhiloxRounds; ++r) {
      const V key0 = hn::Set(d64, k0);
      const V key1 = hn::Set(d64, k1);
      for (std::size_t h = 0; h < kInFlight; ++h) {
        // MulEven reads the low halves only, so the high halves may hold anything between
        // rounds; the outputs are the low halves.
        const V p0 = hn::MulEven(hn::BitCast(d32, c0[h]), m0);
        const V p1 = hn::MulEven(hn::BitCast(d32, c2[h]), m1);
        // The high halves move to the low ones by a swap of 32-bit lanes (a shuffle,
        // leaving the shift/multiply unit to the multiplies); the high halves get the
        // low ones, which nothing reads.
        c0[h] = hn::Xor3(hn::BitCast(d64, hn::Shuffle2301(hn::BitCast(d32, p1))), c1[h], key0);
        c2[h] = hn::Xor3(hn::BitCast(d64, hn::Shuffle2301(hn::BitCast(d32, p0))), c3[h], key1);
        c1[h] = p1;
        c3[h] = p0;
      }
      k0 += kPhiloxWeyl0;
      k1 += kPhiloxWeyl1;
    }
    for (std::size_t h = 0; h < kInFlight; ++h) {
      // Words (0, 1) and (2, 3) of each generator side by side, then generator by generator.
      const V w01 = hn::BitCast(
          d64, hn::OddEven(hn::BitCast(d32, hn::ShiftLeft<32>(c1[h])), hn::BitCast(d32, c0[h])));
      const V w23 = hn::BitCast(
          d64, hn::OddEven(hn::BitCast(d32, hn::ShiftLeft<32>(c3[h])), hn::BitCast(d32, c2[h])));
      hn::StoreInterleaved2(w01, w23, d64, reinterpret_cast<std::uint64_t*>(out + 4 * (g + h * n)));
    }
  }
#endif
}

/// Calls f(neighbour, J) in the block's order (CsrBlock, LatticeBlock::for_each_neighbour),
/// here so that f, compiled for this target, inlines: the blocks' own walks are compiled for
/// the build's baseline, and a callee with more instructions than its caller never inlines.
template <class F>
HWY_INLINE void visit_neighbours(const CsrBlock<Kokkos::HostSpace>& block,
                                 const CsrBlock<Kokkos::HostSpace>::Cursor& c, F&& f) {
  const auto& m = block.model;
  const std::int64_t end = m.row_offsets(c.node + 1);
  for (std::int64_t e = m.row_offsets(c.node); e < end; ++e) f(m.columns(e), m.couplings(e));
}

template <class F>
HWY_INLINE void visit_neighbours(const LatticeBlock<Kokkos::HostSpace>& block,
                                 const LatticeBlock<Kokkos::HostSpace>::Cursor& c, F&& f) {
  for (std::int32_t d = block.lattice.dims - 1; d >= 0; --d) {
    const auto a = block.lattice.along(c, d);
    f(a.up, a.coupling_up);
    f(a.down, a.coupling_down);
  }
}

/// deterministic_exp (util/deterministic_math.hpp) on every lane: the same operations in the
/// same order, so the same bits.
template <class D>
HWY_INLINE hn::Vec<D> exp_lanes(D d, hn::Vec<D> x) {
  constexpr double kLog2e = 1.4426950408889634074;
  constexpr double kLn2Hi = 6.93147180369123816490e-01;
  constexpr double kLn2Lo = 1.90821492927058770002e-10;
  constexpr double kRoundMagic = 6755399441055744.0;
  const hn::RebindToSigned<D> di;
  x = hn::Min(hn::Max(x, hn::Set(d, -708.0)), hn::Set(d, 708.0));
  const auto magic = hn::Set(d, kRoundMagic);
  const auto k = hn::Sub(hn::Add(hn::Mul(x, hn::Set(d, kLog2e)), magic), magic);
  const auto r =
      hn::Sub(hn::Sub(x, hn::Mul(k, hn::Set(d, kLn2Hi))), hn::Mul(k, hn::Set(d, kLn2Lo)));
  constexpr double kCoefficients[] = {1.0 / 479001600.0,
                                      1.0 / 39916800.0,
                                      1.0 / 3628800.0,
                                      1.0 / 362880.0,
                                      1.0 / 40320.0,
                                      1.0 / 5040.0,
                                      1.0 / 720.0,
                                      1.0 / 120.0,
                                      1.0 / 24.0,
                                      1.0 / 6.0,
                                      0.5,
                                      1.0,
                                      1.0};
  auto p = hn::Set(d, 1.0 / 6227020800.0);
  for (const double c : kCoefficients) p = hn::Add(hn::Mul(p, r), hn::Set(d, c));
  const auto bits = hn::ShiftLeft<52>(hn::Add(hn::ConvertTo(di, k), hn::Set(di, 1023)));
  return hn::Mul(p, hn::BitCast(d, bits));
}

/// deterministic_log (util/deterministic_math.hpp) on every lane: the same operations in the
/// same order, subnormals (and zero) scaled by 2^54 first, so the same bits. The integer steps
/// use signed 64-bit lanes: every value involved is below 2^63.
template <class D>
HWY_INLINE hn::Vec<D> log_lanes(D d, hn::Vec<D> x) {
  constexpr double kLn2Hi = 6.93147180369123816490e-01;
  constexpr double kLn2Lo = 1.90821492927058770002e-10;
  constexpr double kTwo54 = 18014398509481984.0;
  constexpr std::int64_t kSqrt2Mantissa = 0x0006A09E667F3BCDll;
  const hn::RebindToSigned<D> di;
  auto bits = hn::And(hn::BitCast(di, x), hn::Set(di, 0x7FFFFFFFFFFFFFFFll));
  const auto subnormal = hn::Eq(hn::ShiftRight<52>(bits), hn::Zero(di));
  if (HWY_UNLIKELY(!hn::AllFalse(di, subnormal))) {
    bits = hn::IfThenElse(subnormal,
                          hn::BitCast(di, hn::Mul(hn::BitCast(d, bits), hn::Set(d, kTwo54))), bits);
  }
  auto k = hn::Sub(hn::ShiftRight<52>(bits),
                   hn::IfThenElse(subnormal, hn::Set(di, 1023 + 54), hn::Set(di, 1023)));
  const auto fraction = hn::And(bits, hn::Set(di, 0x000FFFFFFFFFFFFFll));
  // m in [1, sqrt(2)) keeps exponent 0; m in [sqrt(2), 2) is halved into [sqrt(1/2), 1).
  const auto halve = hn::Gt(fraction, hn::Set(di, kSqrt2Mantissa - 1));
  const auto m_bits = hn::Or(fraction, hn::IfThenElse(halve, hn::Set(di, 0x3FE0000000000000ll),
                                                      hn::Set(di, 0x3FF0000000000000ll)));
  k = hn::Add(k, hn::IfThenElseZero(halve, hn::Set(di, 1)));
  const auto f = hn::Sub(hn::BitCast(d, m_bits), hn::Set(d, 1.0));
  const auto s = hn::Div(f, hn::Add(hn::Set(d, 2.0), f));
  const auto z = hn::Mul(s, s);
  constexpr double kCoefficients[] = {2.0 / 19.0, 2.0 / 17.0, 2.0 / 15.0, 2.0 / 13.0, 2.0 / 11.0,
                                      2.0 / 9.0,  2.0 / 7.0,  2.0 / 5.0,  2.0 / 3.0};
  auto r = hn::Set(d, 2.0 / 21.0);
  for (const double c : kCoefficients) r = hn::Add(hn::Mul(r, z), hn::Set(d, c));
  r = hn::Mul(r, z);
  const auto half_f2 = hn::Mul(hn::Mul(hn::Set(d, 0.5), f), f);
  const auto dk = hn::ConvertTo(d, k);
  const auto small = hn::Add(hn::Mul(s, hn::Add(half_f2, r)), hn::Mul(dk, hn::Set(d, kLn2Lo)));
  return hn::Sub(hn::Mul(dk, hn::Set(d, kLn2Hi)), hn::Sub(hn::Sub(half_f2, small), f));
}

/// to_unit_interval (util/counter_rng.hpp) of 32-bit words held in 64-bit lanes.
template <class D>
HWY_INLINE hn::Vec<D> unit_interval_lanes(D d, hn::Vec<hn::RebindToSigned<D>> words) {
  return hn::Mul(hn::Add(hn::ConvertTo(d, words), hn::Set(d, 0.5)), hn::Set(d, 1.0 / 4294967296.0));
}

}  // namespace hamon::detail::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#endif  // HAMON_VECTOR_DRAWS_INL_HPP_
