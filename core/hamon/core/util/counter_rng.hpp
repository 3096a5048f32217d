// SPDX-License-Identifier: Apache-2.0
#pragma once
// Counter-based random numbers: Philox4x32-10 keyed by the run seed, with the counter
// naming exactly which decision a number is for. No generator state lives in memory and
// nothing depends on thread ids, so every execution space and thread count draws the same
// number for the same decision.
//
// The rounds are written out here (rather than called from Random123) so the host sweep
// can run many generators side by side in plain loops the compiler vectorises, and so the
// same arithmetic runs in device code. The tests check every output bit against
// Random123's r123::Philox4x32 and its published known answers.

#include <Kokkos_Core.hpp>
#include <cstdint>

// Asks the host compiler to vectorise the loop that follows (never in device code).
#if defined(_OPENMP) && !defined(__CUDA_ARCH__)
#define HAMON_SIMD _Pragma("omp simd")
#else
#define HAMON_SIMD
#endif

namespace hamon::detail {

/// The version of the random stream, recorded where streams are (checkpoints): runs with
/// the same seed and version give the same bits.
///   1 = one 32-bit Philox word per heat-bath update (the original stream);
///   2 = one byte per update (16 updates per Philox call), with the 24 low bits drawn from
///       a separate counter domain only on a tie (families/spin/heat_bath.hpp).
inline constexpr std::uint32_t kRandomStreamVersion = 2;

/// What a random number decides; part of the counter so streams never overlap.
enum class Stream : std::uint32_t {
  initial_state = 0xFFFFFFF0u,  // the random starting configuration
  swap = 0xFFFFFFF1u,           // DEO swap acceptance
  cluster = 0xFFFFFFF2u,  // the node a cluster move starts from (families/spin/detail/houdayer.hpp)
  // sweep numbers 0 .. n_expl-1 are the heat-bath updates of that sweep; sweep | kTieSweep
  // (below 0x80000000, so never one of the above) the low bits of their ties
};

/// Marks the tie-refinement domain in the sweep word of the counter (sweeps < 2^30).
inline constexpr std::uint32_t kTieSweep = 0x40000000u;

/// Sweeps per round stay at or below this (validate_options). The sweep word is split into
/// domains by its high bits: plain sweeps [0, 2^29), the Potts domain sweep | 2^29
/// (families/potts/potts_update.hpp), the ties sweep | 2^30; a sweep number of 2^29 or more would
/// carry a domain's mark and draw the numbers of another sweep's updates or ties.
inline constexpr std::uint32_t kMaxSweepsPerRound = 0x20000000u;
static_assert(kMaxSweepsPerRound <= kTieSweep);

inline constexpr std::uint32_t kPhiloxMultiplier0 = 0xD2511F53u;
inline constexpr std::uint32_t kPhiloxMultiplier1 = 0xCD9E8D57u;
inline constexpr std::uint32_t kPhiloxWeyl0 = 0x9E3779B9u;
inline constexpr std::uint32_t kPhiloxWeyl1 = 0xBB67AE85u;
inline constexpr int kPhiloxRounds = 10;

/// Four independent 32-bit words for counter (a, b, c, d) under `seed`.
struct Philox4 {
  std::uint32_t w[4];
};

/// One Philox round on (c0..c3) with key (k0, k1), in place.
KOKKOS_FORCEINLINE_FUNCTION void philox_round(std::uint32_t& c0, std::uint32_t& c1,
                                              std::uint32_t& c2, std::uint32_t& c3,
                                              std::uint32_t k0, std::uint32_t k1) {
  const std::uint64_t p0 = static_cast<std::uint64_t>(kPhiloxMultiplier0) * c0;
  const std::uint64_t p1 = static_cast<std::uint64_t>(kPhiloxMultiplier1) * c2;
  const auto hi0 = static_cast<std::uint32_t>(p0 >> 32);
  const auto lo0 = static_cast<std::uint32_t>(p0);
  const auto hi1 = static_cast<std::uint32_t>(p1 >> 32);
  const auto lo1 = static_cast<std::uint32_t>(p1);
  c0 = hi1 ^ c1 ^ k0;
  c1 = lo1;
  c2 = hi0 ^ c3 ^ k1;
  c3 = lo0;
}

KOKKOS_INLINE_FUNCTION Philox4 philox4(std::uint64_t seed, std::uint32_t a, std::uint32_t b,
                                       std::uint32_t c, std::uint32_t d) {
  auto k0 = static_cast<std::uint32_t>(seed);
  auto k1 = static_cast<std::uint32_t>(seed >> 32);
  for (int r = 0; r < kPhiloxRounds; ++r) {
    philox_round(a, b, c, d, k0, k1);
    k0 += kPhiloxWeyl0;
    k1 += kPhiloxWeyl1;
  }
  return Philox4{{a, b, c, d}};
}

/// `G` generators side by side (structure of arrays): counters (a[g], b[g], c, d) for
/// g < G, words written to out[4 g + word]. The plain loops vectorise on the host, and
/// enough generators in flight hide the latency of the multiplies.
template <int G>
KOKKOS_INLINE_FUNCTION void philox4_lanes(std::uint64_t seed, const std::uint32_t (&a)[G],
                                          const std::uint32_t (&b)[G], std::uint32_t c,
                                          std::uint32_t d, std::uint32_t (&out)[4 * G]) {
  // 64-bit lanes holding 32-bit values: the 32x32->64 products then vectorise.
  std::uint64_t c0[G], c1[G], c2[G], c3[G];
  for (int g = 0; g < G; ++g) {
    c0[g] = a[g];
    c1[g] = b[g];
    c2[g] = c;
    c3[g] = d;
  }
  std::uint64_t k0 = static_cast<std::uint32_t>(seed);
  std::uint64_t k1 = static_cast<std::uint32_t>(seed >> 32);
  constexpr std::uint64_t kLow = 0xFFFFFFFFu;
  for (int r = 0; r < kPhiloxRounds; ++r) {
    // philox_round, spelled out on the arrays so the loop over generators vectorises.
    HAMON_SIMD
    for (int g = 0; g < G; ++g) {
      const std::uint64_t p0 = (c0[g] & kLow) * kPhiloxMultiplier0;
      const std::uint64_t p1 = (c2[g] & kLow) * kPhiloxMultiplier1;
      const std::uint64_t next0 = (p1 >> 32) ^ c1[g] ^ k0;
      const std::uint64_t next2 = (p0 >> 32) ^ c3[g] ^ k1;
      c1[g] = p1 & kLow;
      c3[g] = p0 & kLow;
      c0[g] = next0;
      c2[g] = next2;
    }
    k0 = (k0 + kPhiloxWeyl0) & kLow;
    k1 = (k1 + kPhiloxWeyl1) & kLow;
  }
  for (int g = 0; g < G; ++g) {
    out[4 * g + 0] = static_cast<std::uint32_t>(c0[g]);
    out[4 * g + 1] = static_cast<std::uint32_t>(c1[g]);
    out[4 * g + 2] = static_cast<std::uint32_t>(c2[g]);
    out[4 * g + 3] = static_cast<std::uint32_t>(c3[g]);
  }
}

/// Maps a 32-bit word to a uniform double in (0, 1) (midpoint rule: never 0 or 1).
KOKKOS_FORCEINLINE_FUNCTION double to_unit_interval(std::uint32_t word) {
  return (static_cast<double>(word) + 0.5) * (1.0 / 4294967296.0);
}

}  // namespace hamon::detail
