// SPDX-License-Identifier: Apache-2.0
// A model family that the library does not have, a type checked by the family concept
// (families/family_concept.hpp) and plugged into the sampler's parts with no edit to them:
// real-valued variables x_i in [0, 1) with energy E(x) = sum_i x_i, whose local update draws x_i
// exactly from its conditional density beta e^(-beta x) / (1 - e^(-beta)) on [0, 1). It runs
// through the round loop (sweeps, energies, DEO swaps), the trace buffer and the moment
// accumulator, and its state goes through the checkpoint's sections (SamplerStateOf<double> ->
// bytes -> SamplerStateOf<double>) and back into a round loop that continues with the same bits.
#include <gtest/gtest.h>

#include <Kokkos_Core.hpp>
#include <cmath>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "hamon/core/families/detail/initial_values.hpp"
#include "hamon/core/families/family_table.hpp"
#include "hamon/core/model/variable_kind.hpp"
#include "hamon/core/sampler/detail/chain_state_shell.hpp"
#include "hamon/core/sampler/detail/moment_accumulator.hpp"
#include "hamon/core/sampler/detail/round_loop.hpp"
#include "hamon/core/sampler/detail/state_sections.hpp"
#include "hamon/core/sampler/detail/trace_buffer.hpp"
#include "hamon/core/util/counter_rng.hpp"
#include "hamon/core/util/deterministic_math.hpp"
#include "hamon/core/util/fixed_point.hpp"
#include "state_fields.hpp"

namespace {

using Space = TEST_EXECSPACE;
using Real = hamon::RealVariable<double>::storage_type;
using Model = hamon::DeviceModel<Space::memory_space>;
using State = hamon::FamilyState<Space, Real>;
using Family = hamon::detail::ModelFamily<Space, Real>;

void start_uniform(const Space& space, const Model&, State& state, std::uint64_t seed) {
  hamon::detail::draw_initial_values(
      space, state, seed, KOKKOS_LAMBDA(const std::int64_t, const std::uint32_t word) {
        return hamon::detail::to_unit_interval(word);
      });
}

void no_tables(const Space&, const Model&, State&) {}

/// Every variable at once (they do not interact): the exact conditional draw by inversion.
void exact_sweep(const Space& space, const Model& model, const State& state, std::uint64_t seed,
                 std::uint32_t round, std::uint32_t sweep, hamon::HostKernel) {
  const auto x = state.spins;
  const auto betas = state.betas;
  const auto chain_of_machine = state.local_chain_of_machine();
  const std::int32_t first = state.first_machine;
  const std::int64_t n_nodes = model.n_nodes;
  Kokkos::parallel_for(
      "test::toy_sweep",
      Kokkos::RangePolicy<Space>(space, 0, static_cast<int>(x.extent(0) * x.extent(1))),
      KOKKOS_LAMBDA(const int k) {
        const std::int64_t m = k / n_nodes;
        const std::int64_t i = k % n_nodes;
        const double u = hamon::detail::to_unit_interval(
            hamon::detail::philox4(seed, static_cast<std::uint32_t>(i),
                                   static_cast<std::uint32_t>(first + m), sweep, round)
                .w[0]);
        const double beta = betas(chain_of_machine(m));
        x(m, i) = beta > 0.0
                      ? -std::log1p(-u * (1.0 - hamon::detail::deterministic_exp(-beta))) / beta
                      : u;
      });
}

void sum_energies(const Space& space, const Model& model, const State& state, hamon::HostKernel) {
  const auto x = state.spins;
  const auto energy_fixed = state.local_energy_fixed();
  const double scale = std::ldexp(1.0, model.energy_fraction_bits);
  const std::int64_t n_nodes = model.n_nodes;
  Kokkos::parallel_for(
      "test::toy_energies", Kokkos::RangePolicy<Space>(space, 0, static_cast<int>(x.extent(0))),
      KOKKOS_LAMBDA(const int m) {
        for (std::int64_t i = 0; i < n_nodes; ++i) {
          energy_fixed(m) += hamon::detail::to_fixed_point(x(m, i), scale);
        }
      });
}

std::int64_t one_column(const Model&) {
  return 1;
}

/// The energy and the round count only: node sums are integers, not these reals.
void observe_energy(const Space& space, const Model& model, const State& state,
                    const hamon::detail::MomentBuffers<Space>& b, std::int64_t batch) {
  const auto energy_sums = b.energy_sums;
  const auto counts = b.counts;
  const auto energy_fixed = state.energy_fixed;
  const auto machine_of_chain = state.machine_of_chain;
  const auto top = static_cast<std::int32_t>(state.betas.extent(0)) - 1;
  const int bits = model.energy_fraction_bits;
  Kokkos::parallel_for(
      "test::toy_observe", Kokkos::RangePolicy<Space>(space, 0, 1), KOKKOS_LAMBDA(const int) {
        energy_sums(batch) += hamon::fixed_point_energy(energy_fixed(machine_of_chain(top)), bits);
        counts(batch) += 1;
      });
}

/// The toy as a family type (families/family_concept.hpp): its operations for this one
/// space, and what it allows.
struct ToyFamily {
  using variable = hamon::RealVariable<double>;
  static constexpr hamon::FamilyAbilities abilities{};
  static bool takes(const Model&) { return true; }
  static std::string name(const Model&) { return "toy"; }
  static std::int32_t values_per_variable(const Model&) { return 0; }
  static std::string value_problem(const Model&, double x) {
    return x >= 0.0 && x < 1.0 ? std::string() : "holds " + std::to_string(x) + ", not in [0, 1)";
  }
  static double table_bytes(const Model&, std::int64_t) { return 0.0; }
  static std::int64_t node_columns(const Model& model) { return one_column(model); }
  static double order_parameter(const Model&, double, std::int64_t) { return 0.0; }
  static void start(const Space& space, const Model& model, State& state, std::uint64_t seed) {
    start_uniform(space, model, state, seed);
  }
  static void refresh(const Space& space, const Model& model, State& state) {
    no_tables(space, model, state);
  }
  static void sweep(const Space& space, const Model& model, const State& state, std::uint64_t seed,
                    std::uint32_t round, std::uint32_t sweep, hamon::HostKernel kernel) {
    exact_sweep(space, model, state, seed, round, sweep, kernel);
  }
  static void add_energies(const Space& space, const Model& model, const State& state,
                           hamon::HostKernel kernel) {
    sum_energies(space, model, state, kernel);
  }
  static void observe(const Space& space, const Model& model, const State& state,
                      const hamon::detail::MomentBuffers<Space>& b, std::int64_t batch) {
    observe_energy(space, model, state, b, batch);
  }
  /// Its observer adds no node sums: nothing per node to report.
  static double node_moments(const Space&, const Model&, const hamon::ColumnBatchSums&,
                             std::vector<double>&, hamon::Moments&) {
    return 1.0;
  }
};

Family toy_family() {
  return hamon::detail::family_table<ToyFamily, Space>();
}

template <class V>
auto host_copy(const V& v) {
  return Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), v);
}

