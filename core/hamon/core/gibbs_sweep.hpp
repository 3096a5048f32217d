// SPDX-License-Identifier: Apache-2.0
#pragma once
// Block-Gibbs (heat-bath) sweep over every machine at once.
//
// A sweep updates the colour classes in turn; within a class no two nodes are
// neighbours, so all of its nodes (times all machines) update in parallel. Node i of
// machine m at inverse temperature beta draws s_i = +1 with probability
// 1 / (1 + exp(-2 beta phi_i)), phi_i = h_i + sum_j J_ij s_j.
//
// The random byte for (round, sweep, node, machine) is byte (machine % 16) of Philox4x32-10
// at counter (node, machine / 16, sweep, round): one generator call serves sixteen
// machines (random stream version 2), and the number never depends on which thread draws
// it. The byte is the top of a 32-bit word whose 24 low bits are drawn only on a tie
// (impl/heat_bath.hpp), from counter (node, machine, sweep | kTieSweep, round).
//
// Spins are (machine, node) with machines adjacent for a node (ChainState). A GPU thread
// updates one node in one group of 16 machines (each 32-bit word serves 4 of them); a host
// work item updates nodes in every machine, 32 at a time in plain loops over machines that
// the compiler vectorises (generators, fields, exp and the decision: the portable path).
// Where the host compiler targets AVX-512, a work item is a run of up to kRegisterRun nodes
// instead, with three batches of 16 generators in registers at a time (the register path,
// impl/host_simd.hpp).
//
// With integer local fields the decision is an integer comparison of the byte with the
// top byte of a threshold tabulated per (chain, phi) (impl/heat_bath.hpp), exactly
// equivalent to the floating-point test; with real ones, a comparison of phi with the
// chain's boundaries for that byte (impl/field_boundaries.hpp), exp only on ties (or per
// update when a state has no boundary table). Every path evaluates the same decisions from the same
// bytes and tie bits, so they all give the same bits; the device style also runs on host spaces
// (HostKernel::device) so the tests check it there.
//
// The pieces, one idea each: impl/sweep_blocks.hpp (the colour blocks: CSR, lattice),
// impl/spin_decision.hpp (the decision of one update), impl/sweep_args.hpp (what a block's
// sweep reads, by name), impl/block_update.hpp (the functor: device and portable paths),
// impl/register_sweep.hpp (the AVX-512 register paths). This file launches them.

#include <Kokkos_Core.hpp>
#include <cstdint>
#include <string>

#include "hamon/core/chain_state.hpp"
#include "hamon/core/device_model.hpp"
#include "hamon/core/impl/block_update.hpp"
#include "hamon/core/impl/field_boundaries.hpp"
#include "hamon/core/impl/heat_bath.hpp"
#include "hamon/core/impl/host_simd.hpp"
#include "hamon/core/impl/launch.hpp"
#include "hamon/core/impl/potts_update.hpp"
#include "hamon/core/impl/sweep_args.hpp"
#include "hamon/core/impl/sweep_blocks.hpp"

