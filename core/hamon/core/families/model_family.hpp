// SPDX-License-Identifier: Apache-2.0
#pragma once
// A model family: a kind of variable (variable_kind.hpp; `Value` is its storage type), the
// local update that samples it, the energy pass that scores it and the observers that
// measure it. The sampler's parts (sampler/detail/) call a family's operations and never ask
// which family it is: the round loop sweeps and scores with it, the ladder adapter refreshes
// its tables, the moment accumulator observes with it. One function chooses the family of a
// model (family_of, families/model_families.hpp); a new family is a new set of operations, with
// no edit to the round loop, the checkpoint or the rank link.
//
// The operations are plain function pointers: they are called on the host once per sweep or
// round and launch their own kernels, so the indirection costs nothing in the kernels.

#include <cstdint>

#include "hamon/core/model/device_model.hpp"
#include "hamon/core/state/chain_state.hpp"
#include "hamon/core/state/moment_buffers.hpp"
#include "hamon/core/util/host_kernel.hpp"
#include "hamon/core/util/launch.hpp"

namespace hamon::detail {

template <class ExecutionSpace, class Value>
struct ModelFamily {
  using model_type = DeviceModel<typename ExecutionSpace::memory_space>;
  using state_type = ChainState<ExecutionSpace, Value>;
  using moments_type = MomentBuffers<ExecutionSpace>;

  /// Allocates the family's tables in a new state (chain_state_shell.hpp) and draws the
  /// machines' initial values from `seed` (clamped nodes hold their value).
  void (*start)(const ExecutionSpace& space, const model_type& model, state_type& state,
                std::uint64_t seed);
  /// Refills the local update's tables that depend on the ladder (after every change).
  void (*refresh)(const ExecutionSpace& space, const model_type& model, state_type& state);
  /// One sweep of every local machine.
  void (*sweep)(const ExecutionSpace& space, const model_type& model, const state_type& state,
                std::uint64_t seed, std::uint32_t round, std::uint32_t sweep, HostKernel kernel);
  /// Adds every local machine's energy to its (cleared) state.energy_fixed: see energies().
  void (*add_energies)(const ExecutionSpace& space, const model_type& model,
                       const state_type& state, HostKernel kernel);
  /// Moment columns per node (MomentBuffers::node_sums).
  std::int64_t (*node_columns)(const model_type& model);
  /// Adds the cold chain of this round to batch `batch` of the moment buffers.
  void (*observe)(const ExecutionSpace& space, const model_type& model, const state_type& state,
                  const moments_type& moments, std::int64_t batch);
  /// The order parameter summed over `rounds` rounds, from the sum of the observer's
  /// per-round order statistic per node (abs_magnetization_sums / n_nodes).
  double (*order_parameter)(const model_type& model, double per_node_sum, std::int64_t rounds);

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
