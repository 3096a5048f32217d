// SPDX-License-Identifier: Apache-2.0
#pragma once
// A model family's run-time table: what the sampler's parts call. A family is a type
// (family_concept.hpp: its variable kind, tables, local update, energies, observers and
// abilities); family_table<F> (family_table.hpp) checks it and fills this table, and
// family_of (model_families.hpp) picks the family of a model. The sampler's parts
// (sampler/detail/) call these operations and ask nothing else: the round loop sweeps and
// scores with it, the ladder adapter refreshes its tables, the moment accumulator observes
// with it, the memory check counts its tables, a restore checks values with it. A new family
// is a new type, with no edit to the round loop, the checkpoint or the rank link.
//
// The operations are plain function pointers, the one run-time switch inside a run: they are
// called on the host once per sweep or round and launch their own kernels, so the
// indirection costs nothing in the kernels.

#include <cstdint>
#include <string>
#include <vector>

#include "hamon/core/families/family_concept.hpp"
#include "hamon/core/families/family_state.hpp"
#include "hamon/core/model/device_model.hpp"
#include "hamon/core/state/cluster_scratch.hpp"
#include "hamon/core/state/moment_buffers.hpp"
#include "hamon/core/stats/moments.hpp"
#include "hamon/core/util/host_kernel.hpp"
#include "hamon/core/util/launch.hpp"

namespace hamon::detail {

template <class ExecutionSpace, class Value>
struct ModelFamily {
  using model_type = DeviceModel<typename ExecutionSpace::memory_space>;
  using state_type = FamilyState<ExecutionSpace, Value>;
  using moments_type = MomentBuffers<ExecutionSpace>;

  FamilyAbilities abilities;
  /// What users call such a model ("Ising", "Potts", "gaussian", ...), for messages.
  std::string (*name)(const model_type& model);
  /// Allocates the family's tables in a new state (chain_state_shell.hpp) and draws the
  /// machines' initial values from `seed` (clamped nodes hold their value).
  void (*start)(const ExecutionSpace& space, const model_type& model, state_type& state,
                std::uint64_t seed);
  /// Refills the local update's tables that depend on the ladder (after every change).
  void (*refresh)(const ExecutionSpace& space, const model_type& model, state_type& state);
  /// One sweep of every local machine.
  void (*sweep)(const ExecutionSpace& space, const model_type& model, const state_type& state,
                std::uint64_t seed, std::uint32_t round, std::uint32_t sweep_index,
                HostKernel kernel);
  /// The round's cluster moves between replica pairs (abilities.cluster_moves; null without).
  void (*cluster_move)(const ExecutionSpace& space, const model_type& model,
                       const state_type& state, const ClusterScratch<ExecutionSpace>& scratch,
                       std::uint64_t seed, std::uint32_t round);
  /// Adds every local machine's energy to its (cleared) state.energy_fixed: see energies().
  void (*add_energies)(const ExecutionSpace& space, const model_type& model,
                       const state_type& state, HostKernel kernel);
  /// Moment columns per node (MomentBuffers::node_sums).
  std::int64_t (*node_columns)(const model_type& model);
  /// Adds the cold chain of this round to batch `batch` of the moment buffers.
  void (*observe)(const ExecutionSpace& space, const model_type& model, const state_type& state,
                  const moments_type& moments, std::int64_t batch);
  /// The moments of the node columns from their batch sums on the host (appended to `out`),
  /// and what the energy sums lack (added to `energy`, per batch); returns the unit of an
  /// edge sum (fixed point for real values).
  double (*node_moments)(const ExecutionSpace& space, const model_type& model,
                         const ColumnBatchSums& node_sums, std::vector<double>& energy,
                         Moments& out);
  /// The order parameter summed over `rounds` rounds, from the sum of the observer's
  /// per-round order statistic per node (abs_magnetization_sums / n_nodes).
  double (*order_parameter)(const model_type& model, double per_node_sum, std::int64_t rounds);
  /// The values a variable takes (replica overlaps count agreements among them); 0 for a
  /// continuum.
  std::int32_t (*values_per_variable)(const model_type& model);
  /// Why `value` cannot be a variable of `model` ("holds V, not ..."); empty when it can.
  std::string (*value_problem)(const model_type& model, Value value);
  /// The bytes of the tables `start` allocates for `n_chains` chains (space_memory.hpp).
  double (*table_bytes)(const model_type& model, std::int64_t n_chains);

  /// Every local machine's energy into state.energy_fixed.
  void energies(const ExecutionSpace& space, const model_type& model, const state_type& state,
                HostKernel kernel = HostKernel::best) const {
    const auto energy_fixed = state.local_energy_fixed();
    small_for(
        space, "hamon::clear_energies", state.n_local_machines(),
        KOKKOS_LAMBDA(const std::int64_t m) { energy_fixed(m) = 0; });
    add_energies(space, model, state, kernel);
  }
};

}  // namespace hamon::detail