struct Toy {
  Space space;
  hamon::SpinModel spin_model = hamon::SpinModel::from_edges(5, {});
  Model model = hamon::make_device_model(space, spin_model);
  hamon::NrptOptions options;
  hamon::detail::RankLink link{nullptr, 4};

  Toy() {
    options.betas = {0.0, 1.0, 4.0, 16.0};
    options.n_expl = 2;
    options.seed = 99;
  }

  hamon::detail::RoundLoop<Space, Real> loop() const {
    hamon::detail::RoundLoop<Space, Real> l;
    l.family = toy_family();
    l.state = hamon::detail::make_family_state(space, l.family, model, options.betas, options.seed,
                                               hamon::MachineBlock{0, 4});
    l.start_best(space, model);
    return l;
  }

  void round(hamon::detail::RoundLoop<Space, Real>& l) const {
    l.sweep(space, model, options, true);
    l.track_best(space);
    l.swap(space, model, options);
    ++l.rounds_done;
  }
};

TEST(TEST_CATEGORY, toy_family_runs_through_the_round_loop) {
  const Toy toy;
  ASSERT_LE(toy.model.energy_fraction_bits, 52);  // sums of reals below 5 fit the fixed point
  auto loop = toy.loop();
  // A copy, not a mirror: a host space's mirror is the view itself.
  auto start = Kokkos::create_mirror(Kokkos::HostSpace(), loop.state.spins);
  Kokkos::deep_copy(start, loop.state.spins);
  for (int r = 0; r < 40; ++r) toy.round(loop);
  toy.space.fence();
  const auto x = host_copy(loop.state.spins);
  const auto energies = host_copy(loop.state.energy_fixed);
  const double scale = std::ldexp(1.0, toy.model.energy_fraction_bits);
  for (int m = 0; m < 4; ++m) {
    std::int64_t expected = 0;
    for (int i = 0; i < 5; ++i) {
      EXPECT_GE(x(m, i), 0.0);
      EXPECT_LT(x(m, i), 1.0);
      EXPECT_NE(x(m, i), start(m, i));
      expected += hamon::detail::to_fixed_point(x(m, i), scale);
    }
    EXPECT_EQ(energies(m), expected) << "machine " << m;
  }
  // Swaps happened (the family's energies drive the DEO pass).
  std::int64_t attempted = 0;
  for (auto a : hamon::detail::to_host_vector<std::int64_t>(toy.space, loop.state.attempted))
    attempted += a;
  EXPECT_EQ(attempted, 20 * 2 + 20 * 1) << "40 rounds: 2 pairs in even rounds, 1 in odd ones";
}

