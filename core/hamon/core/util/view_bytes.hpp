// SPDX-License-Identifier: Apache-2.0
#pragma once
// What a Kokkos allocation costs, for counting a run's memory before allocating it
// (sampler/detail/space_memory.hpp, and each family's tables).

#include <cmath>

namespace hamon::detail {

/// What one View of `elements` values of `value_bytes` bytes costs: Kokkos rounds its data
/// up to 8 bytes and puts a header of 128 bytes (the allocation's record and label) before it.
inline double view_bytes(double elements, double value_bytes) {
  constexpr double kHeaderBytes = 128.0;
  return kHeaderBytes + std::ceil(elements * value_bytes / 8.0) * 8.0;
}

}  // namespace hamon::detail
