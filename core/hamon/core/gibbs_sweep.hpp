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
// impl/register_sweep.hpp (the AVX-512 register paths), impl/sweep_launch.hpp (how they
// are launched). This file is the API.

#include <Kokkos_Core.hpp>
#include <cstdint>
#include <string>

#include "hamon/core/chain_state.hpp"
#include "hamon/core/device_model.hpp"
#include "hamon/core/host_kernel.hpp"
#include "hamon/core/impl/field_boundaries.hpp"
#include "hamon/core/impl/heat_bath.hpp"
#include "hamon/core/impl/sweep_launch.hpp"

namespace hamon {

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
                 std::uint32_t sweep, HostKernel kernel = HostKernel::best) {
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
