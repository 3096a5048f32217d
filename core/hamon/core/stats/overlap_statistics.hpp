// SPDX-License-Identifier: Apache-2.0
#pragma once
// Replica-overlap statistics per temperature (docs/overlaps.md), from the sampler's overlap
// batches (OverlapBatchesState): with Q the unnormalised overlap of a replica pair,
// q = Q / (N_free (q_states - 1)) and q_l = Q_l / (N_edges (q_states - 1)^2),
//   <|q|>, <q^2>, <q^4>  means over rounds and pairs, errors by batch means
//   chi_SG = N_free <q^2>
//   g      = (3 - <q^4> / <q^2>^2) / 2, error by jackknife over the complete batches
//   xi_L   = sqrt(chi(0) / chi(k_min) - 1) / (2 sin(k_min / 2)), k_min = 2 pi / L, with
//            chi(k) = <|F(k)|^2> / N_free averaged over the lattice directions (the
//            second-moment length of Ballesteros et al. and Katzgraber, Koerner and Young);
//            empty off lattices, NaN where chi(0) <= chi(k_min).

#include <cstdint>
#include <vector>

#include "hamon/core/state/sampler_state.hpp"

namespace hamon {

/// What the statistics need of the model and run besides the batches.
struct OverlapShape {
  std::int32_t n_chains = 0;
  std::int64_t n_free = 0;
  std::int64_t n_edges = 0;
  std::int32_t n_states = 2;      // q_states (2 for spins)
  std::int32_t n_pairs = 1;       // replica pairs per chain and round: R(R-1)/2
  std::int32_t lattice_dims = 0;  // 0: no Fourier overlap (xi undefined)
  std::int64_t lattice_extent = 0;
};

struct OverlapStatistics {
  std::vector<double> betas;  // ladder order, chain 0 first
  std::int64_t n_rounds = 0;  // measured rounds accumulated
  std::int32_t n_pairs = 0;
  std::vector<double> q2, q2_stderr, q4, q4_stderr, abs_q, abs_q_stderr;
  std::vector<double> binder, binder_stderr, chi_sg, link_overlap, link_overlap_stderr;
  std::vector<double> chi_k, chi_k_stderr;  // chi(k_min); empty off lattices
  std::vector<double> xi;                   // empty off lattices
  std::int64_t histogram_bins = 0;          // n_free + 1: bin n = n agreeing free nodes
  std::vector<std::int64_t> histograms;     // n_chains x histogram_bins, counts
  bool empty() const { return q2.empty(); }
};

/// The second-moment correlation length xi_L of chi(0) and chi(k_min) on an L^d lattice
/// (k_min = 2 pi / L); NaN where chi(k_min) <= 0 or chi(0) <= chi(k_min).
double second_moment_xi(double chi_0, double chi_kmin, std::int64_t extent);

/// Throws std::invalid_argument when the batches do not have the shape's size.
OverlapStatistics overlap_statistics(const OverlapBatchesState& batches, const OverlapShape& shape,
                                     const std::vector<double>& betas);

}  // namespace hamon
