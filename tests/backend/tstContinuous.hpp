// SPDX-License-Identifier: Apache-2.0
// Continuous models through the whole sampler, against exact answers computed here
// (support/continuous_oracles.hpp): Gaussian graphs and lattices against their closed forms,
// double wells against quadrature and a transfer operator; the same bits as Serial and
// across a stop and resume.
//
// Tolerances (continuous_checks.hpp): each estimate's error is its batch-means standard
// error (32 batches), and a test asks |z| below 4.5 for each of up to ~60 estimates at once:
// a calibrated error exceeds that with probability about 60 x 7e-6 (a t distribution with 31
// degrees of freedom is a little wider: about 60 x 1e-4 per run). The calibration test
// shows the errors are honest: the mean of z^2 over many seeds lies near 1.
#include <gtest/gtest.h>

#include <Kokkos_Core.hpp>
#include <cmath>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "continuous_checks.hpp"
#include "continuous_oracles.hpp"
#include "hamon/core/analysis/log_partition.hpp"
#include "hamon/core/families/detail/host_vectors.hpp"
#include "hamon/core/families/real/real_family.hpp"
#include "hamon/core/model/device_model.hpp"
#include "hamon/core/model/model_builders.hpp"
#include "hamon/core/sampler/detail/chain_state_shell.hpp"
#include "hamon/core/sampler/nrpt.hpp"
#include "hamon/core/sampler/sampler.hpp"
#include "hamon/core/util/host_kernel.hpp"
#include "same_bits.hpp"
#include "state_fields.hpp"

namespace {

using Space = TEST_EXECSPACE;

/// A random sparse graph of n nodes (each joined to 3 later nodes on average), couplings
/// uniform in +-0.35, fields in +-1, d_i = 1 + sum |J| (Gershgorin) or, with `dominant`
/// false, 0.6 + 0.4 sum |J| (positive definite only by the Cholesky check, which the model
/// asks for).
hamon::SpinModel random_gaussian(int n, std::uint64_t seed, bool dominant) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> unit(-1.0, 1.0);
  std::vector<hamon::Edge> edges;
  std::vector<double> radius(static_cast<std::size_t>(n), 0.0), fields;
  for (int i = 0; i < n; ++i) {
    fields.push_back(unit(rng));
    for (int j = i + 1; j < n; ++j) {
      if (std::uniform_int_distribution<int>(0, n - 1)(rng) < 3) {
        const double coupling = 0.35 * unit(rng);
        edges.push_back({i, j, coupling});
        radius[static_cast<std::size_t>(i)] += std::abs(coupling);
        radius[static_cast<std::size_t>(j)] += std::abs(coupling);
      }
    }
  }
  std::vector<double> diag;
  for (double r : radius) diag.push_back(dominant ? 1.0 + r : 0.6 + 0.4 * r);
  return hamon::SpinModel::gaussian(n, edges, diag, fields);
}

hamon::NrptOptions annealed_options(std::uint64_t seed, std::int64_t rounds) {
  hamon::NrptOptions o;
  o.n_chains = 5;
  o.beta_max = 1.0;
  o.n_rounds = rounds;
  o.burn_in = 200;
  o.seed = seed;
  o.observers.energies = true;
  o.observers.moments = true;
  return o;
}

using hamon_test::expect_gaussian_exact;
using hamon_test::z_of;

TEST(TEST_CATEGORY, continuous_gaussian_graph_matches_its_closed_forms) {
  const auto model = random_gaussian(48, 7, false);
  const auto r = hamon::nrpt(Space(), model, annealed_options(11, 6000));
  EXPECT_TRUE(r.annealed);
  expect_gaussian_exact(model, r, 1.0);
}

TEST(TEST_CATEGORY, continuous_gaussian_lattice_matches_its_closed_forms) {
  // A 6x6 periodic lattice, J = 0.3 on every bond, d = 1.5, fields alternating +-0.4.
  const auto shape = hamon::make_lattice({6, 6}, true, hamon::ValueDistribution::constant(0.3));
  std::vector<double> fields;
  for (int i = 0; i < 36; ++i) fields.push_back(i % 2 == 0 ? 0.4 : -0.4);
  const auto model =
      hamon::SpinModel::gaussian(36, shape.edges(), std::vector<double>(36, 1.5), fields);
  auto o = annealed_options(5, 6000);
  const auto r = hamon::nrpt(Space(), model, o);
  expect_gaussian_exact(model, r, 1.0);
}

