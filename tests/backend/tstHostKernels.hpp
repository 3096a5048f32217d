// SPDX-License-Identifier: Apache-2.0
// The host sweep's implementations give the same bits: the vector path (on every instruction
// set it is built for and this CPU runs, one at a time) and the device kernel's style (run on
// this host space) against the portable loops, for lattice and general graphs, integer and
// real couplings (thresholds and exp), every way the machines fill the 32 lanes of a work
// item (1..70 machines: masks, generators per node from 1 to 8, several lane chunks),
// clamps, and ladders steep enough that some field values can never (T = 0) or always
// (T = 2^32) turn a spin up. Where no vector path is built (a GPU build) both calls run the
// same code, and the test only checks that sweeps are reproducible.
#include <gtest/gtest.h>

#include <Kokkos_Core.hpp>
#include <cstring>
#include <vector>

#include "hamon/core/families/energy.hpp"
#include "hamon/core/families/gibbs_sweep.hpp"
#include "hamon/core/model/model_builders.hpp"
#include "hamon/core/sampler/make_chain_state.hpp"
#include "vector_targets.hpp"

namespace {

using Space = TEST_EXECSPACE;

std::vector<double> steep_ladder(std::int32_t machines) {
  std::vector<double> betas(static_cast<std::size_t>(machines));
  for (std::int32_t k = 0; k < machines; ++k) {
    // 0 .. 12: at beta 12 and |phi| >= 1, exp(-2 beta phi) is beyond 2^32 either way.
    betas[static_cast<std::size_t>(k)] = machines == 1 ? 0.7 : 12.0 * k / (machines - 1);
  }
  return betas;
}

template <class View>
std::vector<std::int8_t> to_host(const View& v) {
  auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), v);
  return std::vector<std::int8_t>(h.data(), h.data() + h.size());
}

void expect_kernels_agree_here(const hamon::SpinModel& model, bool expect_lattice,
                               bool expect_integer) {
  Space space;
  const auto dm = hamon::make_device_model(space, model);
  ASSERT_EQ(dm.integer_field_bound >= 0, expect_integer);
  ASSERT_EQ(dm.lattice.enabled, expect_lattice);
  for (std::int32_t machines : {1, 3, 4, 5, 8, 12, 16, 17, 31, 32, 33, 40, 70}) {
    const auto betas = steep_ladder(machines);
    auto best = hamon::make_chain_state(space, dm, betas, 11);
    auto portable = hamon::make_chain_state(space, dm, betas, 11);
    auto device = hamon::make_chain_state(space, dm, betas, 11);
    // Real fields without the boundary table: exp per update.
    auto exp_path = hamon::make_chain_state(space, dm, betas, 11);
    exp_path.tables.field_boundary = decltype(exp_path.tables.field_boundary)();
    for (std::uint32_t sweep = 0; sweep < 3; ++sweep) {
      hamon::gibbs_sweep(space, dm, best, 11, 4, sweep, hamon::HostKernel::best);
      hamon::gibbs_sweep(space, dm, portable, 11, 4, sweep, hamon::HostKernel::portable);
      hamon::gibbs_sweep(space, dm, device, 11, 4, sweep, hamon::HostKernel::device);
      hamon::gibbs_sweep(space, dm, exp_path, 11, 4, sweep, hamon::HostKernel::best);
    }
    const auto a = to_host(best.spins);
    const auto b = to_host(portable.spins);
    const auto d = to_host(device.spins);
    const auto e = to_host(exp_path.spins);
    ASSERT_EQ(a.size(), b.size());
    if (model.is_potts()) {
      for (std::int8_t x : b) ASSERT_LT(static_cast<std::uint8_t>(x), model.n_states());
    }
    EXPECT_EQ(0, std::memcmp(a.data(), b.data(), a.size())) << machines << " machines";
    EXPECT_EQ(0, std::memcmp(d.data(), b.data(), d.size()))
        << machines << " machines, device style";
    EXPECT_EQ(0, std::memcmp(e.data(), b.data(), e.size()))
        << machines << " machines, without the boundary table";
    // The energies of the integer path equal the general fixed-point sum.
    auto general = dm;
    general.integer_field_bound = -1;
    general.lattice.enabled = false;  // the CSR bonds (j > i), not the lattice's
    hamon::compute_energies(space, dm, best);
    hamon::compute_energies(space, general, portable);
    auto ea = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), best.energy_fixed);
    auto eb = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), portable.energy_fixed);
    for (std::int32_t m = 0; m < machines; ++m) EXPECT_EQ(ea(m), eb(m)) << "machine " << m;
    // The device style of the energy kernel and the portable loops give them too.
    for (const auto kernel : {hamon::HostKernel::device, hamon::HostKernel::portable}) {
      hamon::compute_energies(space, dm, device, kernel);
      auto ed = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), device.energy_fixed);
      for (std::int32_t m = 0; m < machines; ++m) {
        EXPECT_EQ(ea(m), ed(m)) << "machine " << m << ", kernel " << static_cast<int>(kernel);
      }
    }
  }
}

