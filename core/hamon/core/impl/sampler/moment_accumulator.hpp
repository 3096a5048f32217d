// SPDX-License-Identifier: Apache-2.0
#pragma once
// The sampler's moment accumulator: the cold chain's sums (per node, per edge, energy,
// |magnetisation|) in batches of `length` measured rounds, at most 2K batches
// (K = ObserverOptions::moment_batches): when all 2K are full, neighbours are merged and
// the length doubles. The batches after m measured rounds depend on m alone, never on how
// the run was split into run() calls, so a resumed run gives the same bits. Sums of spins
// are integers (exact in any order); the energy sum is accumulated by one thread in round
// order and merged pairwise in a fixed order, so all of it is bit-identical across spaces.
//
// Over ranks, a rank adds the cold chain's spins only in rounds when it holds that
// machine (zero otherwise), so the ranks' node, edge and |magnetisation| sums add up to
// one process's; the energy sums and counts come from replicated views and are the same
// on every rank. Its state is MomentBatchesState, saved field by field in step with the
// views (MomentBuffers::sums).

#include <Kokkos_Core.hpp>
#include <algorithm>
#include <cstdint>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include "hamon/core/chain_state.hpp"
#include "hamon/core/device_model.hpp"
#include "hamon/core/energy.hpp"
#include "hamon/core/impl/host_copies.hpp"
#include "hamon/core/impl/launch.hpp"
#include "hamon/core/impl/potts_update.hpp"
#include "hamon/core/impl/sampler/rank_link.hpp"
#include "hamon/core/impl/sampler/restore_checks.hpp"
#include "hamon/core/nrpt.hpp"
#include "hamon/core/sampler_state.hpp"
#include "hamon/core/statistics.hpp"

namespace hamon::detail {

/// One batch-sum view of the accumulator: whether the ranks' copies are shares of a sum
/// (saved summed to rank 0, restored there) or replicas of one value.
template <class View>
struct BatchSums {
  const char* name;
  View& view;
  bool shared_over_ranks;
};

template <class ExecutionSpace>
struct MomentBuffers {
  using memory_space = typename ExecutionSpace::memory_space;
  template <class T>
  using matrix = Kokkos::View<T**, Kokkos::LayoutRight, memory_space>;
  template <class T>
  using vector = Kokkos::View<T*, memory_space>;

  std::int32_t max_batches = 0;    // 2K; 0 when moments are off
  MomentBatchesState layout;       // length, n_batches, in_batch (the vectors stay empty)
  matrix<std::int64_t> node_sums;  // (max_batches, n_nodes), Potts: (.., n_nodes * q)
  matrix<std::int64_t> edge_sums;  // (max_batches, n_edges)
  vector<double> energy_sums;      // per batch
  vector<std::int64_t> abs_magnetization_sums;  // Potts: sums of max_s n_s
  vector<std::int64_t> counts;
  vector<std::int64_t> state_counts;  // Potts: n_s of this round's cold chain (q)

  bool on() const { return max_batches > 0; }

