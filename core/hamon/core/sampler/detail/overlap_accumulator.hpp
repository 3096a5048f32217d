// SPDX-License-Identifier: Apache-2.0
#pragma once
// The sampler's overlap accumulator: with R >= 2 replicas, per measured round and per chain
// (temperature), the overlaps of every replica pair a < b at that chain (R(R-1)/2 pairs):
// Q = sum_i (q d_i - 1) over the free nodes (d_i = 1 where the two machines agree; q = 2
// for spins, so Q = sum_i s_i^a s_i^b, and the Potts overlap for q states), the link
// overlap Q_l = sum over the model's edges of the same per-node values' products, and on
// lattices F_d = sum_i (q d_i - 1) e^{i k x_d} at k = 2 pi / L_d for each direction d.
// Batched like the moments (moment_accumulator.hpp): at most 2K batches whose length
// doubles, so the batches after m measured rounds depend on m alone.
//
// Same bits on every backend and thread count: the node and edge sums are integer
// reductions (exact in any order; the Fourier phases are fixed-point integers tabulated on
// the host), and one thread per chain adds the pairs' powers in pair order, then batches
// merge pairwise in a fixed order. The pairs' machines must live in one process (over
// ranks the accumulator is off, see docs/overlaps.md).

#include <Kokkos_Core.hpp>
#include <cmath>
#include <cstdint>
#include <string>
#include <tuple>
#include <type_traits>
#include <vector>

#include "hamon/core/model/device_model.hpp"
#include "hamon/core/sampler/detail/moment_accumulator.hpp"
#include "hamon/core/sampler/detail/restore_checks.hpp"
#include "hamon/core/state/batch_sums.hpp"
#include "hamon/core/state/chain_rows.hpp"
#include "hamon/core/state/chain_state.hpp"
#include "hamon/core/state/moment_buffers.hpp"
#include "hamon/core/state/sampler_state.hpp"
#include "hamon/core/stats/overlap_statistics.hpp"
#include "hamon/core/util/host_copies.hpp"
#include "hamon/core/util/launch.hpp"
#include "hamon/core/util/view_fields.hpp"

namespace hamon::detail {

/// Fractional bits of the tabulated cos and sin: |F| <= n_free 2^30 stays far from 2^63,
/// and its square is taken in double.
inline constexpr int kPhaseBits = 30;

/// One pair's sums over the nodes, in one pass: the agreeing free nodes and per lattice
/// direction the Fourier overlap's real and imaginary parts (fixed point). Integers, so the
/// team's reduction is exact in any order.
struct PairNodeSums {
  std::int64_t agreeing = 0;
  std::int64_t re[3] = {0, 0, 0};
  std::int64_t im[3] = {0, 0, 0};

  KOKKOS_INLINE_FUNCTION PairNodeSums& operator+=(const PairNodeSums& o) {
    agreeing += o.agreeing;
    for (int d = 0; d < 3; ++d) {
      re[d] += o.re[d];
      im[d] += o.im[d];
    }
    return *this;
  }
  // Kokkos 3.4 joins team reductions through volatile references. Plain assignments, not
  // compound ones: C++20 deprecates compound assignment to a volatile operand.
  KOKKOS_INLINE_FUNCTION void operator+=(const volatile PairNodeSums& o) volatile {
    agreeing = agreeing + o.agreeing;
    for (int d = 0; d < 3; ++d) {
      re[d] = re[d] + o.re[d];
      im[d] = im[d] + o.im[d];
    }
  }
};

}  // namespace hamon::detail

namespace Kokkos {
template <>
struct reduction_identity<hamon::detail::PairNodeSums> {
  KOKKOS_FORCEINLINE_FUNCTION static hamon::detail::PairNodeSums sum() { return {}; }
};
}  // namespace Kokkos

namespace hamon::detail {

template <class ExecutionSpace>
struct OverlapBuffers : OverlapSums<ViewsIn<typename ExecutionSpace::memory_space>> {
  using memory_space = typename ExecutionSpace::memory_space;
  using Sums = OverlapSums<ViewsIn<memory_space>>;  // (max_batches, n_chains); counts: 1 column
  using spliced_bases = std::tuple<Sums>;
  template <class T>
  using matrix = typename ViewsIn<memory_space>::template matrix<T>;