/// expect_kernels_agree_here on every instruction set the vector path dispatches to here.
void expect_kernels_agree(const hamon::SpinModel& model, bool expect_lattice,
                          bool expect_integer = true) {
  hamon_test::on_every_vector_target(
      [&] { expect_kernels_agree_here(model, expect_lattice, expect_integer); });
}

TEST(TEST_CATEGORY, host_kernels_agree_on_a_lattice) {
  // 3D, +-J couplings, integer fields: the lattice fast path.
  expect_kernels_agree(hamon::make_lattice({4, 6, 4}, true, hamon::ValueDistribution::pm_one(3),
                                           hamon::ValueDistribution::pm_one(5, 2.0)),
                       true);
  // 2D with fields: 30 nodes per colour, so the register path's packs of 16 / W nodes
  // (fewer than 9 machines) end part-filled in every work item.
  expect_kernels_agree(hamon::make_lattice({6, 10}, true, hamon::ValueDistribution::pm_one(7),
                                           hamon::ValueDistribution::pm_one(9, 1.0)),
                       true);
}

TEST(TEST_CATEGORY, host_kernels_agree_on_a_general_graph) {
  // Open boundaries (not the fast path), integer couplings of several sizes, fields, and
  // two clamped nodes.
  std::vector<hamon::Edge> edges;
  const std::int64_t n = 90;
  for (std::int64_t i = 0; i < n; ++i) {
    edges.push_back({i, (i + 1) % n, static_cast<double>(1 + i % 3)});
    if (i % 4 == 0) edges.push_back({i, (i + 7) % n, i % 8 == 0 ? -2.0 : 1.0});
  }
  std::vector<double> fields(n);
  for (std::int64_t i = 0; i < n; ++i)
    fields[static_cast<std::size_t>(i)] = static_cast<double>(i % 5) - 2.0;
  const auto model = hamon::SpinModel::from_edges(n, edges, fields, {{3, 1}, {40, -1}});
  expect_kernels_agree(model, false);
}

TEST(TEST_CATEGORY, host_kernels_agree_on_real_couplings) {
  // Gaussian couplings and fields: the byte against the chain's field boundaries (exp on
  // ties), or exp per update without the table, in vector registers (exp_lanes) or in the
  // portable loops (deterministic_exp).
  expect_kernels_agree(hamon::make_lattice({6, 10}, true, hamon::ValueDistribution::gaussian(3),
                                           hamon::ValueDistribution::gaussian(4, 0.7)),
                       false, false);
}

TEST(TEST_CATEGORY, host_kernels_agree_on_potts_models) {
  // q-state sweeps and energies, as above (every state in [0, q) too): a q = 3 lattice
  // ferromagnet with integer fields (weight tables), a q = 5 Gaussian glass with drawn
  // fields (exp) and a graph with integer general matrices and clamps.
  hamon::PottsFields integer;
  integer.uniform = {1.0, 0.0, -2.0};
  hamon::PottsFields drawn;
  drawn.drawn = hamon::ValueDistribution::gaussian(4, 0.7);
  std::vector<hamon::CouplingMatrix> matrices;
  for (std::int64_t i = 0; i < 40; ++i) {
    std::vector<double> w(9);
    for (std::size_t k = 0; k < 9; ++k)
      w[k] = static_cast<double>((k * 3 + static_cast<std::size_t>(i)) % 5) - 2.0;
    matrices.push_back({i, (i + 1) % 40, w});
  }
  expect_kernels_agree(
      hamon::make_potts_lattice({6, 8}, true, 3, hamon::ValueDistribution::constant(1.0), integer),
      true);
  expect_kernels_agree(
      hamon::make_potts_lattice({6, 10}, true, 5, hamon::ValueDistribution::gaussian(3), drawn),
      false, false);
  expect_kernels_agree(hamon::SpinModel::potts(40, 3, {{0, 20, 1.0}, {5, 25, -1.0}}, {},
                                               {{3, 1}, {30, 2}}, matrices),
                       false);
}

}  // namespace
