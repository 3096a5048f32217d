// SPDX-License-Identifier: Apache-2.0
#pragma once
// The spin family (families/family_concept.hpp): SpinVariable (+1 / -1), the heat-bath block-Gibbs
// update (gibbs_sweep.hpp), the energy pass (families/spin/detail/energy_pass.hpp) and the
// magnetisation observers (families/detail/moment_observers.hpp).

#include <Kokkos_Core.hpp>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

#include "hamon/core/families/detail/initial_values.hpp"
#include "hamon/core/families/detail/moment_observers.hpp"
#include "hamon/core/families/detail/sweep_launch.hpp"
#include "hamon/core/families/family_concept.hpp"
#include "hamon/core/families/family_state.hpp"
#include "hamon/core/families/spin/detail/annealed_spins.hpp"
#include "hamon/core/families/spin/detail/energy_pass.hpp"
#include "hamon/core/families/spin/detail/houdayer.hpp"
#include "hamon/core/families/spin/field_boundaries.hpp"
#include "hamon/core/families/spin/heat_bath.hpp"
#include "hamon/core/families/spin/spin_tables.hpp"
#include "hamon/core/model/device_model.hpp"
#include "hamon/core/model/variable_kind.hpp"
#include "hamon/core/util/host_copies.hpp"
#include "hamon/core/util/host_kernel.hpp"
#include "hamon/core/util/view_bytes.hpp"
#include "hamon/core/util/view_fields.hpp"

namespace hamon::detail {

template <class ExecutionSpace>
using SpinState = FamilyState<ExecutionSpace, SpinVariable::storage_type>;

/// The boundaries of real local fields (families/spin/field_boundaries.hpp) for the ladder, in
/// state.tables.field_boundary (allocated by SpinFamily::start).
template <class ExecutionSpace>
void refresh_field_boundaries(const ExecutionSpace& space, const SpinState<ExecutionSpace>& state) {
  const auto n_chains = static_cast<std::int64_t>(state.betas.extent(0));
  const auto boundary = state.tables.field_boundary;
  const auto betas = state.betas;
  Kokkos::parallel_for(
      "hamon::field_boundaries",
      Kokkos::RangePolicy<ExecutionSpace, Kokkos::IndexType<std::int64_t>>(
          space, 0, n_chains * kFieldBoundaries),
      KOKKOS_LAMBDA(const std::int64_t i) {
        const std::int64_t chain = i / kFieldBoundaries;
        const auto k = static_cast<std::int32_t>(i % kFieldBoundaries);
        boundary(chain, k) = field_boundary(betas(chain), boundary_word(k));
      });
}

/// The spin family (family_concept.hpp): Ising spins and RBM units.
struct SpinFamily {
  using variable = SpinVariable;
  static constexpr FamilyAbilities abilities{/*cluster_moves=*/true, /*replica_overlaps=*/true,
                                             AnnealingSupport::optional, /*max_machines=*/0,
                                             MagnetizationKind::spin_sum};

  /// Every model with one-byte variables that is not Potts: n_states is 0 for spins.
  template <class Model>
  static bool takes(const Model& model) {
    return model.n_states == 0 && model.continuous_kind == 0;
  }
  template <class Model>
  static std::string name(const Model&) {
    return "Ising";
  }
  template <class Model>
  static std::int32_t values_per_variable(const Model&) {
    return 2;
  }
  /// The marginal from <s_i>: P(+1), then P(-1).
  template <class Model>
  static std::int32_t mean_columns(const Model&) {
    return 1;
  }
  static std::vector<double> marginal(const std::vector<double>& node_means, std::size_t node,
                                      std::int32_t) {
    const double up = 0.5 * (1.0 + node_means[node]);
    return {up, 1.0 - up};
  }
  static std::int32_t value_index(std::int8_t stored) { return stored > 0 ? 1 : 0; }
  static constexpr const char* entropy_unit = " bits";
  template <class Model>
  static std::string value_problem(const Model&, std::int8_t value) {
    if (value == 1 || value == -1) return {};
    return "holds " + std::to_string(value) + ", not a spin +1 or -1";
  }
  template <class MemorySpace>
  using tables = SpinTables<MemorySpace>;
  /// The tables `start` allocates, planned (util/view_fields.hpp): integer thresholds, or the
  /// real fields' boundaries; none on the annealing path, which decides with exp.
  template <class MemorySpace, class Model>
  static SpinTables<MemorySpace> planned_tables(const Model& model, std::int64_t n_chains) {
    SpinTables<MemorySpace> t;
    if (model.annealed) return t;
    const std::int32_t bound = model.integer_field_bound;
    if (bound >= 0) {
      plan_unfilled(t.up_limit, n_chains, 2 * bound + 1);
      plan_unfilled(t.up_floor, n_chains);
    } else {
      plan_unfilled(t.field_boundary, n_chains, kFieldBoundaries);
    }
    return t;
  }
  template <class Model>
  static double table_bytes(const Model& model, std::int64_t n_chains) {
    return view_fields_bytes(planned_tables<Kokkos::HostSpace>(model, n_chains));
  }
  template <class Model>
  static std::int64_t node_columns(const Model&) {
    return 1;
  }
  /// <|m|> per node: the observer adds |sum_i s_i| per round.
  template <class Model>
  static double order_parameter(const Model&, double per_node_sum, std::int64_t) {
    return per_node_sum;
  }

