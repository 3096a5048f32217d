// SPDX-License-Identifier: Apache-2.0
// write_graph_file and lattice_from_graph: a model written out and read back is the same
// model, bit for bit (the exact oracle: model_fingerprint covers every coupling, field,
// clamp, weight and the colouring), for every kind a run directory's model.graph holds.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "expect_model_error.hpp"
#include "hamon/core/model/fingerprint.hpp"
#include "hamon/core/model/model_builders.hpp"

namespace {

using hamon::ContinuousKind;
using hamon::SpinModel;
using hamon::ValueDistribution;

/// `model` through write_graph_file and read_graph_file.
SpinModel written_and_read(const SpinModel& model) {
  const std::filesystem::path path =
      std::filesystem::temp_directory_path() /
      ("hamon_written_" + std::to_string(::testing::UnitTest::GetInstance()->random_seed()) + "_" +
       ::testing::UnitTest::GetInstance()->current_test_info()->name() + ".graph");
  {
    std::ofstream out(path);
    hamon::write_graph_file(out, model);
  }
  SpinModel read = hamon::read_graph_file(path.string());
  std::filesystem::remove(path);
  return read;
}

TEST(GraphFileWriter, IsingGraphWithClampsReadsBackBitForBit) {
  // Couplings and fields that 15 digits would not return, a -0 field (written: not the
  // default), and edges given out of order (the model sorts them).
  const std::vector<hamon::Edge> edges = {
      {3, 1, 0.1 + 0.2}, {0, 1, -1.0 / 3.0}, {2, 3, 1e-300}, {0, 2, 6.02214076e23}};
  const SpinModel model =
      SpinModel::from_edges(4, edges, {0.1, -0.0, 2.0 / 3.0, 0.0}, {{2, -1}, {0, 1}});
  const SpinModel read = written_and_read(model);
  EXPECT_EQ(hamon::model_fingerprint(read), hamon::model_fingerprint(model));
  EXPECT_TRUE(std::signbit(read.fields()[1]));
}

TEST(GraphFileWriter, PottsGraphWithClampsReadsBackBitForBit) {
  std::vector<double> fields(5 * 3, 0.0);
  fields[1] = 0.7;
  fields[14] = -1.0 / 7.0;
  const SpinModel model =
      SpinModel::potts(5, 3, {{0, 1, 1.5}, {1, 2, -0.25}, {3, 4, 1.0 / 9.0}}, fields, {{4, 2}});
  EXPECT_EQ(hamon::model_fingerprint(written_and_read(model)), hamon::model_fingerprint(model));
}

TEST(GraphFileWriter, ContinuousGraphsReadBackBitForBit) {
  const std::vector<hamon::Edge> edges = {{0, 1, 0.3}, {1, 2, -0.2}};
  const SpinModel gaussian =
      SpinModel::gaussian(3, edges, {2.0, 1.0 / 3.0 + 1.0, 4.0}, {0.1, 0, 0});
  const SpinModel well = SpinModel::double_well(3, edges, {1.0, 0.5, 1.0 / 3.0});
  EXPECT_EQ(hamon::model_fingerprint(written_and_read(gaussian)),
            hamon::model_fingerprint(gaussian));
  EXPECT_EQ(hamon::model_fingerprint(written_and_read(well)), hamon::model_fingerprint(well));
}

TEST(GraphFileWriter, PottsMatricesHaveNoLine) {
  const SpinModel model =
      SpinModel::potts(2, 2, {}, {}, {}, {hamon::CouplingMatrix{0, 1, {1.0, 0.0, 0.0, 2.0}}});
  std::ostringstream out;
  hamon_test::expect_model_error([&] { hamon::write_graph_file(out, model); }, {"matrices"});
}

// A lattice read back as a graph loses its shape (and, where the checkerboard is not the
// greedy colouring, its colouring); lattice_from_graph gives the lattice back whole.
TEST(LatticeFromGraph, RebuildsDrawnLatticesBitForBit) {
  const auto check = [](const SpinModel& lattice) {
    const auto& shape = *lattice.lattice_shape();
    const SpinModel rebuilt =
        hamon::lattice_from_graph(shape.extents, shape.periodic, written_and_read(lattice));
    EXPECT_EQ(hamon::model_fingerprint(rebuilt), hamon::model_fingerprint(lattice));
    ASSERT_TRUE(rebuilt.lattice_shape().has_value());
    EXPECT_EQ(rebuilt.lattice_shape()->extents, shape.extents);
    EXPECT_EQ(rebuilt.lattice_shape()->periodic, shape.periodic);
    EXPECT_EQ(rebuilt.n_colours(), lattice.n_colours());
  };
  check(hamon::make_lattice({6, 8}, true, ValueDistribution::gaussian(3),
                            ValueDistribution::gaussian(4, 0.5)));
  check(hamon::make_lattice({3, 4, 5}, true, ValueDistribution::pm_one(5)));
  check(hamon::make_lattice({4, 5}, false, ValueDistribution::gaussian(6)));
  hamon::PottsFields drawn;
  drawn.drawn = ValueDistribution::gaussian(8, 0.3);
  check(hamon::make_potts_lattice({6, 6}, true, 4, ValueDistribution::pm_one(7), drawn));
  const std::vector<double> weights = hamon::draw_node_values(
      ValueDistribution::gaussian(9, 0.1, 3.0), hamon::NodeValueKind::weight, 16);
  check(hamon::make_continuous_lattice(ContinuousKind::gaussian, {4, 4}, true,
                                       ValueDistribution::gaussian(10, 0.2), weights));
  check(hamon::make_continuous_lattice(ContinuousKind::double_well, {4, 4}, false,
                                       ValueDistribution::gaussian(11, 0.2), weights,
                                       std::vector<double>(16, 0.25)));
}

TEST(LatticeFromGraph, RefusesAGraphThatIsNotTheLattice) {
  const SpinModel lattice = hamon::make_lattice({4, 4}, true, ValueDistribution::gaussian(3));
  hamon_test::expect_model_error(
      [&] {
        (void)hamon::lattice_from_graph({4, 5}, true, lattice);
      },
      {"16 nodes, the lattice 20"});
  hamon_test::expect_model_error(
      [&] {
        (void)hamon::lattice_from_graph({4, 4}, false, lattice);
      },
      {"32 edges, the lattice 24"});
  // Same node and edge counts, other edges: a 16-cycle plus chords is not the torus.
  std::vector<hamon::Edge> ring;
  for (std::int64_t i = 0; i < 16; ++i) ring.push_back({i, (i + 1) % 16, 1.0});
  for (std::int64_t i = 0; i < 16; ++i) ring.push_back({i, (i + 5) % 16, 1.0});
  hamon_test::expect_model_error(
      [&] {
        (void)hamon::lattice_from_graph({4, 4}, true, SpinModel::from_edges(16, ring));
      },
      {"is not an edge of the graph"});
  hamon_test::expect_model_error(
      [&] {
        (void)hamon::lattice_from_graph({4, 4}, true,
                                        SpinModel::from_edges(16, lattice.edges(), {}, {{0, 1}}));
      },
      {"clamps"});
}

}  // namespace
