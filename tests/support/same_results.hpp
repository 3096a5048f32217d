// SPDX-License-Identifier: Apache-2.0
#pragma once
// Every output of an NRPT run compared bit for bit (the sampler and MPI tests).
#include <gtest/gtest.h>

#include "hamon/core/sampler/nrpt.hpp"
#include "same_bits.hpp"

namespace hamon_test {

inline void expect_same_results(const hamon::NrptResult& a, const hamon::NrptResult& b) {
  expect_same_bits(a.betas, b.betas, "ladder");
  EXPECT_EQ(a.n_rounds, b.n_rounds);
  expect_same_bits(a.swaps.attempted, b.swaps.attempted, "attempted swaps");
  expect_same_bits(a.swaps.accepted, b.swaps.accepted, "accepted swaps");
  expect_same_bits(a.round_trips, b.round_trips, "round trips");
  expect_same_bits(a.restarts, b.restarts, "restarts");
  expect_same_bits(a.chain_of_machine, b.chain_of_machine, "permutation");
  expect_same_bits(a.final_energies, b.final_energies, "final energies");
  EXPECT_EQ(a.n_samples, b.n_samples);
  expect_same_bits(a.samples, b.samples, "samples");
  expect_same_bits(a.real_samples, b.real_samples, "real samples");
  expect_same_bits(a.energies, b.energies, "energy trace");
  expect_same_bits(a.index_process, b.index_process, "index process");
  EXPECT_EQ(a.moments.n_samples, b.moments.n_samples);
  expect_same_bits(a.moments.node_means, b.moments.node_means, "node means");
  expect_same_bits(a.moments.node_means_stderr, b.moments.node_means_stderr, "node stderr");
  expect_same_bits(a.moments.edge_means, b.moments.edge_means, "edge means");
  expect_same_bits(a.moments.node_variances, b.moments.node_variances, "node variances");
  expect_same_bits(a.moments.node_variances_stderr, b.moments.node_variances_stderr,
                   "node variance stderr");
  EXPECT_EQ(a.moments.energy_per_node.mean, b.moments.energy_per_node.mean);
  EXPECT_EQ(a.moments.energy_per_node.standard_error, b.moments.energy_per_node.standard_error);
  expect_same_bits(a.moments.edge_means_stderr, b.moments.edge_means_stderr, "edge stderr");
  EXPECT_EQ(a.moments.abs_magnetization_per_node.mean, b.moments.abs_magnetization_per_node.mean);
  EXPECT_EQ(a.moments.abs_magnetization_per_node.standard_error,
            b.moments.abs_magnetization_per_node.standard_error);
  expect_same_bits(a.machine_of_chain, b.machine_of_chain, "inverse permutation");
  EXPECT_EQ(a.spin_updates, b.spin_updates);
  // The best states: where each machine's lowest energy was, and the run's best configuration.
  expect_same_bits(a.best_energies, b.best_energies, "best energies");
  expect_same_bits(a.best_state, b.best_state, "best state");
  expect_same_bits(a.best_real_state, b.best_real_state, "best real state");
  EXPECT_EQ(a.best_energy, b.best_energy);
  EXPECT_EQ(a.best_round, b.best_round);
  EXPECT_EQ(a.best_chain, b.best_chain);
  EXPECT_EQ(a.best_beta, b.best_beta);
  EXPECT_EQ(a.round_trips_since_best, b.round_trips_since_best);
  // The replica overlaps: every statistic and the histograms.
  const hamon::OverlapStatistics& p = a.overlaps;
  const hamon::OverlapStatistics& q = b.overlaps;
  EXPECT_EQ(p.n_rounds, q.n_rounds);
  EXPECT_EQ(p.n_pairs, q.n_pairs);
  expect_same_bits(p.betas, q.betas, "overlap betas");
  expect_same_bits(p.q2, q.q2, "<q^2>");
  expect_same_bits(p.q2_stderr, q.q2_stderr, "<q^2> stderr");
  expect_same_bits(p.q4, q.q4, "<q^4>");
  expect_same_bits(p.q4_stderr, q.q4_stderr, "<q^4> stderr");
  expect_same_bits(p.abs_q, q.abs_q, "<|q|>");
  expect_same_bits(p.abs_q_stderr, q.abs_q_stderr, "<|q|> stderr");
  expect_same_bits(p.binder, q.binder, "Binder ratio");
  expect_same_bits(p.binder_stderr, q.binder_stderr, "Binder ratio stderr");
  expect_same_bits(p.chi_sg, q.chi_sg, "chi_SG");
  expect_same_bits(p.link_overlap, q.link_overlap, "link overlap");
  expect_same_bits(p.link_overlap_stderr, q.link_overlap_stderr, "link overlap stderr");
  expect_same_bits(p.chi_k, q.chi_k, "chi(k_min)");
  expect_same_bits(p.chi_k_stderr, q.chi_k_stderr, "chi(k_min) stderr");
  expect_same_bits(p.xi, q.xi, "xi_L");
  EXPECT_EQ(p.histogram_bins, q.histogram_bins);
  expect_same_bits(p.histograms, q.histograms, "overlap histograms");
  // The magnetisation per temperature: every statistic.
  const hamon::MagnetizationStatistics& u = a.magnetization;
  const hamon::MagnetizationStatistics& v = b.magnetization;
  EXPECT_EQ(u.n_rounds, v.n_rounds);
  EXPECT_EQ(u.replicas, v.replicas);
  expect_same_bits(u.betas, v.betas, "magnetisation betas");
  expect_same_bits(u.m, v.m, "<m>");
  expect_same_bits(u.m_stderr, v.m_stderr, "<m> stderr");
  expect_same_bits(u.abs_m, v.abs_m, "<|m|>");
  expect_same_bits(u.abs_m_stderr, v.abs_m_stderr, "<|m|> stderr");
  expect_same_bits(u.m2, v.m2, "<m^2>");
  expect_same_bits(u.m2_stderr, v.m2_stderr, "<m^2> stderr");
  expect_same_bits(u.m4, v.m4, "<m^4>");
  expect_same_bits(u.m4_stderr, v.m4_stderr, "<m^4> stderr");
  expect_same_bits(u.binder, v.binder, "Binder cumulant");
  expect_same_bits(u.binder_stderr, v.binder_stderr, "Binder cumulant stderr");
  expect_same_bits(u.chi, v.chi, "chi");
  expect_same_bits(u.chi_stderr, v.chi_stderr, "chi stderr");
  expect_same_bits(u.chi_m2, v.chi_m2, "chi_m2");
  expect_same_bits(u.chi_m2_stderr, v.chi_m2_stderr, "chi_m2 stderr");
}

}  // namespace hamon_test