TEST(TEST_CATEGORY, continuous_gaussian_at_another_temperature_without_annealing) {
  // The machines sample exp(-beta E) (reference none) on a ladder 0.5 .. 2: the cold chain
  // is N(P^-1 h, (2 P)^-1).
  const auto model = random_gaussian(12, 3, true);
  auto o = annealed_options(17, 6000);
  o.reference = hamon::AnnealingReference::none;
  o.beta_min = 0.5;
  o.beta_max = 2.0;
  const auto r = hamon::nrpt(Space(), model, o);
  EXPECT_FALSE(r.annealed);
  const auto exact = hamon_test::gaussian_exact(model, 2.0);
  for (std::size_t i = 0; i < exact.means.size(); ++i) {
    EXPECT_LT(
        std::abs(z_of(r.moments.node_means[i], exact.means[i], r.moments.node_means_stderr[i])),
        4.5);
    EXPECT_LT(std::abs(z_of(r.moments.node_variances[i], exact.variances[i],
                            r.moments.node_variances_stderr[i])),
              4.5);
  }
  // No exact start for log Z off beta = 0; with the reference's value it is the model's.
  EXPECT_FALSE(hamon::log_partition(model, r).has_value());
  // Reference none cannot start at 0.
  o.beta_min = 0.0;
  EXPECT_THROW(hamon::nrpt(Space(), model, o), std::invalid_argument);
}

TEST(TEST_CATEGORY, continuous_error_bars_are_calibrated_over_seeds) {
  // 24 seeds of a 6-node Gaussian: the z-scores of the 6 node means and the energy (168 in
  // all) have mean z^2 near 1 (a t with 31 degrees of freedom: 1.07; its sampling sd over
  // 168 values about 0.13): the interval [0.6, 1.6] fails only for errors off by ~25%.
  const auto model = random_gaussian(6, 21, true);
  const auto exact = hamon_test::gaussian_exact(model, 1.0);
  double sum_z2 = 0.0;
  int count = 0;
  for (std::uint64_t seed = 1; seed <= 24; ++seed) {
    const auto r = hamon::nrpt(Space(), model, annealed_options(seed, 1600));
    for (std::size_t i = 0; i < exact.means.size(); ++i) {
      const double z =
          z_of(r.moments.node_means[i], exact.means[i], r.moments.node_means_stderr[i]);
      sum_z2 += z * z;
      ++count;
    }
    const double ze = z_of(r.moments.energy_per_node.mean, exact.energy / 6.0,
                           r.moments.energy_per_node.standard_error);
    sum_z2 += ze * ze;
    ++count;
  }
  const double mean_z2 = sum_z2 / count;
  std::printf("  [calibration] mean z^2 over %d z-scores of 24 seeds: %.3f\n", count, mean_z2);
  EXPECT_GT(mean_z2, 0.6);
  EXPECT_LT(mean_z2, 1.6);
}

TEST(TEST_CATEGORY, continuous_double_well_site_matches_quadrature) {
  // One site, lambda = 1.2, h = 0.3, beta = 1: the slice sampler's moments against the
  // one-dimensional integrals (the ring oracle with one site and no coupling is that).
  const auto model = hamon::SpinModel::double_well(1, {}, {1.2}, {0.3});
  auto o = annealed_options(23, 20000);
  o.n_chains = 2;
  const auto r = hamon::nrpt(Space(), model, o);
  double z0 = 0.0, z1 = 0.0, z2 = 0.0;
  // Direct quadrature (fine trapezoid over [-4, 4]).
  for (int k = 0; k <= 80000; ++k) {
    const double x = -4.0 + 1e-4 * k;
    const double w = std::exp(-(1.2 * (x * x - 1.0) * (x * x - 1.0) - 0.3 * x));
    z0 += w, z1 += w * x, z2 += w * x * x;
  }
  const double mean = z1 / z0, second = z2 / z0;
  EXPECT_LT(std::abs(z_of(r.moments.node_means[0], mean, r.moments.node_means_stderr[0])), 4.5)
      << r.moments.node_means[0] << " vs " << mean;
  EXPECT_LT(std::abs(z_of(r.moments.node_variances[0], second - mean * mean,
                          r.moments.node_variances_stderr[0])),
            4.5)
      << r.moments.node_variances[0] << " vs " << second - mean * mean;
  // log Z of a lone site is its reference's, exactly (no coupling energy to integrate).
  const auto log_z = hamon::log_partition(model, r);
  ASSERT_TRUE(log_z.has_value());
  EXPECT_NEAR(log_z->stepping_stone.value, std::log(z0 * 1e-4), 1e-9);
}

