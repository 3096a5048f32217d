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
// (families/spin/heat_bath.hpp), from counter (node, machine, sweep | kTieSweep, round).
//
// Spins are (machine, node) with machines adjacent for a node (ChainState). A GPU thread
// updates one node in one group of 16 machines (each 32-bit word serves 4 of them); a host
// work item updates nodes in every machine, 32 at a time in plain loops over machines that
// the compiler vectorises (generators, fields, exp and the decision: the portable path).
// Where the vector layer is built (Highway, every host build but nvcc's), a work item is a run
// of up to kRegisterRun nodes instead, its generators, local fields and decisions in vector
// registers of the best instruction set the CPU runs (the vector path,
// families/spin/detail/spin_registers-inl.hpp).
//
// With integer local fields the decision is an integer comparison of the byte with the
// top byte of a threshold tabulated per (chain, phi) (families/spin/heat_bath.hpp), exactly
// equivalent to the floating-point test; with real ones, a comparison of phi with the
// chain's boundaries for that byte (families/spin/field_boundaries.hpp), exp only on ties (or per
// update when a state has no boundary table). Every path evaluates the same decisions from the same
// bytes and tie bits, so they all give the same bits; the device style also runs on host spaces
// (HostKernel::device) so the tests check it there.
//
// The pieces, one idea each: families/detail/sweep_blocks.hpp (the colour blocks: CSR, lattice),
// families/spin/spin_decision.hpp (the decision of one update), families/detail/sweep_args.hpp
// (what a block's sweep reads, by name), families/spin/detail/block_update.hpp (the functor: device
// and portable paths), families/spin/detail/spin_registers.hpp (the vector path),
// families/detail/sweep_launch.hpp (how they are launched), families/spin/spin_family.hpp (the
// sweep and tables of the spin family; Potts: families/potts/potts_family.hpp). This file is the
// API.

#include <cstdint>

#include "hamon/core/families/family_state.hpp"
#include "hamon/core/families/model_families.hpp"
#include "hamon/core/model/device_model.hpp"
#include "hamon/core/util/host_kernel.hpp"

namespace hamon {

/// Fills the decision tables of the model's family from the ladder (families/model_families.hpp):
/// state.tables.up_limit / up_floor with integer local fields, state.tables.field_boundary
/// otherwise (allocated here); a Potts model's weights. Call after creating the state and whenever
/// `betas` change.
template <class ExecutionSpace>
void refresh_acceptance_thresholds(const ExecutionSpace& space,
                                   const DeviceModel<typename ExecutionSpace::memory_space>& model,
                                   FamilyState<ExecutionSpace>& state) {
  detail::family_of<ExecutionSpace>(model).refresh(space, model, state);
}

/// One block-Gibbs sweep of every machine: each colour class in turn (a Potts model: its
/// q-state update, families/potts/potts_update.hpp: `kernel` device selects the device style, else
/// the host style). Periodic lattices with integer local fields take the lattice fast path
/// (DeviceModel::lattice), which gives the same bits as the general path. `kernel` chooses
/// the host implementation (same bits either way).
template <class ExecutionSpace>
void gibbs_sweep(const ExecutionSpace& space,
                 const DeviceModel<typename ExecutionSpace::memory_space>& model,
                 const FamilyState<ExecutionSpace>& state, std::uint64_t seed, std::uint32_t round,
                 std::uint32_t sweep, HostKernel kernel = HostKernel::best) {
  detail::family_of<ExecutionSpace>(model).sweep(space, model, state, seed, round, sweep, kernel);
}

}  // namespace hamon
