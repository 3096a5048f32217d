// SPDX-License-Identifier: Apache-2.0
// Houdayer's cluster moves (families/spin/detail/houdayer.hpp, NrptOptions::cluster_moves).
//   - Exactly: on a model of 5 free spins with fields, mixed-sign couplings and a clamp,
//     the transition matrix of one move over all 2^10 replica pairs, built from the
//     cluster flip the kernel runs, satisfies detailed balance with pi(a) pi(b), so the
//     two-replica Gibbs distribution is stationary, and conserves E_a + E_b and the overlap.
//   - The kernel in the execution space keeps every rung's E_a + E_b (to the fixed point's
//     rounding of each node's term) and the overlaps, and flips something.
//   - A sampler run with the moves matches exact enumeration (5 standard errors, as
//     tstExactEnumeration.hpp argues), gives the same bits on every space and thread count,
//     and resumes from a checkpoint with the same bits.
#include <gtest/gtest.h>

#include <Kokkos_Core.hpp>
#include <cmath>
#include <map>
#include <vector>

#include "exact_enumeration.hpp"
#include "hamon/core/families/energy.hpp"
#include "hamon/core/families/model_families.hpp"
#include "hamon/core/families/spin/detail/houdayer.hpp"
#include "hamon/core/model/model_builders.hpp"
#include "hamon/core/sampler/checkpoint.hpp"
#include "hamon/core/sampler/detail/chain_state_shell.hpp"
#include "hamon/core/sampler/sampler.hpp"
#include "hamon/core/util/host_copies.hpp"
#include "resumed_run.hpp"
#include "same_results.hpp"
#include "statistics_checks.hpp"