TEST(TEST_CATEGORY, continuous_narrow_double_wells_start_log_z_from_an_honest_quadrature) {
  // lambda = 1e8 at beta = 1, two uncoupled sites: E - E_ref is 0, so log Z is the
  // reference's, 2 log(2 sqrt(pi / 4e8)) = -17.2760 (Laplace; its next term is ~1e-9),
  // which a grid of fixed size put at -19.2575 and called exact.
  const auto model = hamon::SpinModel::double_well(2, {}, {1e8, 1e8}, {0.0, 0.0});
  auto o = annealed_options(31, 400);
  o.n_chains = 2;
  const auto r = hamon::nrpt(Space(), model, o);
  const auto log_z = hamon::log_partition(model, r);
  ASSERT_TRUE(log_z.has_value());
  const double exact = 2.0 * std::log(2.0 * std::sqrt(std::acos(-1.0) / 4e8));
  EXPECT_NEAR(log_z->stepping_stone.value, exact, 1e-8);
  EXPECT_NEAR(log_z->thermodynamic_integration.value, exact, 1e-8);
  EXPECT_FALSE(log_z->log_z0_exact);
  EXPECT_GT(log_z->log_z0_error, 0.0);
  EXPECT_LT(log_z->log_z0_error, 1e-9);
  // The quadrature's error is part of each estimate's.
  EXPECT_EQ(log_z->stepping_stone.log_z0_error, log_z->log_z0_error);
  EXPECT_GE(log_z->stepping_stone.error(), log_z->log_z0_error);
  EXPECT_GE(log_z->thermodynamic_integration.error(), log_z->log_z0_error);
}

TEST(TEST_CATEGORY, continuous_double_well_ring_matches_its_transfer_operator) {
  // A ring of 6 sites, lambda = 1, h = 0.15, J = 0.4, beta = 1. The grid's error (801
  // points, step 0.00875) is below 1e-10 on every quantity, far below the statistical one.
  constexpr int kSites = 6;
  std::vector<hamon::Edge> edges;
  for (int i = 0; i < kSites; ++i) edges.push_back({i, (i + 1) % kSites, 0.4});
  const auto model = hamon::SpinModel::double_well(kSites, edges, std::vector<double>(kSites, 1.0),
                                                   std::vector<double>(kSites, 0.15));
  const auto exact = hamon_test::double_well_ring_exact(kSites, 1.0, 0.15, 0.4, 1.0);
  auto o = annealed_options(29, 12000);
  o.n_chains = 6;
  const auto r = hamon::nrpt(Space(), model, o);
  const hamon::Moments& m = r.moments;
  for (int i = 0; i < kSites; ++i) {
    const auto k = static_cast<std::size_t>(i);
    EXPECT_LT(std::abs(z_of(m.node_means[k], exact.mean, m.node_means_stderr[k])), 4.5)
        << "site " << i << ": " << m.node_means[k] << " vs " << exact.mean;
    const double variance = exact.second - exact.mean * exact.mean;
    EXPECT_LT(std::abs(z_of(m.node_variances[k], variance, m.node_variances_stderr[k])), 4.5)
        << "site " << i << ": " << m.node_variances[k] << " vs " << variance;
  }
  EXPECT_LT(std::abs(z_of(m.energy_per_node.mean, exact.energy, m.energy_per_node.standard_error)),
            4.5)
      << m.energy_per_node.mean << " vs " << exact.energy;
  const auto log_z = hamon::log_partition(model, r);
  ASSERT_TRUE(log_z.has_value());
  const double zz = z_of(log_z->stepping_stone.value, exact.log_z, log_z->stepping_stone.error());
  EXPECT_LT(std::abs(zz), 4.5) << log_z->stepping_stone.value << " vs " << exact.log_z;
  std::printf(
      "  [phi4 ring] mean %.4f (exact %.4f), energy/site %.4f +- %.4f (exact %.4f), "
      "log Z %.4f +- %.4f (exact %.4f)\n",
      m.node_means[0], exact.mean, m.energy_per_node.mean, m.energy_per_node.standard_error,
      exact.energy, log_z->stepping_stone.value, log_z->stepping_stone.error(), exact.log_z);
}

hamon::NrptOptions bits_options() {
  hamon::NrptOptions o;
  o.n_chains = 7;  // not a multiple of the 4 machines per initial draw
  o.n_rounds = 150;
  o.burn_in = 100;
  o.n_expl = 2;
  o.seed = 20261203;
  o.adapt_schedule = true;
  o.observers.samples_every = 3;
  o.observers.energies = true;
  o.observers.moments = true;
  return o;
}

