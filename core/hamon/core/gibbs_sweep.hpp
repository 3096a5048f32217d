#pragma once
// Block-Gibbs (heat-bath) sweep over every machine at once.
//
// A sweep updates the colour classes in turn; within a class no two nodes are
// neighbours, so all of its nodes (times all machines) update in parallel. Node i of
// machine m at inverse temperature beta draws s_i = +1 with probability
// 1 / (1 + exp(-2 beta phi_i)), phi_i = h_i + sum_j J_ij s_j.
//
// The uniform for (round, sweep, node, machine) is word (machine % 4) of Philox4x32-10 at
// counter (node, machine / 4, sweep, round): one generator call serves four machines, and
// the number never depends on which thread draws it.

#include <Kokkos_Core.hpp>
#include <cmath>
#include <cstdint>
#include <type_traits>

#include "hamon/core/chain_state.hpp"
#include "hamon/core/device_model.hpp"
#include "hamon/core/impl/counter_rng.hpp"

namespace hamon {

namespace detail {

inline constexpr std::int32_t kMachinesPerDraw = 4;

/// Maps a flat work index to (position in block, machine group). GPUs (LayoutLeft) put
/// the groups of one node in adjacent threads; the host walks the block for one group.
template <class Layout>
struct WorkIndex {
  static constexpr bool machines_fastest = std::is_same<Layout, Kokkos::LayoutLeft>::value;
  KOKKOS_INLINE_FUNCTION static void split(std::int64_t idx, std::int64_t n_block,
                                           std::int64_t n_groups, std::int64_t& k,
                                           std::int64_t& group) {
    if (machines_fastest) {
      k = idx / n_groups;
      group = idx % n_groups;
    } else {
      group = idx / n_block;
      k = idx % n_block;
    }
  }
};

/// Heat-bath acceptance: new spin +1 with probability 1 / (1 + exp(-2 beta phi)), tested
/// as u (1 + exp(-2 beta phi)) < 1 (no division on the critical path).
KOKKOS_INLINE_FUNCTION std::int8_t heat_bath_spin(double beta, double local_field, double u) {
  return u * (1.0 + std::exp(-2.0 * beta * local_field)) < 1.0 ? std::int8_t(1) : std::int8_t(-1);
}

template <class ExecutionSpace>
struct BlockUpdate {
  using state_type = ChainState<ExecutionSpace>;
  using model_type = DeviceModel<typename ExecutionSpace::memory_space>;

  model_type model;
  typename state_type::spin_view spins;
  typename state_type::template view<double> betas;
  typename state_type::template view<std::int32_t> chain_of_machine;
  std::int64_t block_begin;
  std::int64_t n_block;
  std::int64_t n_groups;
  std::int32_t n_machines;
  std::uint64_t seed;
  std::uint32_t sweep;
  std::uint32_t round;

  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t idx) const {
    std::int64_t k, group;
    WorkIndex<typename ExecutionSpace::array_layout>::split(idx, n_block, n_groups, k, group);
    const std::int32_t node = model.block_nodes(block_begin + k);
    const Philox4 draw = philox4(seed, static_cast<std::uint32_t>(node),
                                 static_cast<std::uint32_t>(group), sweep, round);
    const std::int64_t row_begin = model.row_offsets(node);
    const std::int64_t row_end = model.row_offsets(node + 1);
    const std::int32_t first = static_cast<std::int32_t>(group) * kMachinesPerDraw;
    const std::int32_t lanes =
        n_machines - first < kMachinesPerDraw ? n_machines - first : kMachinesPerDraw;
    // The lanes are independent: accumulate their fields side by side so the loads and the
    // exp calls of different machines overlap.
    double phi[kMachinesPerDraw];
    for (std::int32_t lane = 0; lane < kMachinesPerDraw; ++lane) phi[lane] = model.fields(node);
    for (std::int64_t e = row_begin; e < row_end; ++e) {
      const double coupling = model.couplings(e);
      const std::int32_t j = model.columns(e);
      for (std::int32_t lane = 0; lane < lanes; ++lane) phi[lane] += coupling * spins(first + lane, j);
    }
    for (std::int32_t lane = 0; lane < lanes; ++lane) {
      const std::int32_t m = first + lane;
      spins(m, node) = heat_bath_spin(betas(chain_of_machine(m)), phi[lane], to_unit_interval(draw.w[lane]));
    }
  }
};

}  // namespace detail

/// One block-Gibbs sweep of every machine: each colour class in turn.
template <class ExecutionSpace>
void gibbs_sweep(const ExecutionSpace& space,
                 const DeviceModel<typename ExecutionSpace::memory_space>& model,
                 const ChainState<ExecutionSpace>& state, std::uint64_t seed, std::uint32_t round,
                 std::uint32_t sweep) {
  const std::int32_t n_machines = state.n_machines();
  const std::int64_t n_groups = (n_machines + detail::kMachinesPerDraw - 1) / detail::kMachinesPerDraw;
  const std::size_t n_colours = model.block_offsets.empty() ? 0 : model.block_offsets.size() - 1;
  for (std::size_t c = 0; c < n_colours; ++c) {
    const std::int64_t begin = model.block_offsets[c];
    const std::int64_t n_block = model.block_offsets[c + 1] - begin;
    if (n_block == 0) continue;
    detail::BlockUpdate<ExecutionSpace> update{model,      state.spins,    state.betas,
                                               state.chain_of_machine, begin, n_block,
                                               n_groups,   n_machines,     seed,
                                               sweep,      round};
    Kokkos::parallel_for("hamon::gibbs_sweep",
                         Kokkos::RangePolicy<ExecutionSpace, Kokkos::IndexType<std::int64_t>>(
                             space, 0, n_block * n_groups),
                         update);
  }
}

}  // namespace hamon
