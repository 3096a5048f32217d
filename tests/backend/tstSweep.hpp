// SPDX-License-Identifier: Apache-2.0
// The block-Gibbs sweep and the energy kernel in TEST_EXECSPACE.
#include <gtest/gtest.h>

#include <Kokkos_Core.hpp>
#include <cmath>
#include <limits>

#include "hamon/core/families/energy.hpp"
#include "hamon/core/families/gibbs_sweep.hpp"
#include "hamon/core/model/model_builders.hpp"
#include "hamon/core/sampler/make_chain_state.hpp"

namespace {

using Space = TEST_EXECSPACE;

template <class State>
std::vector<std::int8_t> machine_spins(const State& state, std::int32_t m) {
  auto host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), state.spins);
  std::vector<std::int8_t> out(host.extent(1));
  for (std::size_t i = 0; i < out.size(); ++i) out[i] = host(m, i);
  return out;
}

TEST(TEST_CATEGORY, sweep_energy_kernel_matches_host_energy) {
  // Gaussian couplings and fields: the fixed-point sum must agree with the plain double
  // sum to within one rounding unit per node, plus the double sum's own rounding (n
  // additions of terms at most the model's magnitude, each off by an epsilon of it).
  const auto model = hamon::make_lattice({6, 5}, true, hamon::ValueDistribution::gaussian(3),
                                         hamon::ValueDistribution::gaussian(4, 0.5));
  Space space;
  const auto dm = hamon::make_device_model(space, model);
  auto state = hamon::make_chain_state(space, dm, {0.1, 0.5, 0.9}, 17);
  for (std::uint32_t sweep = 0; sweep < 3; ++sweep) {
    hamon::gibbs_sweep(space, dm, state, 17, 0, sweep);
    hamon::compute_energies(space, dm, state);
    auto energies = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), state.energy_fixed);
    const double unit = std::ldexp(1.0, -dm.energy_fraction_bits);
    for (std::int32_t m = 0; m < 3; ++m) {
      const double expected = model.energy(machine_spins(state, m));
      const double n = static_cast<double>(model.n_nodes());
      EXPECT_NEAR(hamon::fixed_point_energy(energies(m), dm.energy_fraction_bits), expected,
                  unit * n + n * std::numeric_limits<double>::epsilon() * model.magnitude());
    }
  }
}

TEST(TEST_CATEGORY, sweep_never_changes_clamped_nodes) {
  const auto model = hamon::SpinModel::from_edges(
      5, {{0, 1, 1.0}, {1, 2, -1.0}, {2, 3, 0.5}, {3, 4, 2.0}, {4, 0, 1.5}}, {}, {{1, -1}, {3, 1}});
  Space space;
  const auto dm = hamon::make_device_model(space, model);
  auto state = hamon::make_chain_state(space, dm, {0.3, 1.0, 3.0, 10.0, 20.0}, 5);
  for (std::uint32_t round = 0; round < 50; ++round) {
    hamon::gibbs_sweep(space, dm, state, 5, round, 0);
    for (std::int32_t m = 0; m < 5; ++m) {
      const auto s = machine_spins(state, m);
      ASSERT_EQ(s[1], -1);
      ASSERT_EQ(s[3], 1);
    }
  }
}

TEST(TEST_CATEGORY, sweep_follows_strong_fields_and_is_uniform_at_beta_zero) {
  // 2000 isolated nodes, fields alternating +-5. At beta = 10 the probability of the
  // wrong sign is 1/(1+e^100): none may be wrong. At beta = 0 every spin is a fair coin:
  // 2000 spins x 8 machines, the fraction up has sigma = 0.5/sqrt(16000) ~ 0.004, and the
  // test allows 5 sigma.
  const std::int64_t n = 2000;
  std::vector<double> fields(n);
  for (std::int64_t i = 0; i < n; ++i) fields[i] = (i % 2 == 0) ? 5.0 : -5.0;
  const auto model = hamon::SpinModel::from_edges(n, {}, fields);
  Space space;
  const auto dm = hamon::make_device_model(space, model);
  auto cold = hamon::make_chain_state(space, dm, {10.0}, 9);
  hamon::gibbs_sweep(space, dm, cold, 9, 0, 0);
  const auto s = machine_spins(cold, 0);
  for (std::int64_t i = 0; i < n; ++i) ASSERT_EQ(s[i], fields[i] > 0 ? 1 : -1) << "node " << i;

  std::vector<double> ladder(8);
  for (int k = 0; k < 8; ++k) ladder[k] = 0.0 + 1e-12 * k;  // ascending, all ~ 0
  auto hot = hamon::make_chain_state(space, dm, ladder, 10);
  hamon::gibbs_sweep(space, dm, hot, 10, 1, 0);
  double up = 0;
  for (std::int32_t m = 0; m < 8; ++m) {
    for (auto v : machine_spins(hot, m)) up += v > 0;
  }
  EXPECT_NEAR(up / (8.0 * n), 0.5, 5 * 0.5 / std::sqrt(8.0 * n));
}

}  // namespace
