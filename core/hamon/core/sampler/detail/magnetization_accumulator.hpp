// SPDX-License-Identifier: Apache-2.0
#pragma once
// The sampler's magnetisation accumulator: per measured round and per chain (temperature),
// the unnormalised magnetisation M of every replica's machine at that chain (spins:
// M = sum_i s_i; Potts: M = q max_s n_s - N, the numerator of the order parameter the
// cold-chain moments report) and its powers M, |M|, M^2, M^4. Batched like the moments
// (moment_accumulator.hpp): at most 2K batches whose length doubles, so the batches after m
// measured rounds depend on m alone.
//
// Same bits on every backend and thread count: M is an integer reduction (exact in any
// order), and one thread per chain adds the replicas' powers in replica order, then batches
// merge pairwise in a fixed order. A chain's machine moves between ranks from round to round,
// and double sums added on different ranks would not give one process's bits, so over ranks
// the accumulator is off (as the overlaps, docs/overlaps.md).

#include <Kokkos_Core.hpp>
#include <cstdint>
#include <type_traits>
#include <vector>

#include "hamon/core/families/family_abilities.hpp"
#include "hamon/core/families/potts/potts_update.hpp"
#include "hamon/core/model/device_model.hpp"
#include "hamon/core/sampler/detail/moment_accumulator.hpp"
#include "hamon/core/sampler/detail/restore_checks.hpp"
#include "hamon/core/state/batch_sums.hpp"
#include "hamon/core/state/chain_rows.hpp"
#include "hamon/core/state/chain_state.hpp"
#include "hamon/core/state/observer_options.hpp"
#include "hamon/core/state/sampler_state.hpp"
#include "hamon/core/stats/magnetization_statistics.hpp"
#include "hamon/core/util/host_copies.hpp"
#include "hamon/core/util/launch.hpp"
#include "hamon/core/util/view_fields.hpp"

namespace hamon::detail {

template <class ExecutionSpace>
struct MagnetizationBuffers : MagnetizationSums<ViewsIn<typename ExecutionSpace::memory_space>> {
  using memory_space = typename ExecutionSpace::memory_space;
  using Sums = MagnetizationSums<ViewsIn<memory_space>>;  // (max_batches, n_chains); counts: 1
  using spliced_bases = std::tuple<Sums>;
  template <class T>
  using matrix = typename ViewsIn<memory_space>::template matrix<T>;

  std::int32_t max_batches = 0;  // 2K; 0 when off
  BatchLayout layout;            // the rows the sums hold
  MagnetizationKind kind = MagnetizationKind::none;
  std::int32_t replicas = 1;
  matrix<std::int64_t> state_counts;  // Potts: (n_chains, q), n_s of the machine at hand

  bool on() const { return max_batches > 0; }

  /// Allocated as "hamon::magnetization_" + the name.
  template <class Self>
  static auto fields(Self& b) {
    return std::tuple_cat(
        std::make_tuple(field("max_batches", b.max_batches), field("layout", b.layout),
                        field("kind", b.kind), field("replicas", b.replicas)),
        Sums::fields(b), std::make_tuple(field("state_counts", b.state_counts)));
  }
};
static_assert(field_list_is_complete<MagnetizationBuffers<Kokkos::DefaultHostExecutionSpace>>());

/// Whether a run accumulates the magnetisation per temperature: asked for, a family with a
/// magnetisation, in one process.
inline bool magnetization_applies(const ObserverOptions& options, MagnetizationKind kind,
                                  std::size_t n_rank_blocks) {
  return options.magnetization && kind != MagnetizationKind::none && n_rank_blocks <= 1;
}

/// The buffers of a run with `n_chains` chains (off unless `apply`: magnetization_applies),
/// planned (util/view_fields.hpp): what make_magnetization_buffers allocates and the memory
/// check counts. `n_states`: q of a Potts model (its scratch counts), else unused.
template <class ExecutionSpace>
MagnetizationBuffers<ExecutionSpace> planned_magnetization_buffers(
    const ObserverOptions& options, MagnetizationKind kind, std::int32_t n_chains,
    std::int32_t n_replicas, std::int32_t n_states, bool apply) {
  using buffers = MagnetizationBuffers<ExecutionSpace>;
  buffers b;
  if (!apply) return b;
  b.max_batches = 2 * options.moment_batches;
  b.kind = kind;
  b.replicas = n_replicas;
  for_each_field(static_cast<typename buffers::Sums&>(b),
                 [&](const auto& sums) { plan(sums.value, b.max_batches, n_chains); });
  plan(b.counts, b.max_batches, 1);
  if (kind == MagnetizationKind::potts_max) plan(b.state_counts, n_chains, n_states);
  return b;
}

template <class ExecutionSpace>
MagnetizationBuffers<ExecutionSpace> make_magnetization_buffers(
    const ExecutionSpace& space, const ObserverOptions& options, MagnetizationKind kind,
    std::int32_t n_chains, std::int32_t n_replicas, std::int32_t n_states, bool apply) {
  auto b = planned_magnetization_buffers<ExecutionSpace>(options, kind, n_chains, n_replicas,
                                                         n_states, apply);
  if (apply) allocate_planned(space, b, "hamon::magnetization_");
  return b;
}

/// Adds a machine's M and its powers to row `batch`, column `chain` (one thread per chain, in
/// replica order: the double sums have one order on every backend).
template <class ExecutionSpace>
struct AddMagnetization {
  template <class T>
  using matrix = typename MagnetizationBuffers<ExecutionSpace>::template matrix<T>;
  matrix<std::int64_t> m1, abs_m;
  matrix<double> m2, m4;

