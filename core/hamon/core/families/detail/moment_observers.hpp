// SPDX-License-Identifier: Apache-2.0
#pragma once
// The built-in families' observers (families/model_family.hpp): what the cold chain of a
// measured round adds to the moment buffers (moment_buffers.hpp). Sums of spins and counts
// are integers (exact in any order); the energy is added by one thread, in round order.

#include <Kokkos_Core.hpp>
#include <cstdint>
#include <string>

#include "hamon/core/families/potts/potts_update.hpp"
#include "hamon/core/model/device_model.hpp"
#include "hamon/core/state/chain_rows.hpp"
#include "hamon/core/state/chain_state.hpp"
#include "hamon/core/state/moment_buffers.hpp"
#include "hamon/core/util/fixed_point.hpp"
#include "hamon/core/util/launch.hpp"

namespace hamon::detail {

/// The node and edge passes every family's observer makes over the coldest chain: node(m, i)
/// for each node and edge_sums(batch, e) += edge(m, i, j) for each edge (i, j), m the row of
/// the machine at the coldest chain (nothing where another rank holds it). The kernels are
/// "hamon::observe_<kind>_nodes" and "..._edges".
template <class ExecutionSpace, class Value, class Node, class Edge>
void observe_coldest_nodes_and_edges(
    const ExecutionSpace& space, const DeviceModel<typename ExecutionSpace::memory_space>& model,
    const ChainRows<ExecutionSpace, Value>& rows, const MomentBuffers<ExecutionSpace>& b,
    std::int64_t batch, const std::string& kind, const Node& node, const Edge& edge) {
  launch(
      space, ("hamon::observe_" + kind + "_nodes").c_str(), model.n_nodes, model.n_nodes,
      KOKKOS_LAMBDA(const std::int64_t i) {
        const std::int32_t m = rows.row(rows.coldest);
        if (m >= 0) node(m, i);
      });
  const auto edge_sums = b.edge_sums;
  const auto edge_i = model.edge_i;
  const auto edge_j = model.edge_j;
  const auto n_edges = static_cast<std::int64_t>(edge_sums.extent(1));
  launch(
      space, ("hamon::observe_" + kind + "_edges").c_str(), n_edges, n_edges,
      KOKKOS_LAMBDA(const std::int64_t e) {
        const std::int32_t m = rows.row(rows.coldest);
        // Checked (add_fixed): a continuous model's fixed-point sum is marked, never wrapped.
        if (m >= 0)
          edge_sums(batch, e) = add_fixed(edge_sums(batch, e), edge(m, edge_i(e), edge_j(e)));
      });
}

/// The Potts observer: state counts per node, edge agreements, and max_s n_s for the order
/// parameter.
template <class ExecutionSpace>
void observe_potts_moments(const ExecutionSpace& space,
                           const DeviceModel<typename ExecutionSpace::memory_space>& model,
                           const ChainState<ExecutionSpace>& state,
                           const MomentBuffers<ExecutionSpace>& b, std::int64_t batch) {
  const ChainRows<ExecutionSpace, std::int8_t> rows(state);
  const auto node_sums = b.node_sums;
  const auto state_counts = b.state_counts;
  const std::int32_t q = model.n_states;
  small_for(
      space, "hamon::clear_state_counts", q,
      KOKKOS_LAMBDA(const std::int64_t s) { state_counts(s) = 0; });
  observe_coldest_nodes_and_edges(
      space, model, rows, b, batch, "potts",
      KOKKOS_LAMBDA(const std::int32_t m, const std::int64_t i) {
        const std::int32_t x = potts_state(rows.values(m, i));
        node_sums(batch, i * q + x) += 1;
        Kokkos::atomic_add(&state_counts(x), std::int64_t(1));
      },
      KOKKOS_LAMBDA(const std::int32_t m, const std::int32_t i, const std::int32_t j) {
        return rows.values(m, i) == rows.values(m, j) ? std::int64_t(1) : std::int64_t(0);
      });
  const auto energy_sums = b.energy_sums;
  const auto largest = b.abs_magnetization_sums;
  const auto counts = b.counts;
  const auto energy_fixed = state.energy_fixed;
  const int bits = model.energy_fraction_bits;
  small_for(
      space, "hamon::observe_potts_scalars", 1, KOKKOS_LAMBDA(const std::int64_t) {
        std::int64_t most = 0;
        for (std::int32_t s = 0; s < q; ++s) most = state_counts(s) > most ? state_counts(s) : most;
        energy_sums(batch) +=
            fixed_point_energy(energy_fixed(rows.machine_of_chain(rows.coldest)), bits);
        largest(batch) += most;
        counts(batch) += 1;
      });
}

/// The spin observer: spins per node, bond products per edge, and |magnetisation|.
template <class ExecutionSpace>
void observe_spin_moments(const ExecutionSpace& space,
                          const DeviceModel<typename ExecutionSpace::memory_space>& model,
                          const ChainState<ExecutionSpace>& state,
                          const MomentBuffers<ExecutionSpace>& b, std::int64_t batch) {
  const ChainRows<ExecutionSpace, std::int8_t> rows(state);
  const auto spins = state.spins;
  const auto node_sums = b.node_sums;
  observe_coldest_nodes_and_edges(
      space, model, rows, b, batch, "spin",
      KOKKOS_LAMBDA(const std::int32_t m, const std::int64_t i) {
        node_sums(batch, i) += spins(m, i);
      },
      KOKKOS_LAMBDA(const std::int32_t m, const std::int32_t i, const std::int32_t j) {
        return std::int64_t(spins(m, i) * spins(m, j));
      });
  const auto energy_sums = b.energy_sums;
  const auto abs_m = b.abs_magnetization_sums;
  const auto counts = b.counts;
  const auto energy_fixed = state.energy_fixed;
  const int bits = model.energy_fraction_bits;
  const std::int64_t n_nodes = model.n_nodes;
  if constexpr (host_style<ExecutionSpace>) {
    if (n_nodes < kInlineHostWork) {
      // Small model: on the calling thread (launch.hpp), same sums.
      Kokkos::Profiling::pushRegion("hamon::observe_scalar_moments");
      const std::int32_t cold = rows.machine_of_chain(rows.coldest);
      const std::int32_t m = rows.row(rows.coldest);
      std::int64_t magnetization = 0;
      if (m >= 0) {
        for (std::int64_t i = 0; i < n_nodes; ++i) magnetization += spins(m, i);
      }
      energy_sums(batch) += fixed_point_energy(energy_fixed(cold), bits);
      abs_m(batch) += magnetization < 0 ? -magnetization : magnetization;
      counts(batch) += 1;
      Kokkos::Profiling::popRegion();
      return;
    }
  }
  using team_policy = Kokkos::TeamPolicy<ExecutionSpace>;
  Kokkos::parallel_for(
      "hamon::observe_scalar_moments", team_policy(space, 1, Kokkos::AUTO),
      KOKKOS_LAMBDA(const typename team_policy::member_type& team) {
        const std::int32_t cold = rows.machine_of_chain(rows.coldest);
        const std::int32_t m = rows.row(rows.coldest);
        std::int64_t magnetization = 0;
        Kokkos::parallel_reduce(
            Kokkos::TeamThreadRange(team, m >= 0 ? n_nodes : 0),
            [&](const std::int64_t i, std::int64_t& sum) { sum += spins(m, i); }, magnetization);
        Kokkos::single(Kokkos::PerTeam(team), [&]() {
          energy_sums(batch) += fixed_point_energy(energy_fixed(cold), bits);
          abs_m(batch) += magnetization < 0 ? -magnetization : magnetization;
          counts(batch) += 1;
        });
      });
}

}  // namespace hamon::detail
