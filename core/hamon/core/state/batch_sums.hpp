// SPDX-License-Identifier: Apache-2.0
#pragma once
// The batched accumulators' sums, each named once over its storages: host vectors in the
// saved state (OnHost: MomentBatchesState, OverlapBatchesState) and Views in the sampler's
// buffers (ViewsIn: MomentBuffers, OverlapBuffers). The sampler's snapshot and restore walk
// the two lists in step, the buffers are allocated and counted by walking theirs.

#include <cstdint>
#include <tuple>

#include "hamon/core/util/field_list.hpp"

namespace hamon {

/// Where a batched accumulator stands (sampler/detail/moment_accumulator.hpp): batch b of
/// `length` measured rounds holds sums over its rounds; batches [0, n_batches) are complete
/// and the batch n_batches holds `in_batch` rounds so far.
struct BatchLayout {
  std::int64_t length = 1;
  std::int64_t n_batches = 0;
  std::int64_t in_batch = 0;

  template <class Self>
  static auto fields(Self& m) {
    return std::make_tuple(field("length", m.length), field("n_batches", m.n_batches),
                           field("in_batch", m.in_batch));
  }
};
static_assert(field_list_is_complete<BatchLayout>());

/// The cold chain's moment sums, a row per batch. Over ranks the node, edge and
/// |magnetisation| sums are each rank's share (a rank adds the rounds it holds the cold
/// machine in); the energies and counts are the same on every rank.
template <class Storage>
struct MomentSums {
  typename Storage::template matrix<std::int64_t> node_sums;  // rows x n_nodes (Potts: x q)
  typename Storage::template matrix<std::int64_t> edge_sums;  // rows x n_edges
  typename Storage::template vector<double> energy_sums;
  typename Storage::template vector<std::int64_t> abs_magnetization_sums;  // Potts: max_s n_s
  typename Storage::template vector<std::int64_t> counts;

  template <class Self>
  static auto fields(Self& m) {
    return std::make_tuple(
        field("node_sums", m.node_sums).with_codec(FieldCodec::packed).summed_over_ranks(),
        field("edge_sums", m.edge_sums).with_codec(FieldCodec::packed).summed_over_ranks(),
        field("energy_sums", m.energy_sums),
        field("abs_magnetization_sums", m.abs_magnetization_sums).summed_over_ranks(),
        field("counts", m.counts).labelled("hamon::moment_counts"));
  }
};

/// The replica overlaps' sums, a row per batch and a column per chain: over the round's
/// replica pairs, Q^2, Q^4, |Q|, the link overlap Q_l and |F(k_min)|^2 summed over
/// directions, and the measured rounds (one column).
template <class Storage>
struct OverlapSums {
  typename Storage::template matrix<double> q2_sums;
  typename Storage::template matrix<double> q4_sums;
  typename Storage::template matrix<std::int64_t> abs_q_sums;
  typename Storage::template matrix<std::int64_t> link_sums;
  typename Storage::template matrix<double> fourier_sums;
  typename Storage::template matrix<std::int64_t> counts;

  template <class Self>
  static auto fields(Self& m) {
    return std::make_tuple(field("q2_sums", m.q2_sums), field("q4_sums", m.q4_sums),
                           field("abs_q_sums", m.abs_q_sums), field("link_sums", m.link_sums),
                           field("fourier_sums", m.fourier_sums), field("counts", m.counts));
  }
};

/// The magnetisation's sums (sampler/detail/magnetization_accumulator.hpp), a row per batch
/// and a column per chain: over the round's replicas at that chain, M, |M|, M^2 and M^4 of
/// the unnormalised magnetisation M (spins: sum_i s_i; Potts: q max_s n_s - N), and the
/// measured rounds (one column). M and |M| are integers; the powers are doubles, added by
/// one thread per chain in replica order.
template <class Storage>
struct MagnetizationSums {
  typename Storage::template matrix<std::int64_t> m_sums;
  typename Storage::template matrix<std::int64_t> abs_m_sums;
  typename Storage::template matrix<double> m2_sums;
  typename Storage::template matrix<double> m4_sums;
  typename Storage::template matrix<std::int64_t> counts;

  template <class Self>
  static auto fields(Self& m) {
    return std::make_tuple(field("m_sums", m.m_sums), field("abs_m_sums", m.abs_m_sums),
                           field("m2_sums", m.m2_sums), field("m4_sums", m.m4_sums),
                           field("counts", m.counts));
  }
};

}  // namespace hamon
