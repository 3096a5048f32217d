// SPDX-License-Identifier: Apache-2.0
#pragma once
// The Potts family (families/family_concept.hpp): CategoryVariable (q states, stored as their
// byte), the q-state heat-bath update (families/potts/potts_update.hpp), the Potts energy pass
// (families/potts/detail/potts_energy.hpp) and the state-count observers
// (families/detail/moment_observers.hpp).

#include <Kokkos_Core.hpp>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "hamon/core/families/detail/initial_values.hpp"
#include "hamon/core/families/detail/moment_observers.hpp"
#include "hamon/core/families/detail/sweep_launch.hpp"
#include "hamon/core/families/family_concept.hpp"
#include "hamon/core/families/family_state.hpp"
#include "hamon/core/families/potts/detail/potts_energy.hpp"
#include "hamon/core/families/potts/potts_tables.hpp"
#include "hamon/core/families/potts/potts_update.hpp"
#include "hamon/core/model/device_model.hpp"
#include "hamon/core/model/variable_kind.hpp"
#include "hamon/core/util/host_kernel.hpp"
#include "hamon/core/util/view_bytes.hpp"
#include "hamon/core/util/view_fields.hpp"

namespace hamon::detail {

template <class ExecutionSpace>
using PottsState = FamilyState<ExecutionSpace, CategoryVariable::storage_type>;

/// The Potts family (family_concept.hpp): q-state categories.
struct PottsFamily {
  using variable = CategoryVariable;
  /// Houdayer's move flips spins; Potts states have no flip. Independent states are no
  /// reference: the fields of a Potts model do not factor the way a spin's do.
  static constexpr FamilyAbilities abilities{/*cluster_moves=*/false, /*replica_overlaps=*/true,
                                             AnnealingSupport::refused, /*max_machines=*/0,
                                             MagnetizationKind::potts_max};

  template <class Model>
  static bool takes(const Model& model) {
    return model.n_states > 0;
  }
  template <class Model>
  static std::string name(const Model&) {
    return "Potts";
  }
  template <class Model>
  static std::int32_t values_per_variable(const Model& model) {
    return model.n_states;
  }
  /// The marginals P(x_i = s) are the node means themselves, q per node.
  template <class Model>
  static std::int32_t mean_columns(const Model& model) {
    return model.n_states;
  }
  static std::vector<double> marginal(const std::vector<double>& node_means, std::size_t node,
                                      std::int32_t q) {
    const auto first =
        node_means.begin() + static_cast<std::ptrdiff_t>(node * static_cast<std::size_t>(q));
    return {first, first + q};
  }
  static std::int32_t value_index(std::int8_t stored) { return potts_state(stored); }
  static constexpr const char* entropy_unit = " (in units of log q)";
  /// A state is its byte read unsigned (model/variable_kind.hpp).
  template <class Model>
  static std::string value_problem(const Model& model, std::int8_t value) {
    const std::int32_t state = potts_state(value);
    if (state < model.n_states) return {};
    return "holds " + std::to_string(state) +
           ", not a state below q = " + std::to_string(model.n_states);
  }
  template <class MemorySpace>
  using tables = PottsTables<MemorySpace>;
  /// The weight table `start` allocates, planned: with integer local fields only.
  template <class MemorySpace, class Model>
  static PottsTables<MemorySpace> planned_tables(const Model& model, std::int64_t n_chains) {
    PottsTables<MemorySpace> t;
    if (model.integer_field_bound >= 0) {
      plan_unfilled(t.potts_weight, n_chains, model.integer_field_bound + 1);
    }
    return t;
  }
  template <class Model>
  static double table_bytes(const Model& model, std::int64_t n_chains) {
    return view_fields_bytes(planned_tables<Kokkos::HostSpace>(model, n_chains));
  }
  /// One marginal P(x_i = s) per state.
  template <class Model>
  static std::int64_t node_columns(const Model& model) {
    return model.n_states;
  }
  /// The Potts order parameter: the sum over rounds of (q max_s n_s / N - 1) / (q - 1), from
  /// the observer's sum of max_s n_s / N.
  template <class Model>
  static double order_parameter(const Model& model, double per_node_sum, std::int64_t rounds) {
    const double q = model.n_states;
    return (q * per_node_sum - static_cast<double>(rounds)) / (q - 1.0);
  }

  template <class Space>
  static void sweep(const Space& space, const DeviceModel<typename Space::memory_space>& model,
                    const PottsState<Space>& state, std::uint64_t seed, std::uint32_t round,
                    std::uint32_t sweep_index, HostKernel kernel) {
    potts_sweep(space, model, state, seed, round, sweep_index, kernel);
  }
  template <class Space>
  static void add_energies(const Space& space,
                           const DeviceModel<typename Space::memory_space>& model,
                           const PottsState<Space>& state, HostKernel kernel) {
    launch_potts_energies(space, model, state, kernel);
  }
  template <class Space>
  static void observe(const Space& space, const DeviceModel<typename Space::memory_space>& model,
                      const PottsState<Space>& state, const MomentBuffers<Space>& moments,
                      std::int64_t batch) {
    observe_potts_moments(space, model, state, moments, batch);
  }
  /// The marginals P(x_i = s), q columns per node; the energy sums are E (no annealing).
  template <class Space>
  static double node_moments(const Space&, const DeviceModel<typename Space::memory_space>&,
                             const ColumnBatchSums& nodes, std::vector<double>&, Moments& out) {
    nodes.append_columns(0, nodes.width, 1.0, out.node_means, out.node_means_stderr);
    return 1.0;
  }

  /// The weight table (planned_tables), then uniformly random states
  /// (draw_initial_values): a state is floor(w q / 2^32); clamped nodes hold their state.
  template <class ExecutionSpace>
  static void start(const ExecutionSpace& space,
                    const DeviceModel<typename ExecutionSpace::memory_space>& model,
                    PottsState<ExecutionSpace>& state, std::uint64_t seed) {
    allocate_tables<PottsFamily>(space, model, state);
    const auto clamp_state = model.clamp_state;
    const auto q = static_cast<std::uint64_t>(model.n_states);
    draw_initial_values(
        space, state, seed, KOKKOS_LAMBDA(const std::int64_t i, const std::uint32_t word) {
          return potts_byte(clamp_state(i) >= 0 ? clamp_state(i)
                                                : static_cast<std::int32_t>((word * q) >> 32));
        });
  }
  template <class ExecutionSpace>
  static void refresh(const ExecutionSpace& space,
                      const DeviceModel<typename ExecutionSpace::memory_space>&,
                      PottsState<ExecutionSpace>& state) {
    refresh_potts_weights(space, state);
  }
};

}  // namespace hamon::detail
