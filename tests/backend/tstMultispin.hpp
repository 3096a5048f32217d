// SPDX-License-Identifier: Apache-2.0
// The multispin kernels (families/multispin/): every bit is its own instance's heat-bath
// chain, checked against exact enumeration; the same bits on this space as on Serial;
// replicas never share a draw; the bit-logic energies equal the instances' own energies;
// packing refuses what it cannot hold.
//
// Tolerance of the enumeration test: each system's mean energy over 40 batches of 100
// sweeps has a batch-means error (a 3 x 3 torus decorrelates in a few sweeps at beta 0.6,
// so batches of 100 are independent), and z = (mean - exact) / error per system. The
// systems of a word share their draws, so their errors share a common part: over seeds
// 7..16 the mean of the ~700 z's scattered with a standard deviation of about 0.35 (both
// signs), while each z stays a standard normal (variance 0.85..1.27). So: mean z within 1.2
// (3.5 of that scatter), variance of z within [0.7, 1.5], no |z| above 6. A sampler at the
// wrong temperature, with a wrong threshold or a wrong neighbour, moves every z the same
// way by many units.
#include <gtest/gtest.h>

#include <Kokkos_Core.hpp>
#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "hamon/core/families/detail/host_vectors.hpp"
#include "hamon/core/families/multispin/multispin_energy.hpp"
#include "hamon/core/families/multispin/multispin_ensemble.hpp"
#include "hamon/core/families/multispin/multispin_index_process.hpp"
#include "hamon/core/families/multispin/multispin_overlaps.hpp"
#include "hamon/core/families/multispin/multispin_swaps.hpp"
#include "hamon/core/families/multispin/multispin_sweep.hpp"
#include "hamon/core/model/model_builders.hpp"
#include "hamon/core/util/seeds.hpp"
#include "same_bits.hpp"

namespace {

using Space = TEST_EXECSPACE;

/// K instances of a 3 x 3 torus (three colours), +-1 couplings; every third instance diluted
/// (each edge absent with probability 1/4) when `dilute`.
std::vector<hamon::SpinModel> torus_instances(int count, bool dilute) {
  std::vector<hamon::SpinModel> out;
  for (int k = 0; k < count; ++k) {
    const hamon::SpinModel lattice =
        hamon::make_lattice({3, 3}, true, hamon::ValueDistribution::pm_one(100 + k));
    if (!dilute || k % 3 != 0) {
      out.push_back(lattice);
      continue;
    }
    std::vector<hamon::Edge> edges = lattice.edges();
    for (std::size_t e = 0; e < edges.size(); ++e) {
      if (hamon::splitmix64(7000 + 31 * k + e) % 4 == 0) edges[e].coupling = 0.0;
    }
    out.push_back(hamon::SpinModel::from_edges(9, edges));
  }
  return out;
}

/// n_slots words per node of random bits.
Kokkos::View<std::uint64_t*, Space::memory_space> random_state(std::int64_t n_slots,
                                                               std::int64_t n_nodes,
                                                               std::uint64_t seed) {
  Kokkos::View<std::uint64_t*, Space::memory_space> spins(
      "spins", n_slots * n_nodes * hamon::kMultispinLanes);
  auto host = Kokkos::create_mirror_view(spins);
  for (std::size_t w = 0; w < host.extent(0); ++w) host(w) = hamon::splitmix64(seed ^ (w + 1));
  Kokkos::deep_copy(spins, host);
  return spins;
}

template <class S>
Kokkos::View<const std::uint64_t*, typename S::memory_space> device_thresholds(
    const hamon::MultispinEnsemble& e, const std::vector<double>& betas) {
  const auto host = hamon::multispin_thresholds(e, betas);
  Kokkos::View<std::uint64_t*, typename S::memory_space> out("thresholds", host.size());
  Kokkos::deep_copy(out,
                    Kokkos::View<const std::uint64_t*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>(
                        host.data(), host.size()));
  return out;
}

/// The thresholds of every slot of `ladder` (slot s at rung (s / n_groups) % n_rungs) and
/// the rungs' betas, in Space's memory.
std::pair<Kokkos::View<const std::uint64_t*, Space::memory_space>,
          Kokkos::View<const double*, Space::memory_space>>
ladder_views(const hamon::MultispinEnsemble& e, const hamon::MultispinLadder& ladder,
             const std::vector<double>& betas) {
  std::vector<double> slot_betas;
  for (std::int64_t s = 0; s < ladder.n_slots(); ++s) {
    slot_betas.push_back(betas[static_cast<std::size_t>((s / e.n_groups) % ladder.n_rungs)]);
  }
  Kokkos::View<double*, Space::memory_space> rung_betas("betas", betas.size());
  Kokkos::deep_copy(rung_betas,
                    Kokkos::View<const double*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>(
                        betas.data(), betas.size()));
  return {device_thresholds<Space>(e, slot_betas), rung_betas};
}

/// The spins (+-1) of system `system` in slot `slot`.
std::vector<std::int8_t> unpack(const Kokkos::View<std::uint64_t*, Kokkos::HostSpace>& spins,
                                std::int64_t slot, std::int64_t n_nodes, std::int64_t system) {
  std::vector<std::int8_t> out(static_cast<std::size_t>(n_nodes));
  for (std::int64_t i = 0; i < n_nodes; ++i) {
    const std::uint64_t word = spins((slot * n_nodes + i) * hamon::kMultispinLanes + system / 64);
    out[static_cast<std::size_t>(i)] = ((word >> (system % 64)) & 1u) ? 1 : -1;
  }
  return out;
}

double exact_mean_energy(const hamon::SpinModel& model, double beta) {
  double z = 0.0, e_sum = 0.0;
  for (int bits = 0; bits < (1 << model.n_nodes()); ++bits) {
    std::vector<std::int8_t> s(static_cast<std::size_t>(model.n_nodes()));
    for (std::size_t i = 0; i < s.size(); ++i) s[i] = ((bits >> i) & 1) ? 1 : -1;
    const double e = model.energy(s), w = std::exp(-beta * e);
    z += w;
    e_sum += w * e;
  }
  return e_sum / z;
}

constexpr int kBatches = 40, kPerBatch = 100, kBurnIn = 200;

/// Per system, the batch means of one observable: add() once per measured round.
struct SystemBatches {
  std::int64_t n_systems;
  std::vector<double> sums;  // [system * kBatches + batch]

