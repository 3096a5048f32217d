// SPDX-License-Identifier: Apache-2.0
#pragma once
// How gibbs_sweep (hamon/core/families/gibbs_sweep.hpp) launches its colour blocks: the host style
// (portable loops, or Highway's vector path) or the device style, for Ising spins and Potts
// states.

#include <Kokkos_Core.hpp>
#include <cstdint>
#include <string>
#include <type_traits>

#include "hamon/core/families/detail/host_vectors.hpp"
#include "hamon/core/families/detail/sweep_args.hpp"
#include "hamon/core/families/detail/sweep_blocks.hpp"
#include "hamon/core/families/family_state.hpp"
#include "hamon/core/families/potts/detail/potts_registers.hpp"
#include "hamon/core/families/potts/potts_update.hpp"
#include "hamon/core/families/spin/detail/block_update.hpp"
#include "hamon/core/families/spin/field_boundaries.hpp"
#include "hamon/core/families/spin/heat_bath.hpp"
#include "hamon/core/model/device_model.hpp"
#include "hamon/core/util/host_kernel.hpp"
#include "hamon/core/util/launch.hpp"

namespace hamon {

namespace detail {

/// Whether the host spin and Potts sweeps and the Potts energy pass run their vector paths
/// (families/spin/detail/spin_registers.hpp, families/potts/detail/potts_registers.hpp: built
/// in, a host space, not asked for the portable loops).
template <class ExecutionSpace>
bool use_host_vectors(HostKernel kernel) {
  return HAMON_HOST_SIMD && host_style<ExecutionSpace> && kernel == HostKernel::best;
}

/// Nodes per work item of a register path: at most kRegisterRun (three generator batches
/// in flight), and a whole number of runs per thread so no thread waits for another's
/// extra run.
template <class ExecutionSpace>
std::int32_t register_run(const ExecutionSpace& space, std::int64_t n_block) {
  const std::int64_t threads = space.concurrency();
  const std::int64_t rounds_of_runs =
      (n_block + kRegisterRun * threads - 1) / (kRegisterRun * threads);
  const std::int64_t run = (n_block + rounds_of_runs * threads - 1) / (rounds_of_runs * threads);
  return static_cast<std::int32_t>(run < 1 ? 1 : run);
}

/// One colour block in the host style (`HostStyle`, `simd`: in registers) or the device
/// style.
template <bool HostStyle, class ExecutionSpace, class Block>
void update_block_in_style(const ExecutionSpace& space, const FamilyState<ExecutionSpace>& state,
                           std::int32_t bound, const Block& block, std::int64_t n_block,
                           std::uint64_t seed, std::uint32_t round, std::uint32_t sweep,
                           bool simd) {
  const std::int32_t n_machines = state.n_local_machines();
  const std::int64_t n_groups = (n_machines + kMachinesPerDraw - 1) / kMachinesPerDraw;
  const std::int32_t nodes_per_item = simd ? register_run(space, n_block) : kHostNodes;
  SweepArgs<typename ExecutionSpace::memory_space, Block> args;
  args.block = block;
  args.spins = state.spins;
  args.betas = state.betas;
  args.chain_of_machine = state.local_chain_of_machine();
  args.first_group = static_cast<std::uint32_t>(state.first_machine / kMachinesPerDraw);
  args.up_limit = state.tables.up_limit;
  args.up_floor = state.tables.up_floor;
  args.field_boundary = state.tables.field_boundary;
  args.bound = bound;
  args.n_block = n_block;
  args.n_groups = n_groups;
  args.n_machines = n_machines;
  args.seed = seed;
  args.sweep = sweep;
  args.round = round;
  args.simd = simd;
  args.nodes_per_item = nodes_per_item;
  const BlockUpdate<ExecutionSpace, Block, HostStyle> update(args);
  const std::int64_t items =
      HostStyle ? (n_block + nodes_per_item - 1) / nodes_per_item : n_block * n_groups;
  // Host cost grows with register lanes (16 per node at least), not machines.
  launch(space, Block::label, items, n_block * host_lane_slots(n_machines), update);
}

template <class ExecutionSpace, class Block>
void update_block(const ExecutionSpace& space, const FamilyState<ExecutionSpace>& state,
                  std::int32_t bound, const Block& block, std::int64_t n_block, std::uint64_t seed,
                  std::uint32_t round, std::uint32_t sweep, HostKernel kernel) {
  if constexpr (host_style<ExecutionSpace>) {
    if (kernel == HostKernel::device) {
      update_block_in_style<false>(space, state, bound, block, n_block, seed, round, sweep, false);
      return;
    }
  }
  update_block_in_style<host_style<ExecutionSpace>>(space, state, bound, block, n_block, seed,
                                                    round, sweep,
                                                    use_host_vectors<ExecutionSpace>(kernel));
}

/// One Potts sweep (families/potts/potts_update.hpp) in the host style (`HostStyle`: a node in
/// every machine per work item) or the device style: the colour blocks in turn, the lattice's
/// checkerboard when its fast path applies (same bits).
template <bool HostStyle, class ExecutionSpace>
void potts_sweep_in_style(const ExecutionSpace& space,
                          const DeviceModel<typename ExecutionSpace::memory_space>& model,
                          const FamilyState<ExecutionSpace>& state, std::uint64_t seed,
                          std::uint32_t round, std::uint32_t sweep) {
  PottsUpdate<ExecutionSpace, HostStyle> update;
  update.model = model;
  update.spins = state.spins;
  update.betas = state.betas;
  update.chain_of_machine = state.local_chain_of_machine();
  update.weight = state.tables.potts_weight;
  update.n_machines = state.n_local_machines();
  update.n_groups = (update.n_machines + kPottsMachinesPerDraw - 1) / kPottsMachinesPerDraw;
  update.first_group = static_cast<std::uint32_t>(state.first_machine / kPottsMachinesPerDraw);
  update.seed = seed;
  update.sweep = sweep;
  update.round = round;
  if (update.n_machines == 0) return;
  // A Potts update costs about q Ising ones.
  const std::int64_t cost_per_node = host_lane_slots(update.n_machines) * model.n_states;
  const std::int64_t items_per_node = HostStyle ? 1 : update.n_groups;
  if (model.lattice.enabled) {
    update.lattice = model.lattice;
    const std::int64_t n_block = model.lattice.n_nodes / 2;
    for (std::int32_t colour = 0; colour < 2; ++colour) {
      update.colour = colour;
      launch(space, "hamon::potts_lattice_sweep", n_block * items_per_node, n_block * cost_per_node,
             update);
    }
    return;
  }
  const std::size_t n_colours = model.block_offsets.empty() ? 0 : model.block_offsets.size() - 1;
  for (std::size_t c = 0; c < n_colours; ++c) {
    update.block_begin = model.block_offsets[c];
    const std::int64_t n_block = model.block_offsets[c + 1] - update.block_begin;
    if (n_block == 0) continue;
    launch(space, "hamon::potts_sweep", n_block * items_per_node, n_block * cost_per_node, update);
  }
}

#if HAMON_HOST_SIMD
/// One Potts sweep on the vector path (families/potts/detail/potts_registers.hpp): weight
/// tables, the Potts form or no couplings on CSR edges (not general matrices), q <= 16.
template <class ExecutionSpace>
bool potts_registers_apply(const DeviceModel<typename ExecutionSpace::memory_space>& model,
                           const FamilyState<ExecutionSpace>& state) {
  return state.tables.potts_weight.extent(0) > 0 && model.csr_matrices.extent(0) == 0 &&
         model.n_states <= kPottsRegisterStates && state.n_local_machines() > 0;
}

/// A colour block's work items, each through the dispatch to the vector path.
template <class Block>
struct PottsRegisterSweep {
  PottsRegisterArgs<Block> args;
  void operator()(std::int64_t item) const { potts_registers(args, item); }
};

template <class ExecutionSpace, class Block>
void potts_block_in_registers(const ExecutionSpace& space, const FamilyState<ExecutionSpace>& state,
                              const DeviceModel<Kokkos::HostSpace>& model, const Block& block,
                              std::int64_t n_block, std::uint64_t seed, std::uint32_t round,
                              std::uint32_t sweep) {
  PottsRegisterSweep<Block> update;
  update.args.block = block;
  update.args.spins = state.spins;
  update.args.state_fields = model.state_fields;
  update.args.chain_of_machine = state.local_chain_of_machine();
  update.args.weight = state.tables.potts_weight;
  update.args.q = model.n_states;
  update.args.n_machines = state.n_local_machines();
  update.args.n_block = n_block;
  update.args.nodes_per_item = register_run(space, n_block);
  update.args.first_group = static_cast<std::uint32_t>(state.first_machine / kPottsMachinesPerDraw);
  update.args.seed = seed;
  update.args.sweep = sweep;
  update.args.round = round;
  const std::int64_t items =
      (n_block + update.args.nodes_per_item - 1) / update.args.nodes_per_item;
  launch(space, "hamon::potts_register_sweep", items,
         n_block * host_lane_slots(update.args.n_machines) * model.n_states, update);
}

template <class ExecutionSpace>
void potts_sweep_in_registers(const ExecutionSpace& space,
                              const DeviceModel<Kokkos::HostSpace>& model,
                              const FamilyState<ExecutionSpace>& state, std::uint64_t seed,
                              std::uint32_t round, std::uint32_t sweep) {
  for_each_colour_block(model, model.lattice.enabled, [&](const auto& block, std::int64_t n_block) {
    potts_block_in_registers(space, state, model, block, n_block, seed, round, sweep);
  });
}
#endif

template <class ExecutionSpace>
void potts_sweep(const ExecutionSpace& space,
                 const DeviceModel<typename ExecutionSpace::memory_space>& model,
                 const FamilyState<ExecutionSpace>& state, std::uint64_t seed, std::uint32_t round,
                 std::uint32_t sweep, HostKernel kernel) {
  if constexpr (host_style<ExecutionSpace>) {
#if HAMON_HOST_SIMD
    if constexpr (std::is_same_v<typename ExecutionSpace::memory_space, Kokkos::HostSpace>) {
      if (use_host_vectors<ExecutionSpace>(kernel) && potts_registers_apply(model, state)) {
        potts_sweep_in_registers(space, model, state, seed, round, sweep);
        return;
      }
    }
#endif
    if (kernel != HostKernel::device) {
      potts_sweep_in_style<true>(space, model, state, seed, round, sweep);
      return;
    }
  }
  (void)kernel;
  potts_sweep_in_style<false>(space, model, state, seed, round, sweep);
}

/// Fills state.tables.potts_weight (when the model's local fields are integers) from the ladder.
template <class ExecutionSpace>
void refresh_potts_weights(const ExecutionSpace& space, FamilyState<ExecutionSpace>& state) {
  if (state.tables.potts_weight.extent(0) == 0) return;
  const auto weight = state.tables.potts_weight;
  const auto betas = state.betas;
  const auto width = static_cast<std::int64_t>(weight.extent(1));
  Kokkos::parallel_for(
      "hamon::potts_weights",
      Kokkos::RangePolicy<ExecutionSpace, Kokkos::IndexType<std::int64_t>>(
          space, 0, static_cast<std::int64_t>(weight.extent(0)) * width),
      KOKKOS_LAMBDA(const std::int64_t idx) {
        const std::int64_t chain = idx / width;
        const std::int64_t k = idx % width;
        // The same expression the sweep evaluates without a table: the same bits.
        weight(chain, k) = deterministic_exp(-(betas(chain) * static_cast<double>(k)));
      });
}

}  // namespace detail

}  // namespace hamon