namespace {

using hamon_test::expect_same_results;
using hamon_test::ReferenceSpace;

/// Five free spins and one clamped, fields, couplings of both signs and a zero coupling
/// (no edge for the cluster), loops so clusters have several shapes.
hamon::SpinModel small_glass() {
  const std::vector<hamon::Edge> edges = {{0, 1, 0.8}, {1, 2, -0.6}, {2, 3, 1.1},  {3, 4, -0.9},
                                          {4, 0, 0.5}, {1, 3, 0.7},  {2, 5, -1.3}, {0, 5, 0.4}};
  return hamon::SpinModel::from_edges(6, edges, {0.3, -0.2, 0.5, 0.0, -0.4, 0.7}, {{5, -1}});
}

double energy_of(const hamon::SpinModel& m, const std::int8_t* s) {
  double e = 0.0;
  for (std::int64_t j = 0; j < m.n_nodes(); ++j)
    e -= m.fields()[static_cast<std::size_t>(j)] * s[j];
  for (const hamon::Edge& edge : m.edges()) e -= edge.coupling * s[edge.i] * s[edge.j];
  return e;
}

TEST(TEST_CATEGORY, houdayer_exact_detailed_balance_on_all_replica_pairs) {
  const auto model = small_glass();
  const std::int64_t n = model.n_nodes();
  std::vector<std::int64_t> free_nodes;
  for (std::int64_t j = 0; j < n; ++j) {
    if (model.clamped()[static_cast<std::size_t>(j)] == 0) free_nodes.push_back(j);
  }
  ASSERT_EQ(free_nodes.size(), 5u);
  const std::int64_t configs = std::int64_t(1) << free_nodes.size();
  const auto spins_of = [&](std::int64_t index, std::int8_t* s) {
    for (std::int64_t j = 0; j < n; ++j) s[j] = model.clamped()[static_cast<std::size_t>(j)];
    for (std::size_t k = 0; k < free_nodes.size(); ++k) {
      s[free_nodes[k]] = static_cast<std::int8_t>((index >> k) & 1 ? 1 : -1);
    }
  };
  const auto index_of = [&](const std::int8_t* s) {
    std::int64_t index = 0;
    for (std::size_t k = 0; k < free_nodes.size(); ++k) {
      if (s[free_nodes[k]] > 0) index |= std::int64_t(1) << k;
    }
    return index;
  };
  // The kernel's cluster flip, on host Views of the model's CRS (as the kernel passes it).
  using Unmanaged = Kokkos::MemoryTraits<Kokkos::Unmanaged>;
  const Kokkos::View<const std::int64_t*, Kokkos::HostSpace, Unmanaged> row_offsets(
      model.row_offsets().data(), model.row_offsets().size());
  const Kokkos::View<const std::int32_t*, Kokkos::HostSpace, Unmanaged> column(
      model.columns().data(), model.columns().size());
  const Kokkos::View<const double*, Kokkos::HostSpace, Unmanaged> coupling(
      model.couplings().data(), model.couplings().size());
  const Kokkos::View<std::int8_t**, Kokkos::LayoutLeft, Kokkos::HostSpace> spins("pair", 2, n);
  const Kokkos::View<std::int32_t*, Kokkos::HostSpace> list("list", n);

  const double beta = 0.9;
  std::vector<double> weight(static_cast<std::size_t>(configs));
  std::vector<double> energy(static_cast<std::size_t>(configs));
  std::vector<std::int8_t> s(static_cast<std::size_t>(n));
  for (std::int64_t c = 0; c < configs; ++c) {
    spins_of(c, s.data());
    energy[static_cast<std::size_t>(c)] = energy_of(model, s.data());
    weight[static_cast<std::size_t>(c)] = std::exp(-beta * energy[static_cast<std::size_t>(c)]);
  }
  // T[(a, b) -> (a', b')]: the start node uniform among the K nodes with q = -1.
  const auto pair_index = [&](std::int64_t a, std::int64_t b) { return a * configs + b; };
  std::map<std::pair<std::int64_t, std::int64_t>, double> T;
  std::int64_t moves = 0, large_clusters = 0;
  for (std::int64_t a = 0; a < configs; ++a) {
    for (std::int64_t b = 0; b < configs; ++b) {
      std::vector<std::int8_t> both(static_cast<std::size_t>(2 * n));
      spins_of(a, both.data());
      spins_of(b, both.data() + n);
      std::vector<std::int64_t> differing;
      for (std::int64_t j = 0; j < n; ++j) {
        if (both[static_cast<std::size_t>(j)] != both[static_cast<std::size_t>(n + j)])
          differing.push_back(j);
      }
      if (differing.empty()) {
        T[{pair_index(a, b), pair_index(a, b)}] += 1.0;
        continue;
      }
      for (std::int64_t start : differing) {
        for (std::int64_t j = 0; j < n; ++j) {
          spins(0, j) = both[static_cast<std::size_t>(j)];
          spins(1, j) = both[static_cast<std::size_t>(n + j)];
        }
        const std::int64_t size = hamon::detail::flip_houdayer_cluster(
            spins, 0, 1, start, row_offsets, column, coupling, list);
        std::vector<std::int8_t> after(both.size());
        for (std::int64_t j = 0; j < n; ++j) {
          after[static_cast<std::size_t>(j)] = spins(0, j);
          after[static_cast<std::size_t>(n + j)] = spins(1, j);
        }
        ++moves;
        if (size > 1) ++large_clusters;
        for (std::int64_t j = 0; j < n; ++j) {  // the overlap is kept
          EXPECT_EQ(after[static_cast<std::size_t>(j)] * after[static_cast<std::size_t>(n + j)],
                    both[static_cast<std::size_t>(j)] * both[static_cast<std::size_t>(n + j)]);
        }
        const std::int64_t a2 = index_of(after.data());
        const std::int64_t b2 = index_of(after.data() + n);
        EXPECT_NEAR(energy[static_cast<std::size_t>(a2)] + energy[static_cast<std::size_t>(b2)],
                    energy[static_cast<std::size_t>(a)] + energy[static_cast<std::size_t>(b)],
                    1e-12)
            << "pair " << a << ", " << b << " from node " << start;
        T[{pair_index(a, b), pair_index(a2, b2)}] += 1.0 / static_cast<double>(differing.size());
      }
    }
  }
  EXPECT_GT(large_clusters, 0);
  EXPECT_GT(moves, large_clusters);
  const auto pi = [&](std::int64_t x) {
    return weight[static_cast<std::size_t>(x / configs)] *
           weight[static_cast<std::size_t>(x % configs)];
  };
  // Detailed balance: pi(x) T(x -> y) = pi(y) T(y -> x), entry by entry.
  std::int64_t off_diagonal = 0;
  for (const auto& [xy, t] : T) {
    const auto back = T.find({xy.second, xy.first});
    ASSERT_NE(back, T.end()) << "a move without its reverse";
    EXPECT_NEAR(pi(xy.first) * t, pi(xy.second) * back->second, 1e-12 * pi(xy.first));
    if (xy.first != xy.second) ++off_diagonal;
  }
  EXPECT_GT(off_diagonal, 0);
  // Stationarity of pi x pi, and T's rows sum to 1.
  std::vector<double> pushed(static_cast<std::size_t>(configs * configs), 0.0);
  std::vector<double> row_sum(pushed.size(), 0.0);
  for (const auto& [xy, t] : T) {
    pushed[static_cast<std::size_t>(xy.second)] += pi(xy.first) * t;
    row_sum[static_cast<std::size_t>(xy.first)] += t;
  }
  for (std::int64_t x = 0; x < configs * configs; ++x) {
    EXPECT_NEAR(row_sum[static_cast<std::size_t>(x)], 1.0, 1e-12);
    EXPECT_NEAR(pushed[static_cast<std::size_t>(x)], pi(x), 1e-12 * pi(x)) << "pair state " << x;
  }
}

TEST(TEST_CATEGORY, houdayer_kernel_keeps_each_pairs_energy_and_overlap) {
  using Space = TEST_EXECSPACE;
  const Space space;
  const auto model = hamon::make_lattice({8, 8}, true, hamon::ValueDistribution::gaussian(31),
                                         hamon::ValueDistribution::gaussian(32, 0.3));
  const auto dm = hamon::make_device_model(space, model);
  const std::vector<double> betas = {0.2, 0.6, 1.0};
  const std::int32_t replicas = 4;
  auto state = hamon::detail::make_family_state(space, hamon::detail::family_of<Space>(dm), dm,
                                                betas, 5, hamon::MachineBlock{0, 12}, replicas);
  const auto lists = hamon::detail::make_cluster_scratch(space, 3, replicas, dm.n_nodes);
  std::int64_t changed = 0;
  for (std::uint32_t round = 0; round < 5; ++round) {
    hamon::compute_energies(space, dm, state);
    space.fence();
    const auto before_e = hamon::detail::to_host_vector<std::int64_t>(space, state.energy_fixed);
    const auto before = Kokkos::create_mirror(state.spins);  // a copy, even on the host
    Kokkos::deep_copy(before, state.spins);
    hamon::detail::houdayer_moves(space, dm, state, lists, 17, round);
    hamon::compute_energies(space, dm, state);
    space.fence();
    const auto after_e = hamon::detail::to_host_vector<std::int64_t>(space, state.energy_fixed);
    const auto after = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), state.spins);
    // Identity permutations: machine r * 3 + i is at chain i of replica r.
    for (std::int32_t pair = 0; pair < replicas / 2; ++pair) {
      for (std::int32_t i = 0; i < 3; ++i) {
        const std::int32_t a = 2 * pair * 3 + i, b = (2 * pair + 1) * 3 + i;
        // The sums agree as real numbers; each node's term is rounded to fixed point on its
        // own (energy.hpp), so the fixed-point sums may differ by a rounding per node.
        const auto sum = [&](const std::vector<std::int64_t>& e) {
          return hamon::fixed_point_energy(e[a], dm.energy_fraction_bits) +
                 hamon::fixed_point_energy(e[b], dm.energy_fraction_bits);
        };
        EXPECT_NEAR(sum(after_e), sum(before_e),
                    static_cast<double>(2 * dm.n_nodes) * std::ldexp(1.0, -dm.energy_fraction_bits))
            << "rung " << i;
        for (std::int64_t j = 0; j < dm.n_nodes; ++j) {
          ASSERT_EQ(after(a, j) * after(b, j), before(a, j) * before(b, j));
          changed += after(a, j) != before(a, j) ? 1 : 0;
        }
      }
    }
  }
  EXPECT_GT(changed, 0);
}