  explicit SystemBatches(std::int64_t systems)
      : n_systems(systems), sums(static_cast<std::size_t>(systems * kBatches), 0.0) {}

  template <class Value>
  void add(int batch, const Value& value) {
    for (std::int64_t s = 0; s < n_systems; ++s) {
      sums[static_cast<std::size_t>(s * kBatches + batch)] += value(s) / kPerBatch;
    }
  }

  /// Every system's z = (mean - exact) / batch-means error, checked as the file's comment says.
  void expect_calibrated(const std::vector<double>& exact, const std::string& what) const {
    double z_sum = 0.0, z_sq = 0.0, z_max = 0.0;
    for (std::int64_t s = 0; s < n_systems; ++s) {
      double mean = 0.0, sq = 0.0;
      for (int b = 0; b < kBatches; ++b) mean += sums[static_cast<std::size_t>(s * kBatches + b)];
      mean /= kBatches;
      for (int b = 0; b < kBatches; ++b) {
        const double d = sums[static_cast<std::size_t>(s * kBatches + b)] - mean;
        sq += d * d;
      }
      const double z =
          (mean - exact[static_cast<std::size_t>(s)]) / std::sqrt(sq / (kBatches - 1) / kBatches);
      z_sum += z;
      z_sq += z * z;
      z_max = std::max(z_max, std::fabs(z));
    }
    const double n = static_cast<double>(n_systems), z_mean = z_sum / n;
    const double z_var = z_sq / n - z_mean * z_mean;
    EXPECT_LT(std::fabs(z_mean), 1.2) << "mean z over " << n << " systems: " << what;
    EXPECT_GT(z_var, 0.7) << "variance of z: " << what;
    EXPECT_LT(z_var, 1.5) << "variance of z: " << what;
    EXPECT_LT(z_max, 6.0) << "largest |z|: " << what;
  }
};

/// Per system, its energy from the unsatisfied bonds of one rung's slots
/// [first_slot, first_slot + n_groups).
auto energy_of(const hamon::MultispinEnsemble& e,
               const Kokkos::View<std::int64_t*, Kokkos::HostSpace>& unsat,
               std::int64_t first_slot) {
  return [&e, unsat, first_slot](std::int64_t s) {
    const std::int64_t u = unsat(first_slot * hamon::kMultispinSystems + s);
    return e.coupling * (2.0 * static_cast<double>(u) -
                         static_cast<double>(e.present_edges[static_cast<std::size_t>(s)]));
  };
}

std::vector<double> exact_energies(const std::vector<hamon::SpinModel>& instances, double beta) {
  std::vector<double> out;
  for (const auto& model : instances) out.push_back(exact_mean_energy(model, beta));
  return out;
}

void check_against_enumeration(bool dilute) {
  const double beta = 0.6;
  const auto instances = torus_instances(700, dilute);
  const hamon::MultispinEnsemble e = hamon::pack_multispin(instances);
  ASSERT_EQ(e.n_groups, 2);
  ASSERT_EQ(e.diluted, dilute);
  const Space space;
  const auto m = hamon::make_multispin_device<Space>(e);
  const auto spins = random_state(e.n_groups, e.n_nodes, 5);
  const auto thresholds = device_thresholds<Space>(e, std::vector<double>(2, beta));
  Kokkos::View<std::int64_t*, Space::memory_space> unsat("unsat", 2 * hamon::kMultispinSystems);
  auto unsat_host = Kokkos::create_mirror_view(unsat);
  SystemBatches batches(e.n_systems);
  for (int sweep = 0; sweep < kBurnIn + kBatches * kPerBatch; ++sweep) {
    hamon::multispin_sweep(space, m, spins, thresholds, 11, static_cast<std::uint32_t>(sweep), 0);
    if (sweep < kBurnIn) continue;
    hamon::multispin_unsatisfied(space, m, spins, unsat);
    Kokkos::deep_copy(unsat_host, unsat);
    batches.add((sweep - kBurnIn) / kPerBatch, energy_of(e, unsat_host, 0));
  }
  batches.expect_calibrated(exact_energies(instances, beta), "energy");
}

}  // namespace