  /// The sums in the order (and with the names) of MomentBatchesState::sums.
  template <class Self>
  static auto sums(Self& b) {
    using Node =
        std::conditional_t<std::is_const_v<Self>, const matrix<std::int64_t>, matrix<std::int64_t>>;
    using Energy = std::conditional_t<std::is_const_v<Self>, const vector<double>, vector<double>>;
    using Count =
        std::conditional_t<std::is_const_v<Self>, const vector<std::int64_t>, vector<std::int64_t>>;
    return std::make_tuple(
        BatchSums<Node>{"node_sums", b.node_sums, true},
        BatchSums<Node>{"edge_sums", b.edge_sums, true},
        BatchSums<Energy>{"energy_sums", b.energy_sums, false},
        BatchSums<Count>{"abs_magnetization_sums", b.abs_magnetization_sums, true},
        BatchSums<Count>{"counts", b.counts, false});
  }
};

template <class ExecutionSpace>
MomentBuffers<ExecutionSpace> make_moment_buffers(
    const ExecutionSpace& space, const DeviceModel<typename ExecutionSpace::memory_space>& model,
    const ObserverOptions& options) {
  using buffers = MomentBuffers<ExecutionSpace>;
  buffers b;
  if (!options.moments) return b;
  b.max_batches = 2 * options.moment_batches;
  const auto n_edges = options.edge_moments ? model.edge_i.extent(0) : 0;
  // Potts: one column per (node, state), counting the rounds in that state.
  const std::int64_t per_node = model.n_states > 0 ? model.n_states : 1;
  auto alloc = [&space](const char* label) {
    return Kokkos::view_alloc(space, std::string(label));
  };
  b.node_sums = typename buffers::template matrix<std::int64_t>(
      alloc("hamon::node_sums"), b.max_batches, model.n_nodes * per_node);
  if (model.n_states > 0) {
    b.state_counts = typename buffers::template vector<std::int64_t>(alloc("hamon::state_counts"),
                                                                     model.n_states);
  }
  b.edge_sums = typename buffers::template matrix<std::int64_t>(alloc("hamon::edge_sums"),
                                                                b.max_batches, n_edges);
  b.energy_sums =
      typename buffers::template vector<double>(alloc("hamon::energy_sums"), b.max_batches);
  b.abs_magnetization_sums = typename buffers::template vector<std::int64_t>(
      alloc("hamon::abs_magnetization_sums"), b.max_batches);
  b.counts =
      typename buffers::template vector<std::int64_t>(alloc("hamon::moment_counts"), b.max_batches);
  return b;
}

/// accumulate_moments for a Potts model: state counts per node, edge agreements, and
/// max_s n_s for the order parameter.
template <class ExecutionSpace>
void accumulate_potts_moments(const ExecutionSpace& space,
                              const DeviceModel<typename ExecutionSpace::memory_space>& model,
                              const ChainState<ExecutionSpace>& state,
                              const MomentBuffers<ExecutionSpace>& b, std::int64_t batch) {
  const std::int32_t top = static_cast<std::int32_t>(state.betas.extent(0)) - 1;
  const auto machine_of_chain = state.machine_of_chain;
  const auto spins = state.spins;
  const auto node_sums = b.node_sums;
  const auto edge_sums = b.edge_sums;
  const auto edge_i = model.edge_i;
  const auto edge_j = model.edge_j;
  const auto state_counts = b.state_counts;
  const std::int32_t first = state.first_machine;
  const std::int32_t n_local = state.n_local_machines();
  const std::int32_t q = model.n_states;
  small_for(
      space, "hamon::clear_state_counts", q,
      KOKKOS_LAMBDA(const std::int64_t s) { state_counts(s) = 0; });
  launch(
      space, "hamon::observe_potts_nodes", model.n_nodes, model.n_nodes,
      KOKKOS_LAMBDA(const std::int64_t i) {
        const std::int32_t m = local_row(machine_of_chain(top), first, n_local);
        if (m < 0) return;
        const std::int32_t x = potts_state(spins(m, i));
        node_sums(batch, i * q + x) += 1;
        Kokkos::atomic_add(&state_counts(x), std::int64_t(1));
      });
  const auto n_edges = static_cast<std::int64_t>(edge_sums.extent(1));
  launch(
      space, "hamon::observe_potts_edges", n_edges, n_edges, KOKKOS_LAMBDA(const std::int64_t e) {
        const std::int32_t m = local_row(machine_of_chain(top), first, n_local);
        if (m >= 0 && spins(m, edge_i(e)) == spins(m, edge_j(e))) edge_sums(batch, e) += 1;
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
        energy_sums(batch) += fixed_point_energy(energy_fixed(machine_of_chain(top)), bits);
        largest(batch) += most;
        counts(batch) += 1;
      });
}

/// Adds the cold chain's moments of this round to batch `batch`.
template <class ExecutionSpace>
void accumulate_moments(const ExecutionSpace& space,
                        const DeviceModel<typename ExecutionSpace::memory_space>& model,
                        const ChainState<ExecutionSpace>& state,
                        const MomentBuffers<ExecutionSpace>& b, std::int64_t batch) {
  if (model.n_states > 0) {
    accumulate_potts_moments(space, model, state, b, batch);
    return;
  }
  const std::int32_t top = static_cast<std::int32_t>(state.betas.extent(0)) - 1;
  const auto machine_of_chain = state.machine_of_chain;
  const auto spins = state.spins;
  const auto node_sums = b.node_sums;
  const auto edge_sums = b.edge_sums;
  const auto edge_i = model.edge_i;
  const auto edge_j = model.edge_j;
  const std::int32_t first = state.first_machine;
  const std::int32_t n_local = state.n_local_machines();
  launch(
      space, "hamon::observe_node_moments", model.n_nodes, model.n_nodes,
      KOKKOS_LAMBDA(const std::int64_t i) {
        const std::int32_t m = local_row(machine_of_chain(top), first, n_local);
        if (m >= 0) node_sums(batch, i) += spins(m, i);
      });
  const auto n_edges = static_cast<std::int64_t>(edge_sums.extent(1));
  launch(
      space, "hamon::observe_edge_moments", n_edges, n_edges, KOKKOS_LAMBDA(const std::int64_t e) {
        const std::int32_t m = local_row(machine_of_chain(top), first, n_local);
        if (m >= 0) edge_sums(batch, e) += spins(m, edge_i(e)) * spins(m, edge_j(e));
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
      const std::int32_t cold = machine_of_chain(top);
      const std::int32_t m = local_row(cold, first, n_local);
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
        const std::int32_t cold = machine_of_chain(top);
        const std::int32_t m = local_row(cold, first, n_local);
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

/// Rows 2k and 2k+1 of `sums` become row k (k < half), the rows from `half` on are zeroed:
/// column by column, each column's batches merged in place, in batch order.
template <class ExecutionSpace, class Matrix>
void merge_batch_rows(const ExecutionSpace& space, const char* label, const Matrix& sums,
                      std::int64_t half) {
  const auto n_columns = static_cast<std::int64_t>(sums.extent(1));
  launch(
      space, label, n_columns, n_columns * half, KOKKOS_LAMBDA(const std::int64_t i) {
        for (std::int64_t k = 0; k < half; ++k) sums(k, i) = sums(2 * k, i) + sums(2 * k + 1, i);
        for (std::int64_t k = half; k < 2 * half; ++k) sums(k, i) = 0;
      });
}

/// All 2K batches are full: batch k becomes batches 2k + 2k+1 (k < K), the rest is zeroed.
template <class ExecutionSpace>
void merge_moment_batches(const ExecutionSpace& space, const MomentBuffers<ExecutionSpace>& b) {
  const std::int64_t half = b.max_batches / 2;
  merge_batch_rows(space, "hamon::merge_node_batches", b.node_sums, half);
  merge_batch_rows(space, "hamon::merge_edge_batches", b.edge_sums, half);
  const auto energy_sums = b.energy_sums;
  const auto abs_m = b.abs_magnetization_sums;
  const auto counts = b.counts;
  small_for(
      space, "hamon::merge_scalar_batches", 1, KOKKOS_LAMBDA(const std::int64_t) {
        for (std::int64_t k = 0; k < half; ++k) {
          energy_sums(k) = energy_sums(2 * k) + energy_sums(2 * k + 1);
          abs_m(k) = abs_m(2 * k) + abs_m(2 * k + 1);
          counts(k) = counts(2 * k) + counts(2 * k + 1);
        }
        for (std::int64_t k = half; k < 2 * half; ++k) {
          energy_sums(k) = 0.0;
          abs_m(k) = 0;
          counts(k) = 0;
        }
      });
}

/// Adds this round's cold chain to the open batch, closing and merging batches as they
/// fill (the layout is the host's bookkeeping; kernels get the batch as an argument).
template <class ExecutionSpace>
void accumulate_moment_round(const ExecutionSpace& space,
                             const DeviceModel<typename ExecutionSpace::memory_space>& model,
                             const ChainState<ExecutionSpace>& state,
                             MomentBuffers<ExecutionSpace>& b) {
  MomentBatchesState& at = b.layout;
  accumulate_moments(space, model, state, b, at.n_batches);
  if (++at.in_batch == at.length) {
    at.in_batch = 0;
    if (++at.n_batches == b.max_batches) {
      merge_moment_batches(space, b);
      at.n_batches = b.max_batches / 2;
      at.length *= 2;
    }
  }
}

/// Mean over every measured round; error from the complete batches only (a partial batch
/// would weigh a few rounds like a whole batch).
inline MeanWithError mean_of_batches(const std::vector<double>& sums,
                                     const std::vector<std::int64_t>& counts,
                                     std::size_t complete) {
  MeanWithError all = batch_means(sums, counts);
  const std::vector<double> full_sums(sums.begin(), sums.begin() + complete);
  const std::vector<std::int64_t> full_counts(counts.begin(), counts.begin() + complete);
  all.standard_error = batch_means(full_sums, full_counts).standard_error;
  return all;
}

/// The moments so far: means and batch-means errors (over ranks: collective, complete on
/// rank 0).
template <class ExecutionSpace>
Moments moments_of(const ExecutionSpace& space, const MomentBuffers<ExecutionSpace>& b,
                   const DeviceModel<typename ExecutionSpace::memory_space>& model,
                   const RankLink& link) {
  Moments out;
  const MomentBatchesState& at = b.layout;
  const std::size_t rows = static_cast<std::size_t>(at.n_batches) + (at.in_batch > 0 ? 1 : 0);
  if (rows == 0) return out;
  const auto counts_all = to_host_vector<std::int64_t>(space, b.counts);
  const std::vector<std::int64_t> counts(counts_all.begin(), counts_all.begin() + rows);
  const auto complete = static_cast<std::size_t>(at.n_batches);
  for (auto c : counts) out.n_samples += c;
  const std::size_t n_nodes = b.node_sums.extent(1);
  const std::size_t n_edges = b.edge_sums.extent(1);
  const auto node_sums = link.summed_over_ranks(to_host_vector<std::int64_t>(space, b.node_sums));
  const auto edge_sums = link.summed_over_ranks(to_host_vector<std::int64_t>(space, b.edge_sums));
  auto column_stats = [&](const std::vector<std::int64_t>& sums, std::size_t width,
                          std::size_t col) {
    std::vector<double> s(rows);
    for (std::size_t k = 0; k < rows; ++k) s[k] = static_cast<double>(sums[k * width + col]);
    return mean_of_batches(s, counts, complete);
  };
  for (std::size_t i = 0; i < n_nodes; ++i) {
    const MeanWithError m = column_stats(node_sums, n_nodes, i);
    out.node_means.push_back(m.mean);
    out.node_means_stderr.push_back(m.standard_error);
  }
  for (std::size_t e = 0; e < n_edges; ++e) {
    const MeanWithError m = column_stats(edge_sums, n_edges, e);
    out.edge_means.push_back(m.mean);
    out.edge_means_stderr.push_back(m.standard_error);
  }
  const double per_node = 1.0 / static_cast<double>(model.n_nodes);
  std::vector<double> energy = to_host_vector<double>(space, b.energy_sums);
  energy.resize(rows);
  for (auto& v : energy) v *= per_node;
  std::vector<double> magnetization;
  const auto abs_m =
      link.summed_over_ranks(to_host_vector<std::int64_t>(space, b.abs_magnetization_sums));
  const double q = model.n_states;
  for (std::size_t k = 0; k < rows; ++k) {
    const double mean_abs = static_cast<double>(abs_m[k]) * per_node;
    // Potts: sum over the batch's rounds of (q max_s n_s / N - 1) / (q - 1).
    magnetization.push_back(q > 0 ? (q * mean_abs - static_cast<double>(counts[k])) / (q - 1.0)
                                  : mean_abs);
  }
  out.energy_per_node = mean_of_batches(energy, counts, complete);
  out.abs_magnetization_per_node = mean_of_batches(magnetization, counts, complete);
  return out;
}

/// The batches [0, n_batches] (the open one included) as a MomentBatchesState; the shared
/// sums are summed to rank 0 (over ranks: collective).
template <class ExecutionSpace>
MomentBatchesState snapshot_moments(const ExecutionSpace& space,
                                    const MomentBuffers<ExecutionSpace>& b, const RankLink& link) {
  MomentBatchesState m = b.layout;
  const std::size_t rows = static_cast<std::size_t>(m.n_batches) + 1;
  for_each_field_pair(MomentBuffers<ExecutionSpace>::sums(b), MomentBatchesState::sums(m),
                      [&](const auto& sums, const auto& saved) {
                        using T = typename std::decay_t<decltype(saved.value)>::value_type;
                        auto all = to_host_vector<T>(space, sums.view);
                        const std::size_t width =
                            sums.view.extent(0) == 0 ? 0 : all.size() / sums.view.extent(0);
                        all.resize(std::min(all.size(), rows * width));
                        if constexpr (std::is_integral_v<T>) {  // shares are integer sums
                          if (sums.shared_over_ranks) all = link.summed_over_ranks(std::move(all));
                        }
                        saved.value = std::move(all);
                      });
  return m;
}

/// The inverse of snapshot_moments on every rank (the shared sums on rank 0, zeros on the
/// others). Throws std::invalid_argument (restore_checks.hpp) for batches that do not fit.
template <class ExecutionSpace>
void restore_moments(const ExecutionSpace& space, MomentBuffers<ExecutionSpace>& b,
                     const MomentBatchesState& m, const RankLink& link) {
  if (m.length < 1 || m.n_batches < 0 || m.n_batches >= b.max_batches || m.in_batch < 0 ||
      m.in_batch >= m.length) {
    state_misfit("the moment batches are inconsistent");
  }
  const auto rows = static_cast<std::size_t>(m.n_batches) + 1;
  for_each_field_pair(MomentBuffers<ExecutionSpace>::sums(b), MomentBatchesState::sums(m),
                      [&](const auto& sums, const auto& saved) {
                        const auto values =
                            sums.shared_over_ranks ? link.own_share(saved.value) : saved.value;
                        restore_batch_rows(space, sums.view, values, rows, sums.name);
                      });
  b.layout.length = m.length;
  b.layout.n_batches = m.n_batches;
  b.layout.in_batch = m.in_batch;
}

}  // namespace hamon::detail