  std::int32_t max_batches = 0;     // 2K; 0 when overlaps are off
  BatchLayout layout;               // the rows the sums hold
  std::int32_t n_states = 2;        // q of the overlap's per-node value q d - 1
  std::int32_t replicas = 0;        // R: R(R-1)/2 pairs per chain and round
  std::int32_t dims = 0;            // lattice directions with a Fourier overlap (0: none)
  matrix<std::int64_t> histograms;  // (n_chains, n_free + 1): rounds x pairs with n agreeing
  matrix<std::int64_t> phase_cos;   // (dims, node): cos(2 pi x_d / L_d) in fixed point
  matrix<std::int64_t> phase_sin;

  bool on() const { return max_batches > 0; }

  /// Allocated as "hamon::overlap_" + the name.
  template <class Self>
  static auto fields(Self& b) {
    return std::tuple_cat(
        std::make_tuple(field("max_batches", b.max_batches), field("layout", b.layout),
                        field("n_states", b.n_states), field("replicas", b.replicas),
                        field("dims", b.dims)),
        Sums::fields(b),
        std::make_tuple(field("histograms", b.histograms), field("phase_cos", b.phase_cos),
                        field("phase_sin", b.phase_sin)));
  }
};
static_assert(field_list_is_complete<OverlapBuffers<Kokkos::DefaultHostExecutionSpace>>());

/// Whether a run accumulates overlaps: two replicas or more, in one process.
inline bool overlaps_apply(std::int32_t n_replicas, std::size_t n_rank_blocks) {
  return n_replicas >= 2 && n_rank_blocks <= 1;
}

/// The buffers of a run with `n_chains` chains (off unless `apply`: overlaps_apply),
/// planned (util/view_fields.hpp): what make_overlap_buffers allocates and the memory check
/// counts. The Fourier phases need a periodic lattice with equal extents (k_min the same
/// along every direction).
template <class ExecutionSpace>
OverlapBuffers<ExecutionSpace> planned_overlap_buffers(
    const DeviceModel<typename ExecutionSpace::memory_space>& model, const ObserverOptions& options,
    std::int32_t n_chains, std::int32_t n_replicas, bool apply) {
  using buffers = OverlapBuffers<ExecutionSpace>;
  buffers b;
  if (!apply) return b;
  b.max_batches = 2 * options.moment_batches;
  b.replicas = n_replicas;
  b.dims = fourier_directions(model);
  for_each_field(static_cast<typename buffers::Sums&>(b),
                 [&](const auto& sums) { plan(sums.value, b.max_batches, n_chains); });
  plan(b.counts, b.max_batches, 1);
  plan(b.histograms, n_chains, model.n_free + 1);
  plan(b.phase_cos, b.dims, model.n_nodes);
  plan(b.phase_sin, b.dims, model.n_nodes);
  return b;
}

/// The buffers of a run with `n_chains` chains (off unless `apply`), of a family with
/// `values_per_variable` values (q).
template <class ExecutionSpace>
OverlapBuffers<ExecutionSpace> make_overlap_buffers(
    const ExecutionSpace& space, const DeviceModel<typename ExecutionSpace::memory_space>& model,
    const ObserverOptions& options, std::int32_t n_chains, std::int32_t n_replicas,
    std::int32_t values_per_variable, bool apply) {
  auto b = planned_overlap_buffers<ExecutionSpace>(model, options, n_chains, n_replicas, apply);
  if (!apply) return b;
  b.n_states = values_per_variable;
  allocate_planned(space, b, "hamon::overlap_");
  const std::vector<int>& extents = model.periodic_extents;
  if (b.dims > 0) {
    // On the host, once: the same table on every backend.
    auto c = Kokkos::create_mirror_view(b.phase_cos);
    auto s = Kokkos::create_mirror_view(b.phase_sin);
    const double two_pi = 8.0 * std::atan(1.0);
    const double one = std::ldexp(1.0, kPhaseBits);
    for (std::int64_t i = 0; i < model.n_nodes; ++i) {
      std::int64_t rest = i;
      for (std::int32_t d = b.dims - 1; d >= 0; --d) {
        const std::int64_t extent = extents[static_cast<std::size_t>(d)];
        const std::int64_t x = rest % extent;
        rest /= extent;
        const double angle = two_pi * static_cast<double>(x) / static_cast<double>(extent);
        c(d, i) = std::llround(std::cos(angle) * one);
        s(d, i) = std::llround(std::sin(angle) * one);
      }
    }
    Kokkos::deep_copy(space, b.phase_cos, c);
    Kokkos::deep_copy(space, b.phase_sin, s);
    space.fence();
  }
  return b;
}

/// Adds this round's pairs at every chain to the open batch and the histograms.
template <class ExecutionSpace, class Value>
void accumulate_overlap_round(const ExecutionSpace& space,
                              const DeviceModel<typename ExecutionSpace::memory_space>& model,
                              const ChainState<ExecutionSpace, Value>& state,
                              std::int32_t n_replicas, OverlapBuffers<ExecutionSpace>& b) {
  BatchLayout& at = b.layout;
  const std::int64_t batch = at.n_batches;
  const auto n_chains = static_cast<std::int32_t>(state.betas.extent(0));
  const ChainRows<ExecutionSpace, Value> rows(state);
  const auto spins = state.spins;
  const auto clamped = model.clamped;
  const auto edge_i = model.edge_i;
  const auto edge_j = model.edge_j;
  const auto n_edges = static_cast<std::int64_t>(edge_i.extent(0));
  const std::int64_t n_nodes = model.n_nodes;
  const std::int64_t n_free = model.n_free;
  const std::int64_t q = b.n_states;
  const std::int32_t dims = b.dims;
  const auto q2 = b.q2_sums;
  const auto q4 = b.q4_sums;
  const auto abs_q = b.abs_q_sums;
  const auto link = b.link_sums;
  const auto fourier = b.fourier_sums;
  const auto histograms = b.histograms;
  const auto phase_cos = b.phase_cos;
  const auto phase_sin = b.phase_sin;
  const double phase_unit = std::ldexp(1.0, -2 * kPhaseBits);
  using team_policy = Kokkos::TeamPolicy<ExecutionSpace>;
  Kokkos::parallel_for(
      "hamon::overlaps", team_policy(space, n_chains, Kokkos::AUTO),
      KOKKOS_LAMBDA(const typename team_policy::member_type& team) {
        const std::int32_t chain = team.league_rank();
        for (std::int32_t ra = 0; ra < n_replicas; ++ra) {
          for (std::int32_t rb = ra + 1; rb < n_replicas; ++rb) {
            const std::int32_t ma = rows.row(ra * n_chains + chain);
            const std::int32_t mb = rows.row(rb * n_chains + chain);
            // q d - 1 at node i: +1 / -1 for spins, q - 1 / -1 for Potts states (d: the two
            // stored values agree, which is the same test for every discrete family).
            auto value = [&](std::int64_t i) -> std::int64_t {
              return spins(ma, i) == spins(mb, i) ? q - 1 : -1;
            };
            auto is_free = [&](std::int64_t i) { return clamped(i) == 0; };
            PairNodeSums nodes;
            Kokkos::parallel_reduce(
                Kokkos::TeamThreadRange(team, n_nodes),
                [&](const std::int64_t i, PairNodeSums& sum) {
                  if (!is_free(i)) return;
                  const std::int64_t v = value(i);
                  if (v > 0) sum.agreeing += 1;
                  for (std::int32_t d = 0; d < dims; ++d) {
                    sum.re[d] += v * phase_cos(d, i);
                    sum.im[d] += v * phase_sin(d, i);
                  }
                },
                Kokkos::Sum<PairNodeSums>(nodes));
            const std::int64_t agreeing = nodes.agreeing;
            std::int64_t bonds = 0;
            Kokkos::parallel_reduce(
                Kokkos::TeamThreadRange(team, n_edges),
                [&](const std::int64_t e, std::int64_t& sum) {
                  sum += value(edge_i(e)) * value(edge_j(e));
                },
                bonds);
            double f2 = 0.0;
            for (std::int32_t d = 0; d < dims; ++d) {
              const auto r = static_cast<double>(nodes.re[d]);
              const auto m = static_cast<double>(nodes.im[d]);
              f2 += (r * r + m * m) * phase_unit;
            }
            Kokkos::single(Kokkos::PerTeam(team), [&]() {
              const std::int64_t overlap = q * agreeing - n_free;
              const auto o = static_cast<double>(overlap);
              q2(batch, chain) += o * o;
              q4(batch, chain) += (o * o) * (o * o);
              abs_q(batch, chain) += overlap < 0 ? -overlap : overlap;
              link(batch, chain) += bonds;
              fourier(batch, chain) += f2;
              histograms(chain, agreeing) += 1;
            });
            team.team_barrier();
          }
        }
      });
  const auto counts = b.counts;
  small_for(
      space, "hamon::overlap_counts", 1,
      KOKKOS_LAMBDA(const std::int64_t) { counts(batch, 0) += 1; });
  if (advance_batch(at, b.max_batches)) {
    const std::int64_t half = b.max_batches / 2;
    merge_batch_rows(space, "hamon::merge_overlap_q2", b.q2_sums, half);
    merge_batch_rows(space, "hamon::merge_overlap_q4", b.q4_sums, half);
    merge_batch_rows(space, "hamon::merge_overlap_abs_q", b.abs_q_sums, half);
    merge_batch_rows(space, "hamon::merge_overlap_link", b.link_sums, half);
    merge_batch_rows(space, "hamon::merge_overlap_fourier", b.fourier_sums, half);
    merge_batch_rows(space, "hamon::merge_overlap_counts", b.counts, half);
  }
}

/// The batches [0, n_batches] (the open one included) and the histograms.
template <class ExecutionSpace>
OverlapBatchesState snapshot_overlaps(const ExecutionSpace& space,
                                      const OverlapBuffers<ExecutionSpace>& b) {
  OverlapBatchesState m;
  static_cast<BatchLayout&>(m) = b.layout;
  const std::size_t rows = static_cast<std::size_t>(m.n_batches) + 1;
  using Buffers = OverlapBuffers<ExecutionSpace>;
  for_each_field_pair(fields_of<const typename Buffers::Sums>(b),
                      fields_of<OverlapBatchesState::Sums>(m),
                      [&](const auto& sums, const auto& saved) {
                        using T = typename std::decay_t<decltype(saved.value)>::value_type;
                        auto all = to_host_vector<T>(space, sums.value);
                        all.resize(rows * sums.value.extent(1));
                        saved.value = std::move(all);
                      });
  m.histograms = to_host_vector<std::int64_t>(space, b.histograms);
  return m;
}

/// The statistics so far (overlap_statistics.hpp).
template <class ExecutionSpace>
OverlapStatistics overlaps_of(const ExecutionSpace& space, const OverlapBuffers<ExecutionSpace>& b,
                              const DeviceModel<typename ExecutionSpace::memory_space>& model,
                              const std::vector<double>& betas) {
  OverlapShape shape;
  shape.n_chains = static_cast<std::int32_t>(betas.size());
  shape.n_free = model.n_free;
  shape.n_edges = static_cast<std::int64_t>(model.edge_i.extent(0));
  shape.n_states = b.n_states;
  const auto r = static_cast<std::int32_t>(b.replicas);
  shape.n_pairs = r * (r - 1) / 2;
  shape.lattice_dims = b.dims;
  shape.lattice_extent = b.dims > 0 ? model.periodic_extents[0] : 0;
  return overlap_statistics(snapshot_overlaps(space, b), shape, betas);
}

/// The inverse of snapshot_overlaps. Throws std::invalid_argument (restore_checks.hpp) for
/// batches that do not fit.
template <class ExecutionSpace>
void restore_overlaps(const ExecutionSpace& space, OverlapBuffers<ExecutionSpace>& b,
                      const OverlapBatchesState& m) {
  const std::size_t rows = checked_batch_rows(m, b.max_batches, "overlap");
  using Buffers = OverlapBuffers<ExecutionSpace>;
  for_each_field_pair(fields_of<typename Buffers::Sums>(b),
                      fields_of<const OverlapBatchesState::Sums>(m),
                      [&](const auto& sums, const auto& saved) {
                        restore_batch_rows(space, sums.value, saved.value, rows, sums.name);
                      });
  for (auto count : m.histograms) {
    if (count < 0) state_misfit("a negative overlap histogram count");
  }
  restore_batch_rows(space, b.histograms, m.histograms, b.histograms.extent(0),
                     "overlap histograms");
  b.layout = m;
}

}  // namespace hamon::detail
