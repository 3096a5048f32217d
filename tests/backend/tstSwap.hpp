// SPDX-License-Identifier: Apache-2.0
// Deterministic even-odd swaps and the index process in TEST_EXECSPACE.
#include <gtest/gtest.h>

#include <Kokkos_Core.hpp>
#include <cmath>

#include "hamon/core/sampler/detail/chain_state_shell.hpp"
#include "hamon/core/sampler/make_chain_state.hpp"
#include "hamon/core/tempering/swap.hpp"
#include "hamon/core/train/detail/rbm_row_swaps.hpp"

namespace {

using Space = TEST_EXECSPACE;

template <class V>
auto host_copy(const V& v) {
  return Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), v);
}

template <class V, class T>
void set_values(const V& v, const std::vector<T>& values) {
  auto h = Kokkos::create_mirror_view(v);
  for (std::size_t k = 0; k < values.size(); ++k) h(k) = values[k];
  Kokkos::deep_copy(v, h);
}

hamon::ChainState<Space> scripted_state(const std::vector<double>& betas) {
  const auto model = hamon::SpinModel::from_edges(1, {});
  Space space;
  const auto dm = hamon::make_device_model(space, model);
  return hamon::make_chain_state(space, dm, betas, 0);
}

TEST(TEST_CATEGORY, swap_log_ratio_favours_lower_energy_at_the_hot_end) {
  // Hot chain (lower beta) holding the lower energy: the swap is always accepted.
  EXPECT_GT(hamon::swap_log_ratio(0.2, 0.8, -10.0, -4.0), 0.0);
  EXPECT_DOUBLE_EQ(hamon::swap_log_ratio(0.2, 0.8, -4.0, -10.0), (0.8 - 0.2) * (-10.0 + 4.0));
}

TEST(TEST_CATEGORY, swap_parity_alternates_and_accepts_downhill_swaps) {
  // Energies rise with the machine index (= chain index at start), so every attempted
  // swap moves the lower energy to the hotter chain: all are accepted.
  auto state = scripted_state({0.0, 0.25, 0.5, 0.75, 1.0});
  set_values(state.energy_fixed, std::vector<std::int64_t>{0, 10, 20, 30, 40});
  Space space;
  hamon::deo_swap_pass(space, state, 1, 0, 0);  // round 0: pairs (0,1), (2,3)
  auto attempted = host_copy(state.attempted);
  EXPECT_EQ(attempted(0), 1);
  EXPECT_EQ(attempted(1), 0);
  EXPECT_EQ(attempted(2), 1);
  EXPECT_EQ(attempted(3), 0);
  auto m_of_c = host_copy(state.machine_of_chain);
  EXPECT_EQ(m_of_c(0), 1);
  EXPECT_EQ(m_of_c(1), 0);
  EXPECT_EQ(m_of_c(2), 3);
  EXPECT_EQ(m_of_c(3), 2);
  EXPECT_EQ(m_of_c(4), 4);
  auto c_of_m = host_copy(state.chain_of_machine);
  for (int c = 0; c < 5; ++c) EXPECT_EQ(c_of_m(m_of_c(c)), c);

  hamon::deo_swap_pass(space, state, 1, 1, 0);  // round 1: pairs (1,2), (3,4)
  attempted = host_copy(state.attempted);
  EXPECT_EQ(attempted(0), 1);
  EXPECT_EQ(attempted(1), 1);
  EXPECT_EQ(attempted(2), 1);
  EXPECT_EQ(attempted(3), 1);
  // Chain 1 now holds machine 0 (energy 0), chain 2 machine 3 (energy 30): the hotter
  // chain has the lower energy, log r = 0.25 * 30 > 0, accepted; likewise (3, 4).
  const auto accepted = host_copy(state.accepted);
  for (int pair = 0; pair < 4; ++pair) EXPECT_EQ(accepted(pair), 1) << "pair " << pair;
}

TEST(TEST_CATEGORY, swap_acceptance_matches_closed_form_for_fixed_states) {
  // Two chains with fixed energies: acceptance = exp(log r) = exp(-0.7) ~ 0.4966. Each
  // even round draws a fresh uniform; 20000 attempts give a binomial sigma of 0.0035,
  // and the test allows 5 sigma.
  auto state = scripted_state({0.3, 1.0});
  Space space;
  const int attempts = 20000;
  // E(hot) - E(cold) = 1: log r = (1.0 - 0.3) * (E_cold - E_hot) = -0.7.
  for (int k = 0; k < attempts; ++k) {
    set_values(state.energy_fixed, std::vector<std::int64_t>{1, 0});
    set_values(state.machine_of_chain, std::vector<std::int32_t>{0, 1});
    set_values(state.chain_of_machine, std::vector<std::int32_t>{0, 1});
    hamon::deo_swap_pass(space, state, 77, static_cast<std::uint32_t>(2 * k), 0);
  }
  const auto accepted = host_copy(state.accepted);
  const double p = std::exp(-0.7);
  EXPECT_EQ(host_copy(state.attempted)(0), attempts);
  EXPECT_NEAR(static_cast<double>(accepted(0)) / attempts, p,
              5 * std::sqrt(p * (1 - p) / attempts));
}