TEST(TEST_CATEGORY, multispin_every_bit_matches_enumeration) {
  check_against_enumeration(false);
}

TEST(TEST_CATEGORY, multispin_diluted_bits_match_enumeration) {
  check_against_enumeration(true);
}

TEST(TEST_CATEGORY, multispin_same_bits_as_serial) {
  // A 3D +-J lattice, 600 instances (two groups), four temperatures x two replicas.
  std::vector<hamon::SpinModel> instances;
  for (int k = 0; k < 600; ++k) {
    instances.push_back(hamon::make_lattice({4, 4, 4}, true, hamon::ValueDistribution::pm_one(k)));
  }
  const hamon::MultispinEnsemble e = hamon::pack_multispin(instances);
  const std::vector<double> betas{0.2, 0.2, 0.2, 0.2, 0.5, 0.5, 0.5, 0.5,
                                  0.8, 0.8, 0.8, 0.8, 1.1, 1.1, 1.1, 1.1};
  const std::int64_t n_slots = static_cast<std::int64_t>(betas.size());
  const auto run = [&](auto space, hamon::HostKernel kernel) {
    using S = decltype(space);
    const auto m = hamon::make_multispin_device<S>(e);
    Kokkos::View<std::uint64_t*, typename S::memory_space> spins(
        "spins", n_slots * e.n_nodes * hamon::kMultispinLanes);
    Kokkos::deep_copy(spins, random_state(n_slots, e.n_nodes, 3));
    const auto thresholds = device_thresholds<S>(e, betas);
    for (std::uint32_t round = 0; round < 20; ++round) {
      for (std::uint32_t sweep = 0; sweep < 2; ++sweep) {
        hamon::multispin_sweep(space, m, spins, thresholds, 9, round, sweep, kernel);
      }
    }
    Kokkos::View<std::int64_t*, typename S::memory_space> unsat("unsat",
                                                                n_slots * hamon::kMultispinSystems);
    hamon::multispin_unsatisfied(space, m, spins, unsat);
    return std::make_pair(Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), spins),
                          Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), unsat));
  };
  const auto [here_spins, here_unsat] = run(Space(), hamon::HostKernel::best);
  // Serial's portable work items (what every device runs), and on a host space its vector
  // path, on every instruction set this CPU runs: the same bits.
  std::vector<std::pair<std::string, std::int64_t>> kernels{{"portable", 0}};
#if HAMON_HOST_SIMD
  for (std::int64_t target : hamon::detail::host_vector_targets()) {
    kernels.push_back({hamon::detail::host_vector_target_name(target), target});
  }