/// Large enough (24 x 24 x 7 machines) that host kernels run in parallel (launch.hpp).
hamon::SpinModel bits_model(bool gaussian) {
  const auto shape = hamon::make_lattice({24, 24}, true, hamon::ValueDistribution::gaussian(4, 0.2),
                                         hamon::ValueDistribution::gaussian(5, 0.3));
  const std::vector<double> weights(576, gaussian ? 2.0 : 0.8);
  return gaussian ? hamon::SpinModel::gaussian(576, shape.edges(), weights, shape.fields())
                  : hamon::SpinModel::double_well(576, shape.edges(), weights, shape.fields());
}

TEST(TEST_CATEGORY, continuous_runs_match_serial_bit_for_bit) {
  for (const bool gaussian : {true, false}) {
    const auto model = bits_model(gaussian);
    const auto o = bits_options();
    const auto here = hamon::nrpt(Space(), model, o);
    const auto reference = hamon::nrpt(hamon_test::ReferenceSpace(), model, o);
    hamon_test::expect_same_bits(here.betas, reference.betas, "betas");
    hamon_test::expect_same_bits(here.swaps.accepted, reference.swaps.accepted, "swaps");
    hamon_test::expect_same_bits(here.real_samples, reference.real_samples, "samples");
    hamon_test::expect_same_bits(here.energies, reference.energies, "energies");
    hamon_test::expect_same_bits(here.best_real_state, reference.best_real_state, "best state");
    hamon_test::expect_same_bits(here.moments.node_means, reference.moments.node_means, "means");
    hamon_test::expect_same_bits(here.moments.node_variances, reference.moments.node_variances,
                                 "variances");
    hamon_test::expect_same_bits(here.moments.edge_means, reference.moments.edge_means, "edges");
    EXPECT_EQ(here.moments.energy_per_node.mean, reference.moments.energy_per_node.mean);
    EXPECT_FALSE(here.real_samples.empty());
    EXPECT_TRUE(here.samples.empty());
    EXPECT_GT(here.swaps.accepted[0], 0);
  }
}

/// The host sweep's implementations (vector registers on every instruction set this CPU
/// runs, the portable loops, and the device kernel's style run on this space) give the same values
/// and energies bit for bit, on the model and on the annealing path, for machine counts
/// that fill the 32 lanes of a work item partly, exactly and over several runs, at ladders
/// from beta 0 (the double well's flat conditional: full stepping out) to steep ones (many
/// shrinkage tries). Where the register path is not compiled in, best is the portable path.
TEST(TEST_CATEGORY, continuous_host_kernels_agree_bit_for_bit) {
  Space space;
  const auto family = hamon::detail::family_table<hamon::detail::RealFamily, Space>();
  using Kernel = hamon::HostKernel;
  for (const bool gaussian : {true, false}) {
    for (const bool annealed : {false, true}) {
      auto dm = hamon::make_device_model(space, bits_model(gaussian));
      dm.annealed = annealed;
      for (const std::int32_t machines : {1, 5, 16, 17, 32, 33, 70}) {
        std::vector<double> betas(static_cast<std::size_t>(machines));
        // The Gaussian's conditional at beta 0 is improper unless annealed.
        const double lowest = gaussian && !annealed ? 0.05 : 0.0;
        for (std::int32_t k = 0; k < machines; ++k) {
          betas[static_cast<std::size_t>(k)] =
              machines == 1 ? 0.7 : lowest + (6.0 - lowest) * k / (machines - 1);
        }
        const hamon::MachineBlock all{0, machines};
        std::vector<std::vector<double>> values;
        std::vector<std::vector<std::int64_t>> energies;
        std::vector<std::string> names;
        const auto run = [&](Kernel kernel, const std::string& name) {
          auto state = hamon::detail::make_family_state(space, family, dm, betas, 9, all);
          for (std::uint32_t sweep = 0; sweep < 3; ++sweep) {
            family.sweep(space, dm, state, 9, 5, sweep, kernel);
          }
          family.energies(space, dm, state, kernel);
          space.fence();
          auto x = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), state.spins);
          auto e = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), state.energy_fixed);
          values.emplace_back(x.data(), x.data() + x.size());
          energies.emplace_back(e.data(), e.data() + machines);
          names.push_back(name);
        };
        run(Kernel::portable, "portable");
        run(Kernel::device, "device");
        run(Kernel::best, "best");
#if HAMON_HOST_SIMD
        // The vector path on every instruction set it dispatches to here.
        for (const std::int64_t target : hamon::detail::host_vector_targets()) {
          hamon::detail::restrict_host_vector_target(target);
          run(Kernel::best, hamon::detail::host_vector_target_name(target));
        }
        hamon::detail::restrict_host_vector_target(0);
