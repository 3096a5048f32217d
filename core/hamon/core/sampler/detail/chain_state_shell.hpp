// SPDX-License-Identifier: Apache-2.0
#pragma once
// A new ChainState (make_chain_state.hpp), written once for any family: the shell (the
// variables allocated, the ladder, identity permutations, zero counters and trip phases),
// then the family's tables and initial values, then the index process of the start.

#include <Kokkos_Core.hpp>
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "hamon/core/families/family_state.hpp"
#include "hamon/core/families/model_family.hpp"
#include "hamon/core/model/device_model.hpp"
#include "hamon/core/sampler/machine_exchange.hpp"
#include "hamon/core/state/chain_state.hpp"
#include "hamon/core/tempering/swap.hpp"
#include "hamon/core/util/host_copies.hpp"
#include "hamon/core/util/view_fields.hpp"

namespace hamon::detail {

/// Which machine starts at chain k of ladder r (of n ladders of n_chains chains).
enum class LadderOrder {
  by_ladder,  // r * n_chains + k: a ladder's machines side by side (the sampler's replicas:
              // replica 0 is the machines of a one-replica run)
  by_chain,   // k * n + r: a chain's machines side by side (training's persistent chains,
              // whose swaps move states, so the beta = 1 chains stay the last rows)
};

/// The machine records of `n_replicas` ladders of `n_chains` machines, planned
/// (util/view_fields.hpp): what chain_state_shell allocates and the memory check counts.
/// Per machine, but the swap counters: per pair of the ladder, pooled over the replicas.
template <class MemorySpace>
MachineRecords<ViewsIn<MemorySpace>::template type> planned_machine_records(
    std::int32_t n_chains, std::int32_t n_replicas) {
  MachineRecords<ViewsIn<MemorySpace>::template type> r;
  const std::int32_t n = n_chains * n_replicas;
  const std::int32_t pairs = n_chains > 1 ? n_chains - 1 : 0;
  plan_unfilled(r.chain_of_machine, n);  // filled by chain_state_shell
  plan_unfilled(r.machine_of_chain, n);
  plan(r.trip_phase, n);
  plan(r.energy_fixed, n);
  plan(r.attempted, pairs);
  plan(r.accepted, pairs);
  plan(r.round_trips, n);
  plan(r.restarts, n);
  return r;
}

/// The state of `n_replicas` ladders of betas.size() machines with `n_nodes` variables each,
/// holding the variables of the machines of `block` (a block of
/// machine_blocks(n_replicas * betas.size(), ranks)), the machines in `order`.
template <class Value, class ExecutionSpace>
FamilyState<ExecutionSpace, Value> chain_state_shell(
    const ExecutionSpace& space, std::int64_t n_nodes, const std::vector<double>& betas,
    MachineBlock block, std::int32_t n_replicas = 1, LadderOrder order = LadderOrder::by_ladder) {
  using state_type = FamilyState<ExecutionSpace, Value>;
  const auto n_chains = static_cast<std::int32_t>(betas.size());
  const std::int32_t n = n_chains * n_replicas;
  if (block.first < 0 || block.count < 0 || block.first + block.count > n ||
      (block.count > 0 && block.first % kMachinesPerRankUnit != 0)) {
    throw std::invalid_argument("make_chain_state: machines [" + std::to_string(block.first) +
                                ", " + std::to_string(block.first + block.count) +
                                ") are not a block of whole draw groups of " + std::to_string(n) +
                                " machines");
  }
  state_type s;
  s.first_machine = block.first;
  s.spins = typename state_type::spin_view(
      Kokkos::view_alloc(space, Kokkos::WithoutInitializing, std::string("hamon::spins")),
      block.count, n_nodes);
  s.betas = to_view(space, betas, "hamon::betas");
  // machine_of_chain(r * n_chains + i): the machine at chain i of ladder r; chain_of_machine
  // the chain within the machine's ladder.
  std::vector<std::int32_t> machines(static_cast<std::size_t>(n)), chains(machines.size());
  for (std::int32_t k = 0; k < n; ++k) {
    const std::int32_t chain = k % n_chains;
    const std::int32_t m = order == LadderOrder::by_ladder ? k : chain * n_replicas + k / n_chains;
    machines[static_cast<std::size_t>(k)] = m;
    chains[static_cast<std::size_t>(m)] = chain;
  }
  using memory_space = typename ExecutionSpace::memory_space;
  auto& records = static_cast<MachineRecords<ViewsIn<memory_space>::template type>&>(s);
  records = planned_machine_records<memory_space>(n_chains, n_replicas);
  allocate_planned(space, records);
  copy_from_host(space, s.chain_of_machine, chains);
  copy_from_host(space, s.machine_of_chain, machines);
  return s;
}

/// A family's new state for `block` (make_chain_state: the machines' values from `seed`, the
/// ladder's tables, the trip phases of the initial permutation).
template <class ExecutionSpace, class Value>
FamilyState<ExecutionSpace, Value> make_family_state(
    const ExecutionSpace& space, const ModelFamily<ExecutionSpace, Value>& family,
    const DeviceModel<typename ExecutionSpace::memory_space>& model,
    const std::vector<double>& betas, std::uint64_t seed, MachineBlock block,
    std::int32_t n_replicas = 1, LadderOrder order = LadderOrder::by_ladder) {
  auto s = chain_state_shell<Value>(space, model.n_nodes, betas, block, n_replicas, order);
  family.start(space, model, s, seed);
  family.refresh(space, model, s);
  update_index_process(space, s);  // the initial permutation: machine 0 starts at chain 0
  return s;
}

}  // namespace hamon::detail