#endif
  for (const auto& [name, target] : kernels) {
#if HAMON_HOST_SIMD
    hamon::detail::restrict_host_vector_target(target);
#endif
    const auto [serial_spins, serial_unsat] =
        run(hamon_test::ReferenceSpace(),
            target == 0 ? hamon::HostKernel::portable : hamon::HostKernel::best);
#if HAMON_HOST_SIMD
    hamon::detail::restrict_host_vector_target(0);
#endif
    std::int64_t differ = 0;
    for (std::size_t w = 0; w < here_spins.extent(0); ++w)
      differ += here_spins(w) != serial_spins(w);
    EXPECT_EQ(differ, 0) << "words differ from Serial's " << name << " kernel";
    for (std::size_t k = 0; k < here_unsat.extent(0); ++k) {
      ASSERT_EQ(here_unsat(k), serial_unsat(k))
          << "unsatisfied bonds of system " << k << ", " << name;
    }
  }
  // The bit-logic energies are the instances' own energies.
  for (std::int64_t slot : {0, 13}) {
    for (std::int64_t s : {0, 1, 511}) {
      const std::int64_t system = (slot % e.n_groups) * hamon::kMultispinSystems + s;
      const auto spins = unpack(here_spins, slot, e.n_nodes, s);
      const double energy =
          e.coupling * (2.0 * static_cast<double>(here_unsat(slot * hamon::kMultispinSystems + s)) -
                        static_cast<double>(e.present_edges[static_cast<std::size_t>(system)]));
      EXPECT_EQ(energy, hamon::multispin_energy(e, system, spins));
      EXPECT_EQ(
          energy,
          instances[static_cast<std::size_t>(std::min<std::int64_t>(system, 599))].energy(spins));
    }
  }
}

TEST(TEST_CATEGORY, multispin_replicas_never_share_a_draw) {
  // Two slots of the same group (two replicas at one temperature) from the same start: the
  // draws are per slot, so after one sweep the replicas differ in many systems.
  std::vector<hamon::SpinModel> instances;
  for (int k = 0; k < 512; ++k) {
    instances.push_back(hamon::make_lattice({4, 4, 4}, true, hamon::ValueDistribution::pm_one(k)));
  }
  const hamon::MultispinEnsemble e = hamon::pack_multispin(instances);
  const Space space;
  const auto m = hamon::make_multispin_device<Space>(e);
  const auto one = random_state(1, e.n_nodes, 4);
  Kokkos::View<std::uint64_t*, Space::memory_space> spins("spins", 2 * one.extent(0));
  Kokkos::deep_copy(Kokkos::subview(spins, std::make_pair(std::size_t{0}, one.extent(0))), one);
  Kokkos::deep_copy(Kokkos::subview(spins, std::make_pair(one.extent(0), 2 * one.extent(0))), one);
  hamon::multispin_sweep(space, m, spins, device_thresholds<Space>(e, {0.5, 0.5}), 1, 0, 0);
  const auto host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), spins);
  std::int64_t different = 0;
  for (std::size_t w = 0; w < one.extent(0); ++w) {
    different += __builtin_popcountll(host(w) ^ host(w + one.extent(0)));
  }
  // Independent draws at beta 0.5 disagree on a sizeable fraction of the 64 x 512 spins.
  EXPECT_GT(different, 64 * 512 / 10);
}

TEST(TEST_CATEGORY, multispin_packing_refuses_what_it_cannot_hold) {
  const auto lattice = hamon::make_lattice({4, 4}, true, hamon::ValueDistribution::pm_one(1));
  const auto refused = [](const std::vector<hamon::SpinModel>& instances, const std::string& want) {
    try {
      (void)hamon::pack_multispin(instances);
      ADD_FAILURE() << "packed; expected an error naming: " << want;
    } catch (const std::invalid_argument& error) {
      EXPECT_NE(std::string(error.what()).find(want), std::string::npos) << error.what();
    }
  };
  refused({}, "no instances");
  refused({lattice, hamon::make_lattice({4, 4}, true, hamon::ValueDistribution::constant(0.5))},
          "instance 1: coupling magnitude 0.5");
  refused({lattice, hamon::make_lattice({4, 4}, true, hamon::ValueDistribution::gaussian(3))},
          "instance 1: its couplings have more than one magnitude");
  refused({lattice, hamon::make_lattice({4, 4}, true, hamon::ValueDistribution::pm_one(2),
                                        hamon::ValueDistribution::constant(0.3))},
          "instance 1: it has fields");
  refused({lattice, hamon::make_lattice({5, 4}, true, hamon::ValueDistribution::pm_one(2))},
          "instance 1: its nodes or colouring differ");
}

