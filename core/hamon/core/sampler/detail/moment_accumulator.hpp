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
// views: both are MomentSums (batch_sums.hpp), one list over two storages.

#include <Kokkos_Core.hpp>
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include "hamon/core/families/model_family.hpp"
#include "hamon/core/model/device_model.hpp"
#include "hamon/core/model/device_model_tables.hpp"
#include "hamon/core/sampler/detail/rank_link.hpp"
#include "hamon/core/sampler/detail/restore_checks.hpp"
#include "hamon/core/sampler/nrpt.hpp"
#include "hamon/core/state/chain_state.hpp"
#include "hamon/core/state/moment_buffers.hpp"
#include "hamon/core/state/sampler_state.hpp"
#include "hamon/core/stats/statistics.hpp"
#include "hamon/core/util/fixed_point.hpp"
#include "hamon/core/util/host_copies.hpp"
#include "hamon/core/util/launch.hpp"

namespace hamon::detail {

/// Rows 2k and 2k+1 of `sums` become row k (k < half), the rows from `half` on are zeroed:
/// column by column, each column's batches merged in place, in batch order. `checked`:
/// fixed-point sums, added with add_fixed (a sum past int64 is marked, not wrapped).
/// a + b, or add_fixed(a, b) where `checked` (outside the kernel's lambda: nvcc refuses a
/// lambda whose captures are first used inside an if constexpr).
template <bool checked, class T>
KOKKOS_INLINE_FUNCTION T merged_batch_sum(T a, T b) {
  if constexpr (checked) {
    return add_fixed(a, b);
  } else {
    return a + b;
  }
}

template <bool checked = false, class ExecutionSpace, class Matrix>
void merge_batch_rows(const ExecutionSpace& space, const char* label, const Matrix& sums,
                      std::int64_t half) {
  const auto n_columns = static_cast<std::int64_t>(sums.extent(1));
  launch(
      space, label, n_columns, n_columns * half, KOKKOS_LAMBDA(const std::int64_t i) {
        for (std::int64_t k = 0; k < half; ++k) {
          sums(k, i) = merged_batch_sum<checked>(sums(2 * k, i), sums(2 * k + 1, i));
        }
        for (std::int64_t k = half; k < 2 * half; ++k) sums(k, i) = 0;
      });
}

/// All 2K batches are full: batch k becomes batches 2k + 2k+1 (k < K), the rest is zeroed.
template <class ExecutionSpace>
void merge_moment_batches(const ExecutionSpace& space, const MomentBuffers<ExecutionSpace>& b) {
  const std::int64_t half = b.max_batches / 2;
  merge_batch_rows<true>(space, "hamon::merge_node_batches", b.node_sums, half);
  merge_batch_rows<true>(space, "hamon::merge_edge_batches", b.edge_sums, half);
  const auto energy_sums = b.energy_sums;
  const auto abs_m = b.abs_magnetization_sums;
  const auto counts = b.counts;
  small_for(
      space, "hamon::merge_scalar_batches", 1, KOKKOS_LAMBDA(const std::int64_t) {
        for (std::int64_t k = 0; k < half; ++k) {
          energy_sums(k) = energy_sums(2 * k) + energy_sums(2 * k + 1);
          abs_m(k) = add_fixed(abs_m(2 * k), abs_m(2 * k + 1));
          counts(k) = counts(2 * k) + counts(2 * k + 1);
        }
        for (std::int64_t k = half; k < 2 * half; ++k) {
          energy_sums(k) = 0.0;
          abs_m(k) = 0;
          counts(k) = 0;
        }
      });
}

/// Counts a round into the open batch of `at` (a batch layout: length, n_batches,
/// in_batch), closing it after `length` rounds; true when that filled all `max_batches`:
/// then the caller merges neighbours (merge_batch_rows) and the layout already says half as
/// many batches of twice the length.
template <class Layout>
bool advance_batch(Layout& at, std::int32_t max_batches) {
  if (++at.in_batch < at.length) return false;
  at.in_batch = 0;
  if (++at.n_batches < max_batches) return false;
  at.n_batches = max_batches / 2;
  at.length *= 2;
  return true;
}

/// The saved rows (complete batches and the open one) of a batch layout `m` checked against
/// `max_batches`; throws std::invalid_argument (restore_checks.hpp) naming `what`.
template <class Layout>
std::size_t checked_batch_rows(const Layout& m, std::int32_t max_batches, const char* what) {
  if (m.length < 1 || m.n_batches < 0 || m.n_batches >= max_batches || m.in_batch < 0 ||
      m.in_batch >= m.length) {
    state_misfit(std::string("the ") + what + " batches are inconsistent");
  }
  return static_cast<std::size_t>(m.n_batches) + 1;
}

/// Adds this round's cold chain (the family's observer) to the open batch, closing and
/// merging batches as they fill (the layout is the host's bookkeeping; kernels get the batch
/// as an argument).
template <class ExecutionSpace, class Value>
void accumulate_moment_round(const ExecutionSpace& space,
                             const DeviceModel<typename ExecutionSpace::memory_space>& model,
                             const ModelFamily<ExecutionSpace, Value>& family,
                             const FamilyState<ExecutionSpace, Value>& state,
                             MomentBuffers<ExecutionSpace>& b) {
  BatchLayout& at = b.layout;
  family.observe(space, model, state, b, at.n_batches);
  if (advance_batch(at, b.max_batches)) merge_moment_batches(space, b);
}

/// The moments so far: means and batch-means errors (over ranks: collective, complete on
/// rank 0).
template <class ExecutionSpace, class Value>
Moments moments_of(const ExecutionSpace& space, const MomentBuffers<ExecutionSpace>& b,
                   const DeviceModel<typename ExecutionSpace::memory_space>& model,
                   const ModelFamily<ExecutionSpace, Value>& family, const RankLink& link) {
  Moments out;
  const BatchLayout& at = b.layout;
  const std::size_t rows = static_cast<std::size_t>(at.n_batches) + (at.in_batch > 0 ? 1 : 0);
  if (rows == 0) return out;
  const auto counts_all = to_host_vector<std::int64_t>(space, b.counts);
  const std::vector<std::int64_t> counts(counts_all.begin(), counts_all.begin() + rows);
  const auto complete = static_cast<std::size_t>(at.n_batches);
  for (auto c : counts) out.n_samples += c;
  out.complete_batches = at.n_batches;
  // Each rank's sums checked for a fixed-point overflow before they are added, the verdict
  // added with them (one more word), so every rank throws or none does.
  auto checked_sum = [&](std::vector<std::int64_t> local) {
    local.push_back(fixed_sums_overflowed(local) ? 1 : 0);
    std::vector<std::int64_t> all = link.summed_over_ranks(std::move(local));
    if (all.back() != 0) {
      throw std::runtime_error(
          "the moment sums left the fixed-point range (each term below 2^38, each batch's sum "
          "below 2^63 in units of 2^-24; " +
          std::to_string(b.layout.length) +
          " rounds per batch): a value or an energy of the cold chain is too large to sum "
          "exactly (a diverging model, or enormous fields?), or the batches too long (the "
          "library's ObserverOptions::moment_batches makes them shorter)");
    }
    all.pop_back();
    return all;
  };
  auto summed = [&](const auto& view) {
    return ColumnBatchSums{checked_sum(to_host_vector<std::int64_t>(space, view)), view.extent(1),
                           counts, complete};
  };
  const ColumnBatchSums nodes = summed(b.node_sums);
  const ColumnBatchSums edges = summed(b.edge_sums);
  std::vector<double> energy = to_host_vector<double>(space, b.energy_sums);
  energy.resize(rows);
  // The family's node columns (and what its energy sums lack), then the edges in its unit.
  const double unit = family.node_moments(space, model, nodes, energy, out);
  edges.append_columns(0, edges.width, unit, out.edge_means, out.edge_means_stderr);
  const double per_node = 1.0 / static_cast<double>(model.n_nodes);
  for (auto& v : energy) v *= per_node;
  std::vector<double> magnetization;
  const auto abs_m = checked_sum(to_host_vector<std::int64_t>(space, b.abs_magnetization_sums));
  for (std::size_t k = 0; k < rows; ++k) {
    magnetization.push_back(
        family.order_parameter(model, static_cast<double>(abs_m[k]) * per_node, counts[k]));
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
  MomentBatchesState m;
  static_cast<BatchLayout&>(m) = b.layout;
  const std::size_t rows = static_cast<std::size_t>(m.n_batches) + 1;
  using Buffers = MomentBuffers<ExecutionSpace>;
  for_each_field_pair(
      fields_of<const typename Buffers::Sums>(b), fields_of<MomentBatchesState::Sums>(m),
      [&](const auto& sums, const auto& saved) {
        using T = typename std::decay_t<decltype(saved.value)>::value_type;
        auto all = to_host_vector<T>(space, sums.value);
        const std::size_t width = sums.value.extent(0) == 0 ? 0 : all.size() / sums.value.extent(0);
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
  const std::size_t rows = checked_batch_rows(m, b.max_batches, "moment");
  using Buffers = MomentBuffers<ExecutionSpace>;
  for_each_field_pair(
      fields_of<typename Buffers::Sums>(b), fields_of<const MomentBatchesState::Sums>(m),
      [&](const auto& sums, const auto& saved) {
        const auto values = sums.shared_over_ranks ? link.own_share(saved.value) : saved.value;
        restore_batch_rows(space, sums.value, values, rows, sums.name);
      });
  b.layout = m;
}

}  // namespace hamon::detail
