// SPDX-License-Identifier: Apache-2.0
#pragma once
// A new ChainState (chain_state.hpp) for a ladder of inverse temperatures.

#include <cstdint>
#include <optional>
#include <vector>

#include "hamon/core/families/family_state.hpp"
#include "hamon/core/families/model_families.hpp"
#include "hamon/core/model/device_model.hpp"
#include "hamon/core/sampler/detail/chain_state_shell.hpp"
#include "hamon/core/sampler/machine_exchange.hpp"
#include "hamon/core/state/chain_state.hpp"
#include "hamon/core/tempering/swap.hpp"

namespace hamon {

/// The state of betas.size() machines of `model` in `space`, machine m at chain m
/// (`betas`: inverse temperatures per chain, ascending): uniformly random spins from `seed`
/// (clamped nodes hold their value; the same spins on every backend), identity
/// permutations, zero counters, the trip phases of the initial permutation, and the
/// acceptance thresholds of the ladder (refresh_acceptance_thresholds). Kernels are
/// enqueued on `space`; fence it before reading the views on the host.
/// With `local` (a block of machine_blocks(betas.size(), ranks)), the state holds the spins
/// of those machines only, the same spins they have in the whole run.
template <class ExecutionSpace>
FamilyState<ExecutionSpace> make_chain_state(
    const ExecutionSpace& space, const DeviceModel<typename ExecutionSpace::memory_space>& model,
    const std::vector<double>& betas, std::uint64_t seed,
    std::optional<MachineBlock> local = std::nullopt) {
  return detail::make_family_state(
      space, detail::family_of<ExecutionSpace>(model), model, betas, seed,
      local.value_or(MachineBlock{0, static_cast<std::int32_t>(betas.size())}));
}

/// The state of `n_ladders` ladders of `betas` in one process, as make_chain_state makes one:
/// machine k * n_ladders + l at chain k of ladder l, so the machines of a chain lie side by
/// side (training's persistent chains: detail::LadderOrder::by_chain). The swap counters
/// are per pair of the ladder, pooled over the ladders.
template <class ExecutionSpace>
FamilyState<ExecutionSpace> make_ladders_state(
    const ExecutionSpace& space, const DeviceModel<typename ExecutionSpace::memory_space>& model,
    const std::vector<double>& betas, std::int32_t n_ladders, std::uint64_t seed) {
  const auto n = static_cast<std::int32_t>(betas.size()) * n_ladders;
  return detail::make_family_state(space, detail::family_of<ExecutionSpace>(model), model, betas,
                                   seed, MachineBlock{0, n}, n_ladders,
                                   detail::LadderOrder::by_chain);
}

}  // namespace hamon
