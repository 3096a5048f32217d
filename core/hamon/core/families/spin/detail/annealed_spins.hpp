// SPDX-License-Identifier: Apache-2.0
#pragma once
// The spins' annealing path (NrptOptions::reference independent, DeviceModel::annealed):
// the machine at ladder beta samples exp(-a E_ref - b (E - E_ref)), E_ref = -sum_i h_i s_i
// (independent spins in the model's fields), with a = beta_max (the ladder's top) and
// b = beta. So beta = 0 is the reference at beta_max and beta_max the model; the swap
// energy is E - E_ref, the couplings' terms alone (families/spin/detail/energy_pass.hpp drops the
// fields).
//
// Spin i becomes +1 with probability 1 / (1 + exp(-2 (a h_i + b sum_j J_ij s_j))): the exp
// test of families/spin/spin_decision.hpp at beta 1 of the effective field annealed_field(). The
// fast paths decide beta times one local field from per-chain tables (integer thresholds,
// field boundaries) or in AVX-512 registers; an annealed sweep takes none of them: every
// space runs the device style below (one node in a group of 16 machines per work item, the
// draws and tie bits of BlockUpdate::update_group), one exp per update. Every update reads
// only its own draw and the other colours' spins, so the bits are the same on every space,
// thread count and rank count.

#include <Kokkos_Core.hpp>
#include <cstdint>

#include "hamon/core/families/detail/sweep_args.hpp"
#include "hamon/core/families/detail/sweep_blocks.hpp"
#include "hamon/core/families/spin/heat_bath.hpp"
#include "hamon/core/families/spin/spin_decision.hpp"
#include "hamon/core/model/device_model.hpp"
#include "hamon/core/state/chain_state.hpp"
#include "hamon/core/util/counter_rng.hpp"
#include "hamon/core/util/launch.hpp"

namespace hamon::detail {

/// The field whose heat-bath test at beta 1 samples spin i on the annealing path: the
/// reference's field at a = beta_max plus the couplings' at b = beta. The one place the
/// two inverse temperatures meet.
KOKKOS_FORCEINLINE_FUNCTION double annealed_field(double a, double field, double b,
                                                  double coupled_sum) {
  return a * field + b * coupled_sum;
}

/// One colour block's updates on the annealing path: work item k is block node k / n_groups
/// in the machines of group k % n_groups.
template <class ExecutionSpace>
struct AnnealedSpinUpdate : SweepArgs<typename ExecutionSpace::memory_space,
                                      CsrBlock<typename ExecutionSpace::memory_space>> {
  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t idx) const {
    const std::int64_t node = this->block.node(idx / this->n_groups);
    const auto group = static_cast<std::int32_t>(idx % this->n_groups);
    const Philox4 draw = philox4(this->seed, static_cast<std::uint32_t>(node),
                                 this->group_counter(group), this->sweep, this->round);
    const std::int32_t first = group * kMachinesPerDraw;
    const std::int32_t lanes =
        this->n_machines - first < kMachinesPerDraw ? this->n_machines - first : kMachinesPerDraw;
    double coupled[kMachinesPerDraw];
    this->block.coupled_sums(node, this->spins, first, lanes, 0.0, coupled);
    const double field = this->block.model.fields(node);
    const double a = this->betas(this->betas.extent(0) - 1);
    const DecisionTables no_tables{nullptr, nullptr};
    const ChainRow unit_beta{1.0, 0, 0};
    for (std::int32_t lane = 0; lane < lanes; ++lane) {
      const std::int32_t m = first + lane;
      const double b = this->betas(this->chain_of_machine(m));
      this->spins(m, node) = decide_spin<DecisionRule::exp>(
          no_tables, unit_beta, draw_byte(draw, lane), annealed_field(a, field, b, coupled[lane]),
          [&] { return this->tie(node, m); });
    }
  }
};

/// One sweep of every local machine on the annealing path: the CSR colour classes in turn
/// (a lattice's too: its fast path assumes beta times one integer field).
template <class ExecutionSpace>
void annealed_spin_sweep(const ExecutionSpace& space,
                         const DeviceModel<typename ExecutionSpace::memory_space>& model,
                         const ChainState<ExecutionSpace>& state, std::uint64_t seed,
                         std::uint32_t round, std::uint32_t sweep) {
  const std::int32_t n_machines = state.n_local_machines();
  if (n_machines == 0) return;
  AnnealedSpinUpdate<ExecutionSpace> update;
  update.spins = state.spins;
  update.betas = state.betas;
  update.chain_of_machine = state.local_chain_of_machine();
  update.first_group = static_cast<std::uint32_t>(state.first_machine / kMachinesPerDraw);
  update.n_machines = n_machines;
  update.n_groups = (n_machines + kMachinesPerDraw - 1) / kMachinesPerDraw;
  update.seed = seed;
  update.sweep = sweep;
  update.round = round;
  const std::size_t n_colours = model.block_offsets.empty() ? 0 : model.block_offsets.size() - 1;
  for (std::size_t c = 0; c < n_colours; ++c) {
    update.block = CsrBlock<typename ExecutionSpace::memory_space>{model, model.block_offsets[c]};
    update.n_block = model.block_offsets[c + 1] - model.block_offsets[c];
    if (update.n_block == 0) continue;
    launch(space, "hamon::annealed_sweep", update.n_block * update.n_groups,
           update.n_block * host_lane_slots(n_machines), update);
  }
}

}  // namespace hamon::detail
