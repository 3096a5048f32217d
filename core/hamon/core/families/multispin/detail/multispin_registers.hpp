// SPDX-License-Identifier: Apache-2.0
#pragma once
// The host vector path of the multispin sweep (multispin_registers-inl.hpp), compiled once
// per instruction set and chosen at run time by Highway's dynamic dispatch
// (multispin_registers.cpp). It does what MultispinColourSweep (multispin_sweep.hpp) does for
// work items [begin, end), with the same bits; declared only where the vector layer is built.

#include <cstdint>

#include "hamon/core/families/detail/host_vectors.hpp"

namespace hamon::detail {

/// One colour of one sweep, in host memory (MultispinColourSweep's fields as pointers).
struct MultispinColourArgs {
  const std::int64_t* row_offsets;
  const std::int32_t* neighbour;
  const std::int32_t* edge_of_entry;
  const std::int32_t* colour_nodes;  // this colour's nodes
  const std::uint64_t* negative;
  const std::uint64_t* present;  // null unless diluted
  const std::uint64_t* thresholds;
  std::uint64_t* spins;
  std::int64_t n_nodes, n_groups, colour_size, n_slots;
  std::int32_t max_degree, counter_planes;
  std::uint64_t seed;
  std::uint32_t round, sweep_index;
};

#if HAMON_HOST_SIMD
void multispin_registers(const MultispinColourArgs& args, std::int64_t begin, std::int64_t end);
#endif

}  // namespace hamon::detail
