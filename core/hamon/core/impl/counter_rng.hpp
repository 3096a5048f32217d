#pragma once
// Counter-based random numbers: Philox4x32-10 (Random123) keyed by the run seed, with the
// counter naming exactly which decision a number is for. No generator state lives in
// memory and nothing depends on thread ids, so every execution space and thread count
// draws the same number for the same decision.

#include <Kokkos_Core.hpp>
#include <cstdint>

// Random123 marks its functions __device__ only under nvcc and uses a device intrinsic
// for the 32-bit high multiply; Kokkos kernels need __host__ __device__ and the portable
// 64-bit product (bit-identical on host and device).
#if defined(__CUDACC__)
#ifndef R123_CUDA_DEVICE
#define R123_CUDA_DEVICE __host__ __device__
#endif
#ifndef R123_USE_MULHILO32_MULHI_INTRIN
#define R123_USE_MULHILO32_MULHI_INTRIN 0
#endif
#endif
#include <Random123/philox.h>

namespace hamon::detail {

/// What a random number decides; part of the counter so streams never overlap.
enum class Stream : std::uint32_t {
  initial_state = 0xFFFFFFF0u,  // the random starting configuration
  swap = 0xFFFFFFF1u,           // DEO swap acceptance
  // sweep numbers 0 .. n_expl-1 are the heat-bath updates of that sweep
};

/// Four independent 32-bit words for counter (a, b, c, d) under `seed`.
struct Philox4 {
  std::uint32_t w[4];
};

KOKKOS_INLINE_FUNCTION Philox4 philox4(std::uint64_t seed, std::uint32_t a, std::uint32_t b,
                                        std::uint32_t c, std::uint32_t d) {
  r123::Philox4x32 generator;
  const r123::Philox4x32::ctr_type counter = {{a, b, c, d}};
  const r123::Philox4x32::key_type key = {
      {static_cast<std::uint32_t>(seed), static_cast<std::uint32_t>(seed >> 32)}};
  const r123::Philox4x32::ctr_type out = generator(counter, key);
  return Philox4{{out[0], out[1], out[2], out[3]}};
}

/// Maps a 32-bit word to a uniform double in (0, 1) (midpoint rule: never 0 or 1).
KOKKOS_INLINE_FUNCTION double to_unit_interval(std::uint32_t word) {
  return (static_cast<double>(word) + 0.5) * (1.0 / 4294967296.0);
}

}  // namespace hamon::detail
