// SPDX-License-Identifier: Apache-2.0
// A second family the library does not have, over a variable kind it does not have either:
// occupation numbers n_i in {0, ..., K} stored as 32-bit integers, energy E(n) = sum_i n_i,
// each drawn exactly from its conditional e^(-beta n) / Z_K(beta). The family is a type
// checked by the family concept (families/family_concept.hpp); the variable kind, the
// state's storage and the round loop's parts take it with no edit anywhere else. The cold
// chain's occupation matches the exact mean; a stored value out of range is refused where a
// restore checks it.
#include <gtest/gtest.h>

#include <Kokkos_Core.hpp>
#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "hamon/core/families/detail/initial_values.hpp"
#include "hamon/core/families/family_table.hpp"
#include "hamon/core/model/model_builders.hpp"
#include "hamon/core/sampler/detail/chain_state_shell.hpp"
#include "hamon/core/sampler/detail/restore_checks.hpp"
#include "hamon/core/sampler/detail/round_loop.hpp"
#include "hamon/core/util/counter_rng.hpp"
#include "hamon/core/util/deterministic_math.hpp"
#include "hamon/core/util/fixed_point.hpp"

namespace {

/// The new variable kind: a count 0 .. kMaxCount.
struct CountVariable {
  using value_type = std::int32_t;
  using storage_type = std::int32_t;
};
constexpr std::int32_t kMaxCount = 3;

using Space = TEST_EXECSPACE;
using Count = CountVariable::storage_type;
using Model = hamon::DeviceModel<Space::memory_space>;
using State = hamon::FamilyState<Space, Count>;

struct CountFamily {
  using variable = CountVariable;
  static constexpr hamon::FamilyAbilities abilities{};
  static bool takes(const Model&) { return true; }
  static std::string name(const Model&) { return "count"; }
  static std::int32_t values_per_variable(const Model&) { return kMaxCount + 1; }
  static std::string value_problem(const Model&, Count n) {
    if (n >= 0 && n <= kMaxCount) return {};
    return "holds " + std::to_string(n) + ", not a count 0 .. " + std::to_string(kMaxCount);
  }
  static double table_bytes(const Model&, std::int64_t) { return 0.0; }
  static std::int64_t node_columns(const Model&) { return 1; }
  static double order_parameter(const Model&, double, std::int64_t) { return 0.0; }

  static void start(const Space& space, const Model&, State& state, std::uint64_t seed) {
    hamon::detail::draw_initial_values(
        space, state, seed, KOKKOS_LAMBDA(const std::int64_t, const std::uint32_t word) {
          return static_cast<Count>((static_cast<std::uint64_t>(word) * (kMaxCount + 1)) >> 32);
        });
  }
  static void refresh(const Space&, const Model&, State&) {}
  /// Every count at once, by inversion of its conditional's distribution function.
  static void sweep(const Space& space, const Model& model, const State& state, std::uint64_t seed,
                    std::uint32_t round, std::uint32_t sweep, hamon::HostKernel) {
    const auto n = state.spins;
    const auto betas = state.betas;
    const auto chain_of_machine = state.local_chain_of_machine();
    const std::int32_t first = state.first_machine;
    const std::int64_t n_nodes = model.n_nodes;
    Kokkos::parallel_for(
        "test::count_sweep",
        Kokkos::RangePolicy<Space>(space, 0, static_cast<int>(n.extent(0) * n.extent(1))),
        KOKKOS_LAMBDA(const int k) {
          const std::int64_t m = k / n_nodes;
          const std::int64_t i = k % n_nodes;
          const double u = hamon::detail::to_unit_interval(
              hamon::detail::philox4(seed, static_cast<std::uint32_t>(i),
                                     static_cast<std::uint32_t>(first + m), sweep, round)
                  .w[0]);
          const double w = hamon::detail::deterministic_exp(-betas(chain_of_machine(m)));
          double total = 0.0, weight = 1.0;
          for (Count c = 0; c <= kMaxCount; ++c, weight *= w) total += weight;
          double below = 0.0;
          Count c = 0;
          for (weight = 1.0; c < kMaxCount; ++c, weight *= w) {
            below += weight;
            if (u * total < below) break;
          }
          n(m, i) = c;
        });
  }
  static void add_energies(const Space& space, const Model& model, const State& state,
                           hamon::HostKernel) {
    const auto n = state.spins;
    const auto energy_fixed = state.local_energy_fixed();
    const std::int64_t one = std::int64_t{1} << model.energy_fraction_bits;
    const std::int64_t n_nodes = model.n_nodes;
    Kokkos::parallel_for(
        "test::count_energies", Kokkos::RangePolicy<Space>(space, 0, static_cast<int>(n.extent(0))),
        KOKKOS_LAMBDA(const int m) {
          for (std::int64_t i = 0; i < n_nodes; ++i) energy_fixed(m) += one * n(m, i);
        });
  }
  static void observe(const Space&, const Model&, const State&,
                      const hamon::detail::MomentBuffers<Space>&, std::int64_t) {}
  static double node_moments(const Space&, const Model&, const hamon::ColumnBatchSums&,
                             std::vector<double>&, hamon::Moments&) {
    return 1.0;
  }
};

/// <n> of one count at inverse temperature beta, exactly.
double exact_mean_count(double beta) {
  double z = 0.0, first = 0.0;
  for (int c = 0; c <= kMaxCount; ++c) {
    z += std::exp(-beta * c);
    first += c * std::exp(-beta * c);
  }
  return first / z;
}

double exact_count_variance(double beta) {
  double z = 0.0, second = 0.0;
  for (int c = 0; c <= kMaxCount; ++c) {
    z += std::exp(-beta * c);
    second += c * c * std::exp(-beta * c);
  }
  const double mean = exact_mean_count(beta);
  return second / z - mean * mean;
}

struct Counts {
  Space space;
  hamon::SpinModel spin_model = hamon::SpinModel::from_edges(6, {});
  Model model = hamon::make_device_model(space, spin_model);
  hamon::NrptOptions options;