TEST(TEST_CATEGORY, multispin_tempering_matches_enumeration_at_every_rung) {
  // Four rungs, one replica, per-system DEO swaps every round: every rung's per-system
  // energies against enumeration (the swaps must keep each rung's distribution exact), and
  // the swaps accepted at a plausible rate.
  const std::vector<double> betas{0.1, 0.4, 0.7, 1.0};
  const auto instances = torus_instances(700, true);
  const hamon::MultispinEnsemble e = hamon::pack_multispin(instances);
  const hamon::MultispinLadder ladder{static_cast<std::int64_t>(betas.size()), 1, e.n_groups};
  const Space space;
  const auto m = hamon::make_multispin_device<Space>(e);
  const auto spins = random_state(ladder.n_slots(), e.n_nodes, 8);
  const auto [thresholds, rung_betas] = ladder_views(e, ladder, betas);
  Kokkos::View<std::int64_t*, Space::memory_space> unsat(
      "unsat", ladder.n_slots() * hamon::kMultispinSystems);
  Kokkos::View<std::uint64_t*, Space::memory_space> masks(
      "masks", (ladder.n_rungs / 2) * ladder.n_replicas * ladder.n_groups * hamon::kMultispinLanes);
  auto unsat_host = Kokkos::create_mirror_view(unsat);
  std::vector<SystemBatches> batches(betas.size(), SystemBatches(e.n_systems));
  std::int64_t accepted = 0, attempted = 0;
  hamon::MultispinIndexProcess index(ladder);
  for (int round = 0; round < kBurnIn + kBatches * kPerBatch; ++round) {
    const auto r = static_cast<std::uint32_t>(round);
    hamon::multispin_sweep(space, m, spins, thresholds, 21, r, 0);
    hamon::multispin_unsatisfied(space, m, spins, unsat);
    const std::int64_t pairs = hamon::multispin_swap_pass(space, ladder, e.coupling, rung_betas,
                                                          spins, unsat, masks, 21, r);
    const auto mask_host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), masks);
    index.record(
        std::vector<std::uint64_t>(mask_host.data(), mask_host.data() + mask_host.extent(0)),
        round % 2, pairs);
    if (round < kBurnIn) continue;
    for (std::int64_t k = 0; k < pairs * ladder.n_groups * hamon::kMultispinLanes; ++k) {
      accepted += __builtin_popcountll(mask_host(k));
    }
    attempted += pairs * ladder.n_groups * hamon::kMultispinSystems;
    Kokkos::deep_copy(unsat_host, unsat);
    for (std::size_t k = 0; k < betas.size(); ++k) {
      batches[k].add((round - kBurnIn) / kPerBatch,
                     energy_of(e, unsat_host, ladder.slot(static_cast<std::int64_t>(k), 0, 0)));
    }
  }
  for (std::size_t k = 0; k < betas.size(); ++k) {
    batches[k].expect_calibrated(exact_energies(instances, betas[k]),
                                 "energy at beta " + std::to_string(betas[k]));
  }
  const double rate = static_cast<double>(accepted) / static_cast<double>(attempted);
  EXPECT_GT(rate, 0.3) << "swap acceptance";
  EXPECT_LT(rate, 0.95) << "swap acceptance";
  // Every instance's machines travel its own ladder: each made round trips, and the machines
  // at its rungs are a permutation of 0 .. 3.
  std::int64_t fewest = 1 << 30;
  for (std::int64_t s = 0; s < e.n_systems; ++s) {
    fewest = std::min(fewest, index.round_trips(0, s));
    std::vector<int> seen(4, 0);
    for (std::int64_t k = 0; k < 4; ++k)
      ++seen[static_cast<std::size_t>(index.machine_at(0, s, k))];
    EXPECT_EQ(seen, std::vector<int>(4, 1)) << "system " << s;
  }
  EXPECT_GT(fewest, 10) << "round trips of the slowest instance in 4200 rounds";
}