  /// Houdayer's two-replica move (detail/houdayer.hpp).
  template <class Space>
  static void cluster_move(const Space& space,
                           const DeviceModel<typename Space::memory_space>& model,
                           const SpinState<Space>& state, const ClusterScratch<Space>& scratch,
                           std::uint64_t seed, std::uint32_t round) {
    houdayer_moves(space, model, state, scratch, seed, round);
  }
  template <class Space>
  static void observe(const Space& space, const DeviceModel<typename Space::memory_space>& model,
                      const SpinState<Space>& state, const MomentBuffers<Space>& moments,
                      std::int64_t batch) {
    observe_spin_moments(space, model, state, moments, batch);
  }
  /// One column per node. On the annealing path the energy sums hold E - E_ref: E_ref =
  /// -sum_i h_i s_i comes back from the batches' spin sums.
  template <class Space>
  static double node_moments(const Space& space,
                             const DeviceModel<typename Space::memory_space>& model,
                             const ColumnBatchSums& nodes, std::vector<double>& energy,
                             Moments& out) {
    nodes.append_columns(0, nodes.width, 1.0, out.node_means, out.node_means_stderr);
    if (model.annealed) {
      const auto fields = to_host_vector<double>(space, model.fields);
      for (std::size_t k = 0; k < nodes.rows(); ++k) {
        for (std::size_t i = 0; i < nodes.width; ++i) {
          energy[k] -= fields[i] * static_cast<double>(nodes.at(k, i));
        }
      }
    }
    return 1.0;
  }

  /// The decision tables (planned_tables), then uniformly random spins
  /// (draw_initial_values): a spin is the top bit of its word; clamped nodes hold their value.
  template <class ExecutionSpace>
  static void start(const ExecutionSpace& space,
                    const DeviceModel<typename ExecutionSpace::memory_space>& model,
                    SpinState<ExecutionSpace>& state, std::uint64_t seed) {
    allocate_tables<SpinFamily>(space, model, state);
    const auto clamped = model.clamped;
    draw_initial_values(
        space, state, seed, KOKKOS_LAMBDA(const std::int64_t i, const std::uint32_t word) {
          return clamped(i) != 0 ? clamped(i) : ((word >> 31) ? std::int8_t(1) : std::int8_t(-1));
        });
  }
  /// The decision tables from the ladder: state.tables.up_limit / up_floor with integer local
  /// fields, state.tables.field_boundary otherwise; none on the annealing path, which decides with
  /// exp (families/spin/detail/annealed_spins.hpp).
  template <class ExecutionSpace>
  static void refresh(const ExecutionSpace& space,
                      const DeviceModel<typename ExecutionSpace::memory_space>& model,
                      SpinState<ExecutionSpace>& state) {
    if (model.annealed) return;
    const std::int32_t bound = model.integer_field_bound;
    if (bound < 0) {
      refresh_field_boundaries(space, state);
      return;
    }
    if (state.tables.up_limit.extent(0) == 0) return;
    const auto up_limit = state.tables.up_limit;
    const auto up_floor = state.tables.up_floor;
    const auto betas = state.betas;
    const std::int32_t width = 2 * bound + 1;
    // One chain per work item: the floor needs the chain's whole row.
    Kokkos::parallel_for(
        "hamon::acceptance_thresholds",
        Kokkos::RangePolicy<ExecutionSpace>(space, 0, static_cast<std::int32_t>(betas.extent(0))),
        KOKKOS_LAMBDA(const std::int32_t chain) {
          std::int32_t floor = 0;
          for (std::int32_t k = 0; k < width; ++k) {
            const std::uint64_t t =
                heat_bath_threshold(heat_bath_factor(betas(chain), static_cast<double>(k - bound)));
            up_limit(chain, k) = threshold_limit(t);
            if (t == 0) floor = k + 1;
          }
          up_floor(chain) = floor;
        });
  }
  /// One block-Gibbs sweep: each colour class in turn; periodic lattices with integer local
  /// fields take the lattice fast path (same bits as the general path). The annealing path
  /// takes its own update, never the fast paths (families/spin/detail/annealed_spins.hpp).
  template <class ExecutionSpace>
  static void sweep(const ExecutionSpace& space,
                    const DeviceModel<typename ExecutionSpace::memory_space>& model,
                    const SpinState<ExecutionSpace>& state, std::uint64_t seed, std::uint32_t round,
                    std::uint32_t sweep_index, HostKernel kernel) {
    if (model.annealed) {
      annealed_spin_sweep(space, model, state, seed, round, sweep_index);
      return;
    }
    const std::int32_t bound = state.tables.up_limit.extent(0) > 0 ? model.integer_field_bound : -1;
    for_each_colour_block(
        model, model.lattice.enabled && bound >= 0, [&](const auto& block, std::int64_t n_block) {
          update_block(space, state, bound, block, n_block, seed, round, sweep_index, kernel);
        });
  }
  template <class ExecutionSpace>
  static void add_energies(const ExecutionSpace& space,
                           const DeviceModel<typename ExecutionSpace::memory_space>& model,
                           const SpinState<ExecutionSpace>& state, HostKernel kernel) {
    if constexpr (host_style<ExecutionSpace>) {
      if (kernel == HostKernel::device) {
        launch_energies<false>(space, model, state, false);
        return;
      }
    }
    launch_energies<host_style<ExecutionSpace>>(space, model, state,
                                                use_host_vectors<ExecutionSpace>(kernel));
  }
};

}  // namespace hamon::detail
