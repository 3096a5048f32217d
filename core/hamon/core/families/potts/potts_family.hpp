// SPDX-License-Identifier: Apache-2.0
#pragma once
// The Potts family (families/model_family.hpp): CategoryVariable (q states, stored as their
// byte), the q-state heat-bath update (families/potts/potts_update.hpp), the Potts energy pass
// (families/potts/detail/potts_energy.hpp) and the state-count observers
// (families/detail/moment_observers.hpp).

#include <Kokkos_Core.hpp>
#include <cstdint>
#include <string>

#include "hamon/core/families/detail/initial_values.hpp"
#include "hamon/core/families/detail/moment_observers.hpp"
#include "hamon/core/families/detail/sweep_launch.hpp"
#include "hamon/core/families/model_family.hpp"
#include "hamon/core/families/potts/detail/potts_energy.hpp"
#include "hamon/core/families/potts/potts_update.hpp"
#include "hamon/core/model/device_model.hpp"
#include "hamon/core/model/variable_kind.hpp"
#include "hamon/core/state/chain_state.hpp"
#include "hamon/core/util/host_kernel.hpp"

namespace hamon::detail {

template <class ExecutionSpace>
using PottsState = ChainState<ExecutionSpace, CategoryVariable::storage_type>;

/// The weight table (integer local fields), then uniformly random states
/// (draw_initial_values): a state is floor(w q / 2^32); clamped nodes hold their state.
template <class ExecutionSpace>
void start_potts(const ExecutionSpace& space,
                 const DeviceModel<typename ExecutionSpace::memory_space>& model,
                 PottsState<ExecutionSpace>& state, std::uint64_t seed) {
  using memory_space = typename ExecutionSpace::memory_space;
  if (model.integer_field_bound >= 0) {
    state.potts_weight = Kokkos::View<double**, Kokkos::LayoutRight, memory_space>(
        Kokkos::view_alloc(space, Kokkos::WithoutInitializing, std::string("hamon::potts_weight")),
        static_cast<std::int64_t>(state.betas.extent(0)), model.integer_field_bound + 1);
  }
  const auto clamp_state = model.clamp_state;
  const auto q = static_cast<std::uint64_t>(model.n_states);
  draw_initial_values(
      space, state, seed, KOKKOS_LAMBDA(const std::int64_t i, const std::uint32_t word) {
        return potts_byte(clamp_state(i) >= 0 ? clamp_state(i)
                                              : static_cast<std::int32_t>((word * q) >> 32));
      });
}

template <class ExecutionSpace>
void refresh_potts_tables(const ExecutionSpace& space,
                          const DeviceModel<typename ExecutionSpace::memory_space>&,
                          PottsState<ExecutionSpace>& state) {
  refresh_potts_weights(space, state);
}

template <class Model>
std::int64_t one_column_per_state(const Model& model) {
  return model.n_states;
}

/// The Potts order parameter: the sum over rounds of (q max_s n_s / N - 1) / (q - 1), from
/// the observer's sum of max_s n_s / N.
template <class Model>
double potts_order_parameter(const Model& model, double per_node_sum, std::int64_t rounds) {
  const double q = model.n_states;
  return (q * per_node_sum - static_cast<double>(rounds)) / (q - 1.0);
}

template <class ExecutionSpace>
ModelFamily<ExecutionSpace, CategoryVariable::storage_type> potts_family() {
  using memory_space = typename ExecutionSpace::memory_space;
  return {&start_potts<ExecutionSpace>,
          &refresh_potts_tables<ExecutionSpace>,
          &potts_sweep<ExecutionSpace>,
          &launch_potts_energies<ExecutionSpace>,
          &one_column_per_state<DeviceModel<memory_space>>,
          &observe_potts_moments<ExecutionSpace>,
          &potts_order_parameter<DeviceModel<memory_space>>};
}

}  // namespace hamon::detail