TEST(TEST_CATEGORY, multispin_round_trips_counted_per_system) {
  // Two rungs; systems 0..63 of lane 0 swap at every pass, the rest never: a swapping system's
  // machine 0 goes up at the first pass and comes back at the second (one round trip), and
  // each later pass completes one more (machines 1 and 0 in turn).
  const hamon::MultispinLadder ladder{2, 1, 1};
  hamon::MultispinIndexProcess index(ladder);
  std::vector<std::uint64_t> masks(hamon::kMultispinLanes, 0);
  masks[0] = ~std::uint64_t{0};
  for (int pass = 0; pass < 5; ++pass) index.record(masks, 0, 1);
  EXPECT_EQ(index.round_trips(0, 0), 4);
  EXPECT_EQ(index.round_trips(0, 63), 4);
  EXPECT_EQ(index.round_trips(0, 64), 0);
  EXPECT_EQ(index.machine_at(0, 0, 0), 1);  // five exchanges: machine 1 at the bottom
  EXPECT_EQ(index.machine_at(0, 64, 0), 0);
}

TEST(TEST_CATEGORY, multispin_overlaps_match_enumeration) {
  // Two rungs x two replicas with swaps: per system and rung, <q^2> and the link overlap
  // <Q> against enumeration, <q^2> = sum_ij <s_i s_j>^2 / N^2 and <Q> = sum_(i,j) <s_i s_j>^2
  // / N_edges (independent replicas).
  const std::vector<double> betas{0.3, 0.7};
  const auto instances = torus_instances(700, true);
  const hamon::MultispinEnsemble e = hamon::pack_multispin(instances);
  const hamon::MultispinLadder ladder{2, 2, e.n_groups};
  const Space space;
  const auto m = hamon::make_multispin_device<Space>(e);
  const auto spins = random_state(ladder.n_slots(), e.n_nodes, 12);
  const auto [thresholds, rung_betas] = ladder_views(e, ladder, betas);
  const std::int64_t per_rung = ladder.n_groups * hamon::kMultispinSystems;
  Kokkos::View<std::int64_t*, Space::memory_space> unsat("unsat", ladder.n_slots() * 512),
      disagree("disagree", ladder.n_rungs * per_rung), links("links", ladder.n_rungs * per_rung);
  Kokkos::View<std::uint64_t*, Space::memory_space> masks(
      "masks", ladder.n_replicas * ladder.n_groups * hamon::kMultispinLanes);
  const double n = static_cast<double>(e.n_nodes), n_edges = static_cast<double>(e.n_edges());
  std::vector<SystemBatches> q2(2, SystemBatches(e.n_systems)), link(2, SystemBatches(e.n_systems));
  for (int round = 0; round < kBurnIn + kBatches * kPerBatch; ++round) {
    const auto r = static_cast<std::uint32_t>(round);
    hamon::multispin_sweep(space, m, spins, thresholds, 31, r, 0);
    hamon::multispin_unsatisfied(space, m, spins, unsat);
    hamon::multispin_swap_pass(space, ladder, e.coupling, rung_betas, spins, unsat, masks, 31, r);
    if (round < kBurnIn) continue;
    hamon::multispin_overlap_counts(space, m, ladder, spins, disagree, links);
    const auto d = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), disagree);
    const auto l = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), links);
    const int batch = (round - kBurnIn) / kPerBatch;
    for (std::int64_t k = 0; k < 2; ++k) {
      q2[k].add(batch, [&](std::int64_t s) {
        const double q = 1.0 - 2.0 * static_cast<double>(d(k * per_rung + s)) / n;
        return q * q;
      });
      link[k].add(batch, [&](std::int64_t s) {
        return 1.0 - 2.0 * static_cast<double>(l(k * per_rung + s)) / n_edges;
      });
    }
  }
  for (std::size_t k = 0; k < betas.size(); ++k) {
    std::vector<double> exact_q2, exact_link;
    for (const auto& model : instances) {
      // <s_i s_j> by enumeration.
      const auto nodes = static_cast<std::size_t>(model.n_nodes());
      std::vector<double> c(nodes * nodes, 0.0);
      double z = 0.0;
      for (int bits = 0; bits < (1 << nodes); ++bits) {
        std::vector<std::int8_t> s(nodes);
        for (std::size_t i = 0; i < nodes; ++i) s[i] = ((bits >> i) & 1) ? 1 : -1;
        const double w = std::exp(-betas[k] * model.energy(s));
        z += w;
        for (std::size_t i = 0; i < nodes; ++i) {
          for (std::size_t j = 0; j < nodes; ++j) c[i * nodes + j] += w * s[i] * s[j];
        }
      }
      double sum = 0.0, on_links = 0.0;
      for (double x : c) sum += (x / z) * (x / z);
      for (std::int64_t edge = 0; edge < e.n_edges(); ++edge) {
        const double x =
            c[static_cast<std::size_t>(e.edge_first[static_cast<std::size_t>(edge)]) * nodes +
              static_cast<std::size_t>(e.edge_second[static_cast<std::size_t>(edge)])] /
            z;
        on_links += x * x;
      }
      exact_q2.push_back(sum / (n * n));
      exact_link.push_back(on_links / n_edges);
    }
    q2[k].expect_calibrated(exact_q2, "q^2 at beta " + std::to_string(betas[k]));
    link[k].expect_calibrated(exact_link, "link overlap at beta " + std::to_string(betas[k]));
  }
}