TEST(TEST_CATEGORY, training_ladders_swap_as_the_sampler_does) {
  // The one DEO pass over training's ladders (a chain's machines side by side, double
  // energies, states move between rows) and over the sampler's replicas (a ladder's machines
  // side by side, fixed-point energies, labels move): with the same energies, every round
  // must leave the same energy and the same state at every chain of every ladder, and the
  // same counters.
  const std::vector<double> betas = {0.1, 0.3, 0.45, 0.6, 0.8, 1.0};
  const std::vector<std::int64_t> energies = {-3, 4, -1, 6, 2,  -5, 0,  3, -2,
                                              5,  1, -4, 2, -6, 4,  -1, 3, 0};  // (ladder, chain)
  const auto n = static_cast<std::int32_t>(betas.size());
  const std::int32_t n_ladders = 3;
  Space space;
  const auto dm = hamon::make_device_model(space, hamon::SpinModel::from_edges(1, {}));
  auto sampler =
      hamon::detail::make_family_state(space, hamon::detail::family_of<Space>(dm), dm, betas, 0,
                                       hamon::MachineBlock{0, n * n_ladders}, n_ladders);
  set_values(sampler.energy_fixed, energies);
  auto training = hamon::make_ladders_state(space, dm, betas, n_ladders, 0);
  using views = hamon::detail::TrainViews<Space>;
  const hamon::detail::RbmRowMoves<Space> moves{
      training.spins, views::new_matrix(space, "visible", n * n_ladders, 1),
      views::new_matrix(space, "hidden", n * n_ladders, 1),
      views::new_vector(space, "energy", n * n_ladders)};
  const hamon::detail::DoubleEnergies<Space> training_energies{moves.energy};
  auto row = [&](std::int32_t ladder, std::int32_t chain) { return chain * n_ladders + ladder; };
  {
    auto spins = Kokkos::create_mirror_view(moves.spins);
    auto e = Kokkos::create_mirror_view(moves.energy);
    for (std::int32_t l = 0; l < n_ladders; ++l) {
      for (std::int32_t c = 0; c < n; ++c) {
        const std::int32_t k = l * n + c;  // the sampler's machine that starts there
        spins(row(l, c), 0) = static_cast<std::int8_t>(k);
        e(row(l, c)) = static_cast<double>(energies[static_cast<std::size_t>(k)]);
      }
    }
    Kokkos::deep_copy(moves.spins, spins);
    Kokkos::deep_copy(moves.energy, e);
  }
  const auto training_machines = host_copy(training.machine_of_chain);
  for (std::uint32_t round = 0; round < 40; ++round) {
    hamon::deo_swap_pass(space, sampler, 9, round, 0);
    hamon::deo_swap_pass(space, training, 9, round, training_energies, moves);
    const auto m_of_c = host_copy(sampler.machine_of_chain);
    const auto spins = host_copy(moves.spins);
    const auto e = host_copy(moves.energy);
    for (std::int32_t l = 0; l < n_ladders; ++l) {
      for (std::int32_t c = 0; c < n; ++c) {
        const std::int32_t m = m_of_c(l * n + c);
        EXPECT_EQ(spins(row(l, c), 0), m)
            << "round " << round << ", ladder " << l << ", chain " << c;
        EXPECT_EQ(e(row(l, c)), static_cast<double>(energies[static_cast<std::size_t>(m)]));
      }
    }
  }
  const auto still = host_copy(training.machine_of_chain);
  for (std::int32_t k = 0; k < n * n_ladders; ++k) {
    EXPECT_EQ(still(k), training_machines(k));  // training's swaps leave the labels
    EXPECT_EQ(still(k), row(k / n, k % n));
  }
  const auto attempted = host_copy(sampler.attempted);
  const auto accepted = host_copy(sampler.accepted);
  const auto ladder_attempted = host_copy(training.attempted);
  const auto ladder_accepted = host_copy(training.accepted);
  std::int64_t rejected = 0;
  for (std::int32_t pair = 0; pair + 1 < n; ++pair) {
    EXPECT_EQ(ladder_attempted(pair), attempted(pair));
    EXPECT_EQ(ladder_accepted(pair), accepted(pair));
    rejected += attempted(pair) - accepted(pair);
  }
  EXPECT_GT(rejected, 0);  // the energies make some swaps uphill: the uniforms matter
}

TEST(TEST_CATEGORY, index_process_counts_restarts_and_round_trips) {
  // One machine walks a scripted path over 3 chains (the other fills the vacated slot).
  auto state = scripted_state({0.0, 0.5, 1.0});
  Space space;
  const std::vector<std::int32_t> path = {0, 1, 2, 1, 0, 1, 2, 2, 0, 0, 2};
  for (std::int32_t chain : path) {
    set_values(state.chain_of_machine, std::vector<std::int32_t>{chain, chain == 0 ? 1 : 0, 2});
    hamon::update_index_process(space, state);
  }
  const auto restarts = host_copy(state.restarts);
  const auto trips = host_copy(state.round_trips);
  // Reaches the top 3 times (rounds 2, 6, 10): restarts; back at 0 after the top twice.
  EXPECT_EQ(restarts(0), 3);
  EXPECT_EQ(trips(0), 2);
}

}  // namespace