hamon::NrptOptions houdayer_run(double beta_max, std::int64_t rounds, std::uint64_t seed) {
  auto o = hamon_test::statistics_run(beta_max, rounds, seed);
  o.n_replicas = 2;
  o.cluster_moves = hamon::ClusterMoves::houdayer;
  return o;
}

TEST(TEST_CATEGORY, houdayer_run_matches_exact_enumeration) {
  // A frustrated 3 x 3 torus with fields, at beta 1.5 (clusters neither empty nor all).
  const auto model = hamon::make_lattice({3, 3}, true, hamon::ValueDistribution::gaussian(41),
                                         hamon::ValueDistribution::gaussian(42, 0.3));
  const double beta = 1.5;
  const std::int64_t rounds = 48000;
  const auto result = hamon::nrpt(TEST_EXECSPACE(), model, houdayer_run(beta, rounds, 43));
  const auto exact = hamon::test::exact_moments(model, beta);
  const auto& m = result.moments;
  ASSERT_EQ(m.n_samples, rounds);
  // 5 standard errors (tstExactEnumeration.hpp says why), and a floor of 1e-3 for the
  // strongest bonds, broken about once in 20,000 rounds: their batch means may never see a
  // broken bond, an error estimate of 0 with the estimate 1e-4 from the exact value.
  const double floor = 1e-3;
  for (std::int64_t i = 0; i < model.n_nodes(); ++i) {
    hamon_test::expect_within_error(m.node_means[i], m.node_means_stderr[i], exact.node_means[i],
                                    "<s_" + std::to_string(i) + ">", 5.0, 0.05, floor);
  }
  for (std::size_t e = 0; e < model.edges().size(); ++e) {
    hamon_test::expect_within_error(m.edge_means[e], m.edge_means_stderr[e], exact.edge_means[e],
                                    "<s_i s_j> of edge " + std::to_string(e), 5.0, 0.05, floor);
  }
  hamon_test::expect_within_error(m.energy_per_node.mean, m.energy_per_node.standard_error,
                                  exact.energy / static_cast<double>(model.n_nodes()), "E/N");
}