  Counts() {
    options.betas = {0.0, 0.5, 1.0, 2.0};
    options.n_expl = 1;
    options.seed = 2024;
  }

  hamon::detail::RoundLoop<Space, Count> loop() const {
    hamon::detail::RoundLoop<Space, Count> l;
    l.family = hamon::detail::family_table<CountFamily, Space>();
    l.state = hamon::detail::make_family_state(space, l.family, model, options.betas, options.seed,
                                               hamon::MachineBlock{0, 4});
    l.start_best(space, model);
    return l;
  }
};

TEST(TEST_CATEGORY, count_family_of_a_new_variable_kind_samples_its_exact_mean) {
  const Counts counts;
  auto loop = counts.loop();
  const int rounds = 4000;
  double sum = 0.0;
  for (int r = 0; r < rounds; ++r) {
    loop.sweep(counts.space, counts.model, counts.options, true);
    loop.track_best(counts.space);
    loop.swap(counts.space, counts.model, counts.options);
    ++loop.rounds_done;
    counts.space.fence();
    const auto n = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), loop.state.spins);
    const auto machines =
        Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), loop.state.machine_of_chain);
    const std::int32_t cold = machines(3);
    for (int i = 0; i < 6; ++i) {
      ASSERT_GE(n(cold, i), 0);
      ASSERT_LE(n(cold, i), kMaxCount);
      sum += n(cold, i);
    }
  }
  // Every sweep draws each count exactly from its own distribution (no interactions), so
  // the cold chain's counts after a sweep are independent draws at beta = 2 wherever the
  // swaps took its machine: 6 x 4000 of them, their mean within 5 standard errors (a
  // false alarm once in about 1.7 million runs; a wrong family misses by far more).
  const double samples = 6.0 * rounds;
  const double error = std::sqrt(exact_count_variance(2.0) / samples);
  EXPECT_NEAR(sum / samples, exact_mean_count(2.0), 5.0 * error);
  const auto pairs = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), loop.state.attempted);
  std::int64_t attempted = 0;
  for (std::size_t k = 0; k < pairs.extent(0); ++k) attempted += pairs(k);
  EXPECT_EQ(attempted, (rounds / 2) * 2 + (rounds / 2) * 1) << "its energies drive the swaps";
}

TEST(TEST_CATEGORY, count_family_refuses_a_restored_count_out_of_range) {
  const Counts counts;
  const auto family = hamon::detail::family_table<CountFamily, Space>();
  const std::vector<Count> good(12, 2);
  EXPECT_NO_THROW(hamon::detail::check_variables(good, family, counts.model));
  std::vector<Count> bad = good;
  bad[7] = kMaxCount + 1;
  try {
    hamon::detail::check_variables(bad, family, counts.model);
    ADD_FAILURE() << "a count out of range was accepted";
  } catch (const std::exception& e) {
    EXPECT_NE(std::string(e.what()).find("machine 1, node 1 holds 4, not a count 0 .. 3"),
              std::string::npos)
        << e.what();
  }
}

}  // namespace