namespace hamon {

namespace detail {

/// Which implementation runs a sweep on a host space: the best available (AVX-512
/// registers where compiled in), the portable loops, or the device kernel's style (one
/// work item per node and group of 16 machines, as on a GPU). All give the same bits;
/// the tests compare them. On a device space every choice runs the device style.
enum class HostKernel { best, portable, device };

/// Whether the host sweep runs in AVX-512 registers (compiled in, host space, not asked
/// for the portable loops).
template <class ExecutionSpace>
bool use_host_registers(HostKernel kernel) {
#ifdef HAMON_HOST_AVX512
  return host_style<ExecutionSpace> && kernel == HostKernel::best && simd::cpu_has_avx512();
#else
  (void)kernel;
  return false;
#endif
}

/// One colour block in the host style (`HostStyle`, `simd`: in registers) or the device
/// style.
template <bool HostStyle, class ExecutionSpace, class Block>
void update_block_in_style(const ExecutionSpace& space, const ChainState<ExecutionSpace>& state,
                           std::int32_t bound, const Block& block, std::int64_t n_block,
                           std::uint64_t seed, std::uint32_t round, std::uint32_t sweep,
                           bool simd) {
  const std::int32_t n_machines = state.n_local_machines();
  const std::int64_t n_groups = (n_machines + kMachinesPerDraw - 1) / kMachinesPerDraw;
  // Register runs: at most kRegisterRun nodes (three generator batches in flight), and a
  // whole number of runs per thread so no thread waits for another's extra run.
  const std::int64_t threads = space.concurrency();
  const std::int64_t rounds_of_runs =
      (n_block + kRegisterRun * threads - 1) / (kRegisterRun * threads);
  const std::int64_t run = (n_block + rounds_of_runs * threads - 1) / (rounds_of_runs * threads);
  const std::int32_t nodes_per_item =
      simd ? static_cast<std::int32_t>(run < 1 ? 1 : run) : kHostNodes;
  SweepArgs<ExecutionSpace, Block> args;
  args.block = block;
  args.spins = state.spins;
  args.betas = state.betas;
  args.chain_of_machine = state.local_chain_of_machine();
  args.first_group = static_cast<std::uint32_t>(state.first_machine / kMachinesPerDraw);
  args.up_limit = state.up_limit;
  args.up_floor = state.up_floor;
  args.field_boundary = state.field_boundary;
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
void update_block(const ExecutionSpace& space, const ChainState<ExecutionSpace>& state,
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
                                                    use_host_registers<ExecutionSpace>(kernel));
}

/// One Potts sweep (impl/potts_update.hpp) in the host style (`HostStyle`: a node in every
/// machine per work item) or the device style: the colour blocks in turn, the lattice's
/// checkerboard when its fast path applies (same bits).
template <bool HostStyle, class ExecutionSpace>
void potts_sweep_in_style(const ExecutionSpace& space,
                          const DeviceModel<typename ExecutionSpace::memory_space>& model,
                          const ChainState<ExecutionSpace>& state, std::uint64_t seed,
                          std::uint32_t round, std::uint32_t sweep) {
  PottsUpdate<ExecutionSpace, HostStyle> update;
  update.model = model;
  update.spins = state.spins;
  update.betas = state.betas;
  update.chain_of_machine = state.local_chain_of_machine();
  update.weight = state.potts_weight;
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

template <class ExecutionSpace>
void potts_sweep(const ExecutionSpace& space,
                 const DeviceModel<typename ExecutionSpace::memory_space>& model,
                 const ChainState<ExecutionSpace>& state, std::uint64_t seed, std::uint32_t round,
                 std::uint32_t sweep, HostKernel kernel) {
  if constexpr (host_style<ExecutionSpace>) {
    if (kernel != HostKernel::device) {
      potts_sweep_in_style<true>(space, model, state, seed, round, sweep);
      return;
    }
  }
  (void)kernel;
  potts_sweep_in_style<false>(space, model, state, seed, round, sweep);
}

/// Fills state.potts_weight (when the model's local fields are integers) from the ladder.
template <class ExecutionSpace>
void refresh_potts_weights(const ExecutionSpace& space, ChainState<ExecutionSpace>& state) {
  if (state.potts_weight.extent(0) == 0) return;
  const auto weight = state.potts_weight;
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

/// The boundaries of real local fields (impl/field_boundaries.hpp) for the ladder, in
/// state.field_boundary (allocated here when missing).
template <class ExecutionSpace>
void refresh_field_boundaries(const ExecutionSpace& space, ChainState<ExecutionSpace>& state) {
  const auto n_chains = static_cast<std::int64_t>(state.betas.extent(0));
  if (static_cast<std::int64_t>(state.field_boundary.extent(0)) != n_chains) {
    state.field_boundary =
        decltype(state.field_boundary)(Kokkos::view_alloc(space, Kokkos::WithoutInitializing,
                                                          std::string("hamon::field_boundary")),
                                       n_chains, detail::kFieldBoundaries);
  }
  const auto boundary = state.field_boundary;
  const auto betas = state.betas;
  Kokkos::parallel_for(
      "hamon::field_boundaries",
      Kokkos::RangePolicy<ExecutionSpace, Kokkos::IndexType<std::int64_t>>(
          space, 0, n_chains * detail::kFieldBoundaries),
      KOKKOS_LAMBDA(const std::int64_t i) {
        const std::int64_t chain = i / detail::kFieldBoundaries;
        const auto k = static_cast<std::int32_t>(i % detail::kFieldBoundaries);
        boundary(chain, k) = detail::field_boundary(betas(chain), detail::boundary_word(k));
      });
}

/// Fills the decision tables from the ladder: state.up_limit / up_floor with integer local
/// fields, state.field_boundary otherwise (allocated here); a Potts model's weights. Call after
/// creating the state and whenever `betas` change.
template <class ExecutionSpace>
void refresh_acceptance_thresholds(const ExecutionSpace& space,
                                   const DeviceModel<typename ExecutionSpace::memory_space>& model,
                                   ChainState<ExecutionSpace>& state) {
  if (model.n_states > 0) {
    detail::refresh_potts_weights(space, state);
    return;
  }
  const std::int32_t bound = model.integer_field_bound;
  if (bound < 0) {
    refresh_field_boundaries(space, state);
    return;
  }
  if (state.up_limit.extent(0) == 0) return;
  const auto up_limit = state.up_limit;
  const auto up_floor = state.up_floor;
  const auto betas = state.betas;
  const std::int32_t width = 2 * bound + 1;
  // One chain per work item: the floor needs the chain's whole row.
  Kokkos::parallel_for(
      "hamon::acceptance_thresholds",
      Kokkos::RangePolicy<ExecutionSpace>(space, 0, static_cast<std::int32_t>(betas.extent(0))),
      KOKKOS_LAMBDA(const std::int32_t chain) {
        std::int32_t floor = 0;
        for (std::int32_t k = 0; k < width; ++k) {
          const std::uint64_t t = detail::heat_bath_threshold(
              detail::heat_bath_factor(betas(chain), static_cast<double>(k - bound)));
          up_limit(chain, k) = detail::threshold_limit(t);
          if (t == 0) floor = k + 1;
        }
        up_floor(chain) = floor;
      });
}

/// One block-Gibbs sweep of every machine: each colour class in turn (a Potts model:
/// detail::potts_sweep: `kernel` device selects the device style, else the host style). Periodic
/// lattices with integer local fields take the lattice fast path (DeviceModel::lattice), which
/// gives the same bits as the general path. `kernel` chooses the host implementation
/// (same bits either way).
template <class ExecutionSpace>
void gibbs_sweep(const ExecutionSpace& space,
                 const DeviceModel<typename ExecutionSpace::memory_space>& model,
                 const ChainState<ExecutionSpace>& state, std::uint64_t seed, std::uint32_t round,
                 std::uint32_t sweep, detail::HostKernel kernel = detail::HostKernel::best) {
  using memory_space = typename ExecutionSpace::memory_space;
  if (model.n_states > 0) {
    detail::potts_sweep(space, model, state, seed, round, sweep, kernel);
    return;
  }
  const std::int32_t bound = state.up_limit.extent(0) > 0 ? model.integer_field_bound : -1;
  if (model.lattice.enabled && bound >= 0) {
    for (std::int32_t colour = 0; colour < 2; ++colour) {
      detail::update_block(space, state, bound,
                           detail::LatticeBlock<memory_space>{model.lattice, colour},
                           model.lattice.n_nodes / 2, seed, round, sweep, kernel);
    }
    return;
  }
  const std::size_t n_colours = model.block_offsets.empty() ? 0 : model.block_offsets.size() - 1;
  for (std::size_t c = 0; c < n_colours; ++c) {
    const std::int64_t begin = model.block_offsets[c];
    const std::int64_t n_block = model.block_offsets[c + 1] - begin;
    if (n_block == 0) continue;
    detail::update_block(space, state, bound, detail::CsrBlock<memory_space>{model, begin}, n_block,
                         seed, round, sweep, kernel);
  }
}

}  // namespace hamon