TEST(TEST_CATEGORY, houdayer_runs_are_deterministic_and_resume) {
  const auto model = hamon::make_lattice({6, 6}, true, hamon::ValueDistribution::pm_one(51),
                                         hamon::ValueDistribution::gaussian(52, 0.1));
  auto o = houdayer_run(1.5, 300, 53);
  o.burn_in = 40;
  o.observers.energies = true;
  o.observers.index_process = true;
  o.observers.samples_every = 7;
  const hamon::NrptResult reference = hamon::nrpt(ReferenceSpace(), model, o);
  expect_same_results(hamon::nrpt(TEST_EXECSPACE(), model, o), reference);
  // The moves change the run (it is not the run without them).
  auto without = o;
  without.cluster_moves = hamon::ClusterMoves::none;
  EXPECT_NE(hamon::nrpt(ReferenceSpace(), model, without).energies, reference.energies);
  // Saved and continued through the checkpoint format, across spaces.
  expect_same_results(
      hamon_test::resumed_through_checkpoint<TEST_EXECSPACE, ReferenceSpace>(model, o, 123),
      reference);
  // A checkpoint of this run is not one of the run without the moves.
  hamon::Sampler<TEST_EXECSPACE> s(TEST_EXECSPACE(), model, o);
  s.run(10);
  const hamon::Checkpoint c{s.identity(), s.state(), {}};
  EXPECT_THROW(hamon::Sampler<TEST_EXECSPACE>(TEST_EXECSPACE(), model, without, c),
               hamon::CheckpointError);
}

TEST(TEST_CATEGORY, houdayer_refuses_odd_replicas_and_potts) {
  const auto model = small_glass();
  auto o = houdayer_run(1.0, 10, 1);
  o.n_replicas = 3;
  EXPECT_THROW(hamon::Sampler<TEST_EXECSPACE>(TEST_EXECSPACE(), model, o), std::invalid_argument);
  o.n_replicas = 2;
  const auto potts =
      hamon::make_potts_lattice({3, 3}, true, 3, hamon::ValueDistribution::constant(1.0));
  EXPECT_THROW(hamon::Sampler<TEST_EXECSPACE>(TEST_EXECSPACE(), potts, o), std::invalid_argument);
}

}  // namespace