TEST(TEST_CATEGORY, multispin_fourier_overlap_matches_enumeration) {
  // One rung, two replicas, no dilution (a 3 x 3 torus, k_min = 2 pi / 3): per system,
  // <|F(k_min)|^2> averaged over the two directions against enumeration,
  // (1 / N^2) sum_ij <s_i s_j>^2 cos(k (x_i - x_j)).
  const double beta = 0.6;
  const auto instances = torus_instances(600, false);
  const hamon::MultispinEnsemble e = hamon::pack_multispin(instances);
  ASSERT_EQ(e.extents, (std::vector<int>{3, 3}));
  const hamon::MultispinLadder ladder{1, 2, e.n_groups};
  const Space space;
  const auto m = hamon::make_multispin_device<Space>(e);
  const auto spins = random_state(ladder.n_slots(), e.n_nodes, 14);
  const auto [thresholds, rung_betas] = ladder_views(e, ladder, {beta});
  const auto host_planes = hamon::multispin_plane_nodes(e);
  Kokkos::View<std::int32_t*, Space::memory_space> planes("planes", host_planes.size());
  Kokkos::deep_copy(planes,
                    Kokkos::View<const std::int32_t*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>(
                        host_planes.data(), host_planes.size()));
  const std::int64_t dims = 2, side = 3, per_block = dims * side * hamon::kMultispinSystems;
  Kokkos::View<std::int64_t*, Space::memory_space> counts("counts", e.n_groups * per_block);
  SystemBatches fourier(e.n_systems);
  for (int round = 0; round < kBurnIn + kBatches * kPerBatch; ++round) {
    hamon::multispin_sweep(space, m, spins, thresholds, 41, static_cast<std::uint32_t>(round), 0);
    if (round < kBurnIn) continue;
    hamon::multispin_plane_counts(space, m, ladder, spins, planes, dims, side, counts);
    const auto c = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), counts);
    fourier.add((round - kBurnIn) / kPerBatch, [&](std::int64_t s) {
      const std::int64_t group = s / hamon::kMultispinSystems, b = s % hamon::kMultispinSystems;
      return hamon::multispin_fourier_overlap(&c(group * per_block + b), hamon::kMultispinSystems,
                                              dims, side);
    });
  }
  const double k = 2.0 * M_PI / 3.0;
  std::vector<double> exact;
  for (const auto& model : instances) {
    std::vector<double> c(81, 0.0);
    double z = 0.0;
    for (int bits = 0; bits < 512; ++bits) {
      std::vector<std::int8_t> s(9);
      for (int i = 0; i < 9; ++i) s[static_cast<std::size_t>(i)] = ((bits >> i) & 1) ? 1 : -1;
      const double w = std::exp(-beta * model.energy(s));
      z += w;
      for (int i = 0; i < 9; ++i) {
        for (int j = 0; j < 9; ++j) c[static_cast<std::size_t>(i * 9 + j)] += w * s[i] * s[j];
      }
    }
    double sum = 0.0;
    for (int i = 0; i < 9; ++i) {
      for (int j = 0; j < 9; ++j) {
        const double cij = c[static_cast<std::size_t>(i * 9 + j)] / z;
        // node i = 3 y + x: direction 0 is y (i / 3), direction 1 is x (i % 3).
        sum += cij * cij * (std::cos(k * (i / 3 - j / 3)) + std::cos(k * (i % 3 - j % 3))) / 2.0;
      }
    }
    exact.push_back(sum / 81.0);
  }
  fourier.expect_calibrated(exact, "|F(k_min)|^2");
}
