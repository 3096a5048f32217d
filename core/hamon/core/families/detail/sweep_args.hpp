// SPDX-License-Identifier: Apache-2.0
#pragma once
// What every path of a colour block's sweep reads (families/spin/detail/block_update.hpp,
// families/spin/detail/spin_registers-inl.hpp): the block, the state's views, the counters of the
// random draws and the host work split. Filled by name (gibbs_sweep.hpp's update_block_in_style):
//
//   SweepArgs<memory_space, Block> args;
//   args.block = block;
//   args.spins = state.spins;
//   ...
//
// The update functors derive from it, so the kernels read these fields by value, as
// members, with no indirection. It names a memory space, not an execution space, so the host
// spaces share one type and the compiled vector path (families/spin/detail/spin_registers.hpp)
// serves them all.

#include <Kokkos_Core.hpp>
#include <cstdint>

#include "hamon/core/families/detail/sweep_blocks.hpp"
#include "hamon/core/families/spin/heat_bath.hpp"

namespace hamon::detail {

template <class MemorySpace, class Block>
struct SweepArgs {
  using memory_space = MemorySpace;
  template <class T>
  using view = Kokkos::View<T*, memory_space>;

  Block block;  // CsrBlock or LatticeBlock (families/detail/sweep_blocks.hpp)
  // The state's views (ChainState, SpinTables).
  Kokkos::View<std::int8_t**, Kokkos::LayoutLeft, memory_space> spins;
  view<double> betas;
  view<std::int32_t> chain_of_machine;
  Kokkos::View<std::uint32_t**, Kokkos::LayoutRight, memory_space> up_limit;
  view<std::int32_t> up_floor;
  std::int32_t bound = -1;      // integer_field_bound, -1 without thresholds
  std::int64_t n_block = 0;     // nodes in the block
  std::int64_t n_groups = 0;    // groups of 16 machines
  std::int32_t n_machines = 0;  // the state's local machines (spins' rows)
  // The counter of the draws: Philox (node, machine group, sweep, round) under `seed`;
  // the group of row 0 is first_group (ChainState::first_machine / 16).
  std::uint32_t first_group = 0;
  std::uint64_t seed = 0;
  std::uint32_t sweep = 0;
  std::uint32_t round = 0;
  bool simd = false;  // host: the vector path (families/spin/detail/spin_registers.hpp)
  std::int32_t nodes_per_item = 0;  // host: block nodes per work item
  Kokkos::View<double**, Kokkos::LayoutRight, memory_space>
      field_boundary;  // real fields: empty, or (chain, 257) boundaries

  /// The counter word of the draw group of local group `g`.
  KOKKOS_INLINE_FUNCTION std::uint32_t group_counter(std::int64_t g) const {
    return first_group + static_cast<std::uint32_t>(g);
  }
  /// The counter word of local machine (spins' row) m.
  KOKKOS_INLINE_FUNCTION std::uint32_t machine_counter(std::int32_t m) const {
    return first_group * static_cast<std::uint32_t>(kMachinesPerDraw) +
           static_cast<std::uint32_t>(m);
  }
  /// The 24 low bits of the word of a tie of local machine m at `node`.
  KOKKOS_INLINE_FUNCTION std::uint32_t tie(std::int64_t node, std::int32_t m) const {
    return tie_bits(seed, static_cast<std::uint32_t>(node), machine_counter(m), sweep, round);
  }
};

}  // namespace hamon::detail
