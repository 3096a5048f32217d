// SPDX-License-Identifier: Apache-2.0
#pragma once
// The host kernels' vector layer from outside: whether it is built (HAMON_HOST_SIMD, from
// the generated hamon/host_simd_config.hpp: Highway found and not an nvcc build), the sizes
// its callers allocate for, and the instruction sets it dispatches among at run time, which
// the tests restrict one at a time to check each bit for bit. Highway itself stays private
// to the kernels' sources (the *-inl.hpp headers and the .cpp files that include them).

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "hamon/host_simd_config.hpp"

namespace hamon::detail {

/// Generators are computed in batches of this many (philox_generators in
/// families/detail/vector_draws-inl.hpp): arrays of counters and words round up to it.
inline constexpr std::size_t kGeneratorBatch = 32;

/// Rounds a count of generators up to whole batches.
constexpr std::size_t whole_generator_batches(std::size_t generators) {
  return (generators + kGeneratorBatch - 1) / kGeneratorBatch * kGeneratorBatch;
}

#if HAMON_HOST_SIMD
/// The instruction sets the host kernels are compiled for and this CPU runs, best first
/// (Highway's target bits).
std::vector<std::int64_t> host_vector_targets();

/// Highway's name of a target ("AVX3", "AVX2", "SSE4", "EMU128", "NEON", ...).
std::string host_vector_target_name(std::int64_t target);

/// From now on the kernels dispatch to `target` only (one of host_vector_targets()), or,
/// with 0, to the best this CPU runs again. For tests: not thread-safe against running kernels.
void restrict_host_vector_target(std::int64_t target);
#endif

}  // namespace hamon::detail