  explicit AddMagnetization(const MagnetizationBuffers<ExecutionSpace>& b)
      : m1(b.m_sums), abs_m(b.abs_m_sums), m2(b.m2_sums), m4(b.m4_sums) {}

  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t batch, std::int32_t chain,
                                         std::int64_t magnetization) const {
    const auto x = static_cast<double>(magnetization);
    m1(batch, chain) += magnetization;
    abs_m(batch, chain) += magnetization < 0 ? -magnetization : magnetization;
    m2(batch, chain) += x * x;
    m4(batch, chain) += (x * x) * (x * x);
  }
};

/// The largest of a Potts machine's state counts, row `chain` of `state_counts`, as the
/// order parameter's numerator q max_s n_s - N.
template <class Counts>
KOKKOS_INLINE_FUNCTION std::int64_t potts_numerator(const Counts& state_counts, std::int32_t chain,
                                                    std::int32_t q, std::int64_t n_nodes) {
  std::int64_t most = 0;
  for (std::int32_t s = 0; s < q; ++s) {
    most = state_counts(chain, s) > most ? state_counts(chain, s) : most;
  }
  return q * most - n_nodes;
}

/// Adds this round's replicas at every chain to the open batch. Host spaces: a thread per
/// chain walks its machines' nodes (no team scratch); devices: a team per chain reduces
/// them. Integer M either way, so the same bits.
/// (Instantiated for every family's values; it runs only where magnetization_applies, i.e.
/// for one-byte spins and Potts states, which the casts below read.)
template <class ExecutionSpace, class Value>
void accumulate_magnetization_round(const ExecutionSpace& space,
                                    const DeviceModel<typename ExecutionSpace::memory_space>& model,
                                    const ChainState<ExecutionSpace, Value>& state,
                                    MagnetizationBuffers<ExecutionSpace>& b) {
  BatchLayout& at = b.layout;
  const std::int64_t batch = at.n_batches;
  const auto n_chains = static_cast<std::int32_t>(state.betas.extent(0));
  const ChainRows<ExecutionSpace, Value> rows(state);
  const auto spins = state.spins;
  const std::int64_t n_nodes = model.n_nodes;
  const std::int32_t q = model.n_states;
  const std::int32_t replicas = b.replicas;
  const bool potts = b.kind == MagnetizationKind::potts_max;
  const AddMagnetization<ExecutionSpace> add(b);
  const auto state_counts = b.state_counts;
  if constexpr (host_style<ExecutionSpace>) {
    launch(
        space, "hamon::magnetization", n_chains, n_chains * replicas * n_nodes,
        KOKKOS_LAMBDA(const std::int64_t c) {
          const auto chain = static_cast<std::int32_t>(c);
          for (std::int32_t r = 0; r < replicas; ++r) {
            const std::int32_t m = rows.row(r * n_chains + chain);
            if (m < 0) continue;
            std::int64_t magnetization = 0;
            if (potts) {
              for (std::int32_t s = 0; s < q; ++s) state_counts(chain, s) = 0;
              for (std::int64_t i = 0; i < n_nodes; ++i) {
                state_counts(chain, potts_state(static_cast<std::int8_t>(spins(m, i)))) += 1;
              }
              magnetization = potts_numerator(state_counts, chain, q, n_nodes);
            } else {
              for (std::int64_t i = 0; i < n_nodes; ++i) {
                magnetization += static_cast<std::int64_t>(spins(m, i));
              }
            }
            add(batch, chain, magnetization);
          }
        });
  } else {
    using team_policy = Kokkos::TeamPolicy<ExecutionSpace>;
    Kokkos::parallel_for(
        "hamon::magnetization", team_policy(space, n_chains, Kokkos::AUTO),
        KOKKOS_LAMBDA(const typename team_policy::member_type& team) {
          const std::int32_t chain = team.league_rank();
          for (std::int32_t r = 0; r < replicas; ++r) {
            const std::int32_t m = rows.row(r * n_chains + chain);
            std::int64_t sum = 0;
            if (potts) {
              Kokkos::parallel_for(Kokkos::TeamThreadRange(team, m >= 0 ? q : 0),
                                   [&](const std::int32_t s) { state_counts(chain, s) = 0; });
              team.team_barrier();
              Kokkos::parallel_for(
                  Kokkos::TeamThreadRange(team, m >= 0 ? n_nodes : 0), [&](const std::int64_t i) {
                    const auto byte = static_cast<std::int8_t>(spins(m, i));
                    Kokkos::atomic_add(&state_counts(chain, potts_state(byte)), std::int64_t(1));
                  });
              team.team_barrier();
            } else {
              Kokkos::parallel_reduce(
                  Kokkos::TeamThreadRange(team, m >= 0 ? n_nodes : 0),
                  [&](const std::int64_t i, std::int64_t& s) {
                    s += static_cast<std::int64_t>(spins(m, i));
                  },
                  sum);
            }
            Kokkos::single(Kokkos::PerTeam(team), [&]() {
              if (m >= 0)
                add(batch, chain, potts ? potts_numerator(state_counts, chain, q, n_nodes) : sum);
            });
            team.team_barrier();
          }
        });
  }
  const auto counts = b.counts;
  small_for(
      space, "hamon::magnetization_counts", 1,
      KOKKOS_LAMBDA(const std::int64_t) { counts(batch, 0) += 1; });
  if (advance_batch(at, b.max_batches)) {
    const std::int64_t half = b.max_batches / 2;
    merge_batch_rows(space, "hamon::merge_magnetization_m", b.m_sums, half);
    merge_batch_rows(space, "hamon::merge_magnetization_abs_m", b.abs_m_sums, half);
    merge_batch_rows(space, "hamon::merge_magnetization_m2", b.m2_sums, half);
    merge_batch_rows(space, "hamon::merge_magnetization_m4", b.m4_sums, half);
    merge_batch_rows(space, "hamon::merge_magnetization_counts", b.counts, half);
  }
}

