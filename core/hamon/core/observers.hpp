#pragma once
// Device-side observers of the cold chain and the ladder: samples, energies per round,
// and running moments accumulated in batches (for batch-means standard errors).
// Sums of spins are integers (exact in any order); the energy sum is accumulated by one
// thread in round order, so all of it is bit-identical across spaces.

#include <Kokkos_Core.hpp>
#include <cstdint>
#include <string>
#include <vector>

#include "hamon/core/chain_state.hpp"
#include "hamon/core/device_model.hpp"
#include "hamon/core/energy.hpp"
#include "hamon/core/impl/launch.hpp"
#include "hamon/core/nrpt.hpp"

namespace hamon::detail {

template <class ExecutionSpace>
struct ObserverBuffers {
  using memory_space = typename ExecutionSpace::memory_space;
  template <class T>
  using matrix = Kokkos::View<T**, Kokkos::LayoutRight, memory_space>;
  template <class T>
  using vector = Kokkos::View<T*, memory_space>;

  // samples
  std::int64_t samples_every = 0;
  vector<std::int32_t> sample_nodes;
  matrix<std::int8_t> samples;  // (n_samples, n_sample_nodes)
  // energies by temperature
  matrix<double> energies;  // (n_rounds, n_chains)
  // chain of every machine
  matrix<std::int32_t> index_process;  // (n_rounds, n_machines)
  // moments
  std::int32_t n_batches = 0;
  matrix<std::int64_t> node_sums;  // (n_batches, n_nodes)
  matrix<std::int64_t> edge_sums;  // (n_batches, n_edges)
  vector<double> energy_sums;      // per batch
  vector<std::int64_t> abs_magnetization_sums;
  vector<std::int64_t> counts;
};

template <class ExecutionSpace>
ObserverBuffers<ExecutionSpace> make_observer_buffers(
    const ExecutionSpace& space, const DeviceModel<typename ExecutionSpace::memory_space>& model,
    const ObserverOptions& options, std::int64_t n_rounds, std::int32_t n_chains) {
  ObserverBuffers<ExecutionSpace> b;
  using mem = typename ExecutionSpace::memory_space;
  if (options.samples_every > 0) {
    b.samples_every = options.samples_every;
    std::vector<std::int32_t> nodes;
    if (options.sample_nodes.empty()) {
      for (std::int64_t i = 0; i < model.n_nodes; ++i)
        nodes.push_back(static_cast<std::int32_t>(i));
    } else {
      for (std::int64_t i : options.sample_nodes) nodes.push_back(static_cast<std::int32_t>(i));
    }
    b.sample_nodes = to_view(space, nodes, "hamon::sample_nodes");
    b.samples = typename ObserverBuffers<ExecutionSpace>::template matrix<std::int8_t>(
        Kokkos::view_alloc(space, std::string("hamon::samples")), n_rounds / options.samples_every,
        nodes.size());
  }
  if (options.energies) {
    b.energies = typename ObserverBuffers<ExecutionSpace>::template matrix<double>(
        Kokkos::view_alloc(space, std::string("hamon::energy_trace")), n_rounds, n_chains);
  }
  if (options.index_process) {
    b.index_process = typename ObserverBuffers<ExecutionSpace>::template matrix<std::int32_t>(
        Kokkos::view_alloc(space, std::string("hamon::index_trace")), n_rounds, n_chains);
  }
  if (options.moments) {
    b.n_batches = static_cast<std::int32_t>(
        std::min<std::int64_t>(std::max(options.moment_batches, 1), n_rounds));
    const auto n_edges = model.edge_i.extent(0);
    b.node_sums = Kokkos::View<std::int64_t**, Kokkos::LayoutRight, mem>(
        Kokkos::view_alloc(space, std::string("hamon::node_sums")), b.n_batches, model.n_nodes);
    b.edge_sums = Kokkos::View<std::int64_t**, Kokkos::LayoutRight, mem>(
        Kokkos::view_alloc(space, std::string("hamon::edge_sums")), b.n_batches, n_edges);
    b.energy_sums = Kokkos::View<double*, mem>(
        Kokkos::view_alloc(space, std::string("hamon::energy_sums")), b.n_batches);
    b.abs_magnetization_sums = Kokkos::View<std::int64_t*, mem>(
        Kokkos::view_alloc(space, std::string("hamon::abs_magnetization_sums")), b.n_batches);
    b.counts = Kokkos::View<std::int64_t*, mem>(
        Kokkos::view_alloc(space, std::string("hamon::moment_counts")), b.n_batches);
  }
  return b;
}

/// Everything the observers record after measured round `r` (0-based).
template <class ExecutionSpace>
void observe_round(const ExecutionSpace& space,
                   const DeviceModel<typename ExecutionSpace::memory_space>& model,
                   const ChainState<ExecutionSpace>& state,
                   const ObserverBuffers<ExecutionSpace>& b, std::int64_t r,
                   std::int64_t n_rounds) {
  const std::int32_t top = static_cast<std::int32_t>(state.betas.extent(0)) - 1;
  const auto machine_of_chain = state.machine_of_chain;
  const auto spins = state.spins;
  if (b.samples_every > 0 && (r + 1) % b.samples_every == 0) {
    const std::int64_t row = (r + 1) / b.samples_every - 1;
    const auto samples = b.samples;
    const auto nodes = b.sample_nodes;
    const auto n_samples = static_cast<std::int64_t>(nodes.extent(0));
    launch(
        space, "hamon::observe_samples", n_samples, n_samples, KOKKOS_LAMBDA(const std::int64_t k) {
          samples(row, k) = spins(machine_of_chain(top), nodes(k));
        });
  }
  if (b.energies.extent(0) > 0) {
    const auto energies = b.energies;
    const auto energy_fixed = state.energy_fixed;
    const int bits = model.energy_fraction_bits;
    small_for(
        space, "hamon::observe_energies", top + 1, KOKKOS_LAMBDA(const std::int64_t c) {
          energies(r, c) = fixed_point_energy(energy_fixed(machine_of_chain(c)), bits);
        });
  }
  if (b.index_process.extent(0) > 0) {
    const auto trace = b.index_process;
    const auto chain_of_machine = state.chain_of_machine;
    small_for(
        space, "hamon::observe_index_process", top + 1,
        KOKKOS_LAMBDA(const std::int64_t m) { trace(r, m) = chain_of_machine(m); });
  }
  if (b.n_batches > 0) {
    const std::int64_t batch = r * b.n_batches / n_rounds;
    const auto node_sums = b.node_sums;
    const auto edge_sums = b.edge_sums;
    const auto edge_i = model.edge_i;
    const auto edge_j = model.edge_j;
    launch(
        space, "hamon::observe_node_moments", model.n_nodes, model.n_nodes,
        KOKKOS_LAMBDA(const std::int64_t i) {
          node_sums(batch, i) += spins(machine_of_chain(top), i);
        });
    const auto n_edges = static_cast<std::int64_t>(edge_i.extent(0));
    launch(
        space, "hamon::observe_edge_moments", n_edges, n_edges,
        KOKKOS_LAMBDA(const std::int64_t e) {
          const std::int32_t m = machine_of_chain(top);
          edge_sums(batch, e) += spins(m, edge_i(e)) * spins(m, edge_j(e));
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
        const std::int32_t m = machine_of_chain(top);
        std::int64_t magnetization = 0;
        for (std::int64_t i = 0; i < n_nodes; ++i) magnetization += spins(m, i);
        energy_sums(batch) += fixed_point_energy(energy_fixed(m), bits);
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
          const std::int32_t m = machine_of_chain(top);
          std::int64_t magnetization = 0;
          Kokkos::parallel_reduce(
              Kokkos::TeamThreadRange(team, n_nodes),
              [&](const std::int64_t i, std::int64_t& sum) { sum += spins(m, i); }, magnetization);
          Kokkos::single(Kokkos::PerTeam(team), [&]() {
            energy_sums(batch) += fixed_point_energy(energy_fixed(m), bits);
            abs_m(batch) += magnetization < 0 ? -magnetization : magnetization;
            counts(batch) += 1;
          });
        });
  }
}

}  // namespace hamon::detail