TEST(TEST_CATEGORY, toy_family_state_survives_a_checkpoint_and_continues_with_the_same_bits) {
  const Toy toy;
  auto straight = toy.loop();
  auto stopped = toy.loop();
  for (int r = 0; r < 7; ++r) {
    toy.round(straight);
    toy.round(stopped);
  }
  hamon::SamplerStateOf<Real> saved;
  stopped.save(toy.space, saved, toy.link);
  saved.betas = toy.options.betas;
  ASSERT_EQ(saved.spins.size(), 4u * 5u);

  std::map<std::string, std::string> payloads;
  for (auto& [tag, bytes] : hamon::detail::state_sections(saved)) payloads[tag] = bytes;
  // SPIN: the count, then the reals by bit pattern (8 bytes each).
  EXPECT_EQ(payloads.at("SPIN").size(), 8u + 8u * 20u);
  hamon::SamplerStateOf<Real> read;
  hamon::detail::read_state_sections(
      read, "toy", [&](const char* tag) -> const std::string& { return payloads.at(tag); });
  EXPECT_EQ(hamon_test::first_difference(saved, read), "");

  auto resumed = toy.loop();
  resumed.restore(toy.space, read);
  for (int r = 0; r < 5; ++r) {
    toy.round(straight);
    toy.round(resumed);
  }
  hamon::SamplerStateOf<Real> a, b;
  straight.save(toy.space, a, toy.link);
  resumed.save(toy.space, b, toy.link);
  EXPECT_EQ(hamon_test::first_difference(a, b), "");
  EXPECT_EQ(a.rounds_done, 12);
}

TEST(TEST_CATEGORY, toy_family_traces_and_moments_are_its_values) {
  const Toy toy;
  auto loop = toy.loop();
  hamon::ObserverOptions observers;
  observers.samples_every = 1;
  observers.energies = true;
  observers.moments = true;
  hamon::detail::TraceBuffer<Space, Real> traces;
  traces.chunks =
      hamon::detail::make_trace_chunks<Space, Real>(toy.space, toy.model, observers, 4, 6);
  auto moments = hamon::detail::make_moment_buffers(toy.space, toy.model, observers,
                                                    loop.family.node_columns(toy.model));
  std::vector<double> cold_rows;
  double energy_sum = 0.0;
  for (int r = 0; r < 6; ++r) {
    toy.round(loop);
    hamon::detail::record_traces(toy.space, toy.model, loop.state, traces.chunks, r);
    hamon::detail::accumulate_moment_round(toy.space, toy.model, loop.family, loop.state, moments);
    toy.space.fence();
    const auto x = host_copy(loop.state.spins);
    const auto cold =
        hamon::detail::to_host_vector<std::int32_t>(toy.space, loop.state.machine_of_chain)[3];
    for (int i = 0; i < 5; ++i) cold_rows.push_back(x(cold, i));
    energy_sum += hamon::fixed_point_energy(
        hamon::detail::to_host_vector<std::int64_t>(toy.space, loop.state.energy_fixed)[cold],
        toy.model.energy_fraction_bits);
  }
  traces.flush(toy.space, toy.link);
  EXPECT_EQ(traces.kept.samples_rows, 6);
  EXPECT_EQ(traces.kept.samples, cold_rows);
  EXPECT_EQ(traces.kept.energy_rows, 6);
  const hamon::Moments m =
      hamon::detail::moments_of(toy.space, moments, toy.model, loop.family, toy.link);
  EXPECT_EQ(m.n_samples, 6);
  EXPECT_NEAR(m.energy_per_node.mean, energy_sum / 6.0 / 5.0, 1e-12);
}

}  // namespace