/// The batches [0, n_batches] (the open one included).
template <class ExecutionSpace>
MagnetizationBatchesState snapshot_magnetization(const ExecutionSpace& space,
                                                 const MagnetizationBuffers<ExecutionSpace>& b) {
  MagnetizationBatchesState m;
  static_cast<BatchLayout&>(m) = b.layout;
  const std::size_t rows = static_cast<std::size_t>(m.n_batches) + 1;
  using Buffers = MagnetizationBuffers<ExecutionSpace>;
  for_each_field_pair(fields_of<const typename Buffers::Sums>(b),
                      fields_of<MagnetizationBatchesState::Sums>(m),
                      [&](const auto& sums, const auto& saved) {
                        using T = typename std::decay_t<decltype(saved.value)>::value_type;
                        auto all = to_host_vector<T>(space, sums.value);
                        all.resize(rows * sums.value.extent(1));
                        saved.value = std::move(all);
                      });
  return m;
}

/// The statistics so far (magnetization_statistics.hpp).
template <class ExecutionSpace>
MagnetizationStatistics magnetization_of(
    const ExecutionSpace& space, const MagnetizationBuffers<ExecutionSpace>& b,
    const DeviceModel<typename ExecutionSpace::memory_space>& model,
    const std::vector<double>& betas) {
  MagnetizationShape shape;
  shape.n_chains = static_cast<std::int32_t>(betas.size());
  shape.n_nodes = model.n_nodes;
  shape.n_states = b.kind == MagnetizationKind::potts_max ? model.n_states : 2;
  shape.replicas = b.replicas;
  return magnetization_statistics(snapshot_magnetization(space, b), shape, betas);
}

/// The inverse of snapshot_magnetization. Throws std::invalid_argument (restore_checks.hpp)
/// for batches that do not fit.
template <class ExecutionSpace>
void restore_magnetization(const ExecutionSpace& space, MagnetizationBuffers<ExecutionSpace>& b,
                           const MagnetizationBatchesState& m) {
  const std::size_t rows = checked_batch_rows(m, b.max_batches, "magnetisation");
  using Buffers = MagnetizationBuffers<ExecutionSpace>;
  for_each_field_pair(fields_of<typename Buffers::Sums>(b),
                      fields_of<const MagnetizationBatchesState::Sums>(m),
                      [&](const auto& sums, const auto& saved) {
                        restore_batch_rows(space, sums.value, saved.value, rows, sums.name);
                      });
  b.layout = m;
}

}  // namespace hamon::detail