#endif
        for (std::size_t k = 1; k < values.size(); ++k) {
          const std::string what = std::string(gaussian ? "gaussian" : "double well") +
                                   (annealed ? " annealed, " : ", ") + std::to_string(machines) +
                                   " machines, " + names[k] + " vs portable";
          hamon_test::expect_same_bits(values[k], values[0], what.c_str());
          EXPECT_EQ(energies[k], energies[0]) << what;
        }
      }
    }
  }
}

TEST(TEST_CATEGORY, continuous_state_resumes_with_the_same_bits) {
  for (const bool gaussian : {true, false}) {
    const auto model = bits_model(gaussian);
    const auto o = bits_options();
    hamon::Sampler<Space, double> straight(Space(), model, o);
    straight.run(250);
    hamon::Sampler<Space, double> first(Space(), model, o);
    first.run(130);
    const hamon::SamplerStateOf<double> saved = first.state();
    // Resumed on the Serial reference: the state is portable.
    hamon::Sampler<hamon_test::ReferenceSpace, double> resumed(hamon_test::ReferenceSpace(), model,
                                                               o, saved);
    resumed.run(120);
    EXPECT_EQ(hamon_test::first_difference(straight.state(), resumed.state()), "");
    const auto a = straight.result();
    const auto b = resumed.result();
    hamon_test::expect_same_bits(a.real_samples, b.real_samples, "samples");
    hamon_test::expect_same_bits(a.moments.node_variances, b.moments.node_variances, "variances");
  }
}

TEST(TEST_CATEGORY, continuous_models_refuse_what_they_cannot_do) {
  const auto model = random_gaussian(8, 1, true);
  auto o = annealed_options(1, 10);
  // The byte sampler does not take real variables, nor the real one spins.
  EXPECT_THROW(hamon::Sampler<Space>(Space(), model, o), std::invalid_argument);
  const auto ising = hamon::make_lattice({4, 4}, true);
  EXPECT_THROW((hamon::Sampler<Space, double>(Space(), ising, o)), std::invalid_argument);
  // A state with a NaN is refused by name.
  hamon::Sampler<Space, double> s(Space(), model, annealed_options(1, 10));
  s.run(3);
  auto state = s.state();
  state.spins[5] = std::nan("");
  try {
    hamon::Sampler<Space, double> bad(Space(), model, annealed_options(1, 10), state);
    ADD_FAILURE() << "a NaN value was accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("node 5"), std::string::npos) << e.what();
  }
}

TEST(TEST_CATEGORY, continuous_fixed_point_range_is_an_error_never_a_clamp) {
  // One Gaussian site, d = 1, exp(-beta E) at beta in [0.5, 1] (reference none): x ~ N(h, 1/beta).
  auto o = annealed_options(3, 60);
  o.reference = hamon::AnnealingReference::none;
  o.n_chains = 2;
  o.beta_min = 0.5;
  o.burn_in = 0;
  auto run_with_field = [&](double h) {
    return hamon::nrpt(Space(), hamon::SpinModel::gaussian(1, {}, {1.0}, {h}), o);
  };
  // h = 1e6: E = x^2 / 2 - h x is about -h^2 / 2 = -5e11, beyond the fixed point's 2^38
  // (2.7e11). It was clamped to -2^38 and reported as the final energy; now an error.
  try {
    (void)run_with_field(1e6);
    ADD_FAILURE() << "an energy of -5e11 was clamped and reported";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("energy left the fixed-point range"), std::string::npos)
        << e.what();
  }
  // h = 3e5: every value is in range (E = -4.5e10, x^2 = 9e10 < 2^38), but a batch's sum
  // of x^2 in 2^-24 units passes 2^63 after 7 rounds (9e10 x 2^24 = 1.5e18 per round); with
  // 2 batches of up to 32 rounds it wrapped around into a wrong variance. Now an error.
  o.observers.moment_batches = 2;
  try {
    const auto r = run_with_field(3e5);
    ADD_FAILURE() << "variance " << r.moments.node_variances.at(0) << " from overflowed sums";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("moment sums left the fixed-point range"),
              std::string::npos)
        << e.what();
  }
  // The same run at h = 3: in range everywhere, and its numbers are the model's (mean h).
  const auto r = run_with_field(3.0);
  EXPECT_NEAR(r.moments.node_means.at(0), 3.0, 6.0 * r.moments.node_means_stderr.at(0) + 0.05);
}

}  // namespace
