// SPDX-License-Identifier: Apache-2.0
// Builders: lattices (couplings and fields from a seed), RBMs, graph files, and models from
// an application's Views.
#include <gtest/gtest.h>

#include <Kokkos_Core.hpp>
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <functional>
#include <limits>
#include <set>
#include <string>
#include <vector>

#include "expect_model_error.hpp"
#include "hamon/core/model/device_model.hpp"
#include "hamon/core/model/fingerprint.hpp"
#include "hamon/core/model/model_builders.hpp"
#include "hamon/core/model/model_from_views.hpp"
#include "hamon/core/model/spin_model.hpp"

namespace {

using hamon::ModelError;
using hamon::SpinModel;
using hamon::ValueDistribution;

using hamon_test::expect_model_error;

std::vector<double> edge_couplings(const SpinModel& model) {
  std::vector<double> values;
  for (const auto& e : model.edges()) values.push_back(e.coupling);
  return values;
}

std::int64_t degree(const SpinModel& model, std::size_t node) {
  return model.row_offsets()[node + 1] - model.row_offsets()[node];
}

double mean_of(const std::vector<double>& v) {
  double sum = 0.0;
  for (const double x : v) sum += x;
  return sum / static_cast<double>(v.size());
}

double std_dev_of(const std::vector<double>& v) {
  const double mean = mean_of(v);
  double sum = 0.0;
  for (const double x : v) sum += (x - mean) * (x - mean);
  return std::sqrt(sum / static_cast<double>(v.size() - 1));
}

// ------------------------------------------------------------------------------ lattices

TEST(Lattice, EdgeCounts) {
  for (const std::int64_t L : {3, 4, 5, 8}) {
    const int l = static_cast<int>(L);
    EXPECT_EQ(hamon::make_lattice({l, l}, true).n_edges(), 2 * L * L) << "L=" << L;
    EXPECT_EQ(hamon::make_lattice({l, l}, false).n_edges(), 2 * L * (L - 1)) << "L=" << L;
    EXPECT_EQ(hamon::make_lattice({l, l, l}, true).n_edges(), 3 * L * L * L) << "L=" << L;
    EXPECT_EQ(hamon::make_lattice({l, l, l}, false).n_edges(), 3 * L * L * (L - 1)) << "L=" << L;
  }
  // Rectangular open 2x5: 1*5 vertical + 2*4 horizontal bonds.
  EXPECT_EQ(hamon::make_lattice({2, 5}, false).n_edges(), 13);
  EXPECT_EQ(hamon::make_lattice({1, 1}, false).n_edges(), 0);
}

TEST(Lattice, NeighboursAndShape) {
  const SpinModel periodic = hamon::make_lattice({4, 6}, true);
  EXPECT_EQ(periodic.n_nodes(), 24);
  for (std::size_t v = 0; v < 24; ++v) EXPECT_EQ(degree(periodic, v), 4);
  // Node (0, 0) = 0 neighbours (0, 1) = 1, (0, 5) = 5, (1, 0) = 6, (3, 0) = 18.
  const std::vector<std::int32_t> first_row(periodic.columns().begin(),
                                            periodic.columns().begin() + 4);
  EXPECT_EQ(first_row, (std::vector<std::int32_t>{1, 5, 6, 18}));
  ASSERT_TRUE(periodic.lattice_shape().has_value());
  EXPECT_EQ(periodic.lattice_shape()->extents, (std::vector<int>{4, 6}));
  EXPECT_TRUE(periodic.lattice_shape()->periodic);

  const SpinModel cube = hamon::make_lattice({3, 4, 5}, true);
  for (std::size_t v = 0; v < 60; ++v) EXPECT_EQ(degree(cube, v), 6);

  const SpinModel open = hamon::make_lattice({3, 3}, false);
  EXPECT_EQ(degree(open, 0), 2);  // corner
  EXPECT_EQ(degree(open, 1), 3);  // edge
  EXPECT_EQ(degree(open, 4), 4);  // centre
  ASSERT_TRUE(open.lattice_shape().has_value());
  EXPECT_FALSE(open.lattice_shape()->periodic);
}

TEST(Lattice, CheckerboardBlocksWhenProper) {
  const SpinModel model = hamon::make_lattice({4, 4}, true);
  EXPECT_EQ(model.n_colours(), 2);
  EXPECT_EQ(model.block_offsets(), (std::vector<std::int64_t>{0, 8, 16}));
  for (std::size_t v = 0; v < 16; ++v) {
    EXPECT_EQ(model.colour_of_node()[v], static_cast<std::int32_t>((v / 4 + v % 4) % 2));
  }
  EXPECT_EQ(hamon::make_lattice({3, 5, 2}, false).n_colours(), 2);
  EXPECT_GT(hamon::make_lattice({5, 5}, true).n_colours(), 2);
}

TEST(Lattice, ConstantCouplingsAndFields) {
  const SpinModel model = hamon::make_lattice({3, 3}, true, ValueDistribution::constant(-0.5),
                                              ValueDistribution::constant(0.25));
  for (const double j : edge_couplings(model)) EXPECT_EQ(j, -0.5);
  for (const double h : model.fields()) EXPECT_EQ(h, 0.25);
  // Defaults: ferromagnet J = 1 in zero field.
  const SpinModel ferro = hamon::make_lattice({3, 3}, true);
  for (const double j : edge_couplings(ferro)) EXPECT_EQ(j, 1.0);
  for (const double h : ferro.fields()) EXPECT_EQ(h, 0.0);
}

TEST(Lattice, PlusMinusJIsReproducibleFromTheSeed) {
  const auto build = [](std::uint64_t seed, double magnitude) {
    return edge_couplings(
        hamon::make_lattice({32, 32}, true, ValueDistribution::pm_one(seed, magnitude)));
  };
  const std::vector<double> a = build(17, 1.0);
  ASSERT_EQ(a.size(), 2048u);
  std::size_t positive = 0;
  for (const double j : a) {
    EXPECT_TRUE(j == 1.0 || j == -1.0) << j;
    positive += j > 0 ? 1 : 0;
  }
  // Fraction of +1 over 2048 fair signs: std 0.5/sqrt(2048) = 0.011; 0.06 is over 5 sigma.
  EXPECT_NEAR(static_cast<double>(positive) / 2048.0, 0.5, 0.06);
  EXPECT_EQ(build(17, 1.0), a);
  EXPECT_NE(build(18, 1.0), a);
  for (const double j : build(17, 0.5)) EXPECT_TRUE(j == 0.5 || j == -0.5) << j;
}

TEST(Lattice, GaussianCouplingsHaveTheRequestedMoments) {
  const double mean = 0.3;
  const double std_dev = 2.0;
  for (const std::uint64_t seed : {1u, 99u}) {
    const std::vector<double> j = edge_couplings(
        hamon::make_lattice({64, 64}, true, ValueDistribution::gaussian(seed, std_dev, mean)));
    ASSERT_EQ(j.size(), 8192u);
    // n = 8192 draws: the sample mean has standard error 2 / sqrt(8192) = 0.022 and the
    // sample std about 2 / sqrt(2 * 8192) = 0.016. Tolerances of 5 standard errors, so a
    // correct generator passes for essentially every seed while a wrong scale (e.g. the
    // variance used as std) or a shifted mean fails.
    EXPECT_NEAR(mean_of(j), mean, 5 * 0.022) << "seed " << seed;
    EXPECT_NEAR(std_dev_of(j), std_dev, 5 * 0.016) << "seed " << seed;
    // Continuous values: no two couplings coincide.
    EXPECT_EQ(std::set<double>(j.begin(), j.end()).size(), j.size());
  }
  const auto again = [](std::uint64_t seed) {
    return edge_couplings(hamon::make_lattice({8, 8}, true, ValueDistribution::gaussian(seed)));
  };
  EXPECT_EQ(again(5), again(5));
  EXPECT_NE(again(5), again(6));
}

TEST(Lattice, RandomFieldsUseTheirOwnStream) {
  // Same seed for couplings and fields: the values must still be unrelated.
  const SpinModel model = hamon::make_lattice({16, 16}, true, ValueDistribution::gaussian(7),
                                              ValueDistribution::gaussian(7, 0.5, 1.0));
  const std::vector<double> j = edge_couplings(model);
  const std::set<double> couplings(j.begin(), j.end());
  for (const double h : model.fields()) {
    EXPECT_EQ(couplings.count(h), 0u);
    EXPECT_EQ(couplings.count((h - 1.0) / 0.5), 0u);  // not the same draws rescaled
  }
  // n = 256 fields, std error of the mean 0.5 / 16 = 0.031; 5 sigma.
  EXPECT_NEAR(mean_of(model.fields()), 1.0, 5 * 0.031);
  const SpinModel again = hamon::make_lattice({16, 16}, true, ValueDistribution::gaussian(7),
                                              ValueDistribution::gaussian(7, 0.5, 1.0));
  EXPECT_EQ(again.fields(), model.fields());

  const SpinModel pm = hamon::make_lattice({8, 8}, false, ValueDistribution::constant(1.0),
                                           ValueDistribution::pm_one(3, 0.1));
  const std::set<double> h(pm.fields().begin(), pm.fields().end());
  EXPECT_EQ(h, (std::set<double>{-0.1, 0.1}));
}

TEST(Lattice, Validation) {
  expect_model_error([] { hamon::make_lattice({8}, true); }, {"2 or 3 extents, got 1"});
  expect_model_error([] { hamon::make_lattice({4, 4, 4, 4}, false); }, {"got 4"});
  expect_model_error(
      [] {
        hamon::make_lattice({4, 2}, true);
      },
      {"extent 2 of dimension 1", "periodic", ">= 3"});
  expect_model_error(
      [] {
        hamon::make_lattice({0, 4}, false);
      },
      {"extent 0 of dimension 0", "open", ">= 1"});
  expect_model_error([] { hamon::make_lattice({100000, 100000, 100000}, true); }, {"int32"});
  expect_model_error(
      [] {
        hamon::make_lattice({4, 4}, true, ValueDistribution::gaussian(1, -1.0));
      },
      {"coupling", "negative"});
  expect_model_error(
      [] {
        hamon::make_lattice({4, 4}, true, ValueDistribution::constant(1.0),
                            ValueDistribution::constant(std::nan("")));
      },
      {"field", "finite"});
}

// ---------------------------------------------------------------------------------- RBMs

TEST(Rbm, BipartiteWithGivenWeightsAndBiases) {
  const std::vector<double> w = {0.1, 0.2, 0.3, 0.4, 0.5, 0.6};  // 3 visible x 2 hidden
  const SpinModel rbm = hamon::make_rbm({3, 2, w, {1.0, 2.0, 3.0}, {-1.0, -2.0}});
  EXPECT_EQ(rbm.n_nodes(), 5);
  EXPECT_EQ(rbm.n_edges(), 6);
  for (const auto& e : rbm.edges()) {
    ASSERT_LT(e.i, 3);  // visible
    ASSERT_GE(e.j, 3);  // hidden
    EXPECT_EQ(e.coupling, w[static_cast<std::size_t>(e.i * 2 + (e.j - 3))]);
  }
  EXPECT_EQ(rbm.fields(), (std::vector<double>{1.0, 2.0, 3.0, -1.0, -2.0}));
  EXPECT_EQ(rbm.colour_of_node(), (std::vector<std::int32_t>{0, 0, 0, 1, 1}));
  EXPECT_EQ(rbm.n_free(), 5);
  EXPECT_FALSE(rbm.lattice_shape().has_value());
  // Empty biases are zero.
  const SpinModel plain = hamon::make_rbm({3, 2, w, {}, {}});
  EXPECT_EQ(plain.fields(), std::vector<double>(5, 0.0));
}

TEST(Rbm, ClampedVisibleLayer) {
  const std::vector<double> w(4 * 3, 0.5);
  const SpinModel rbm = hamon::make_rbm({4, 3, w, {}, {}}, {1, -1, -1, 1});
  EXPECT_EQ(rbm.clamped(), (std::vector<std::int8_t>{1, -1, -1, 1, 0, 0, 0}));
  EXPECT_EQ(rbm.n_free(), 3);
  // Only the hidden layer is ever updated.
  EXPECT_EQ(rbm.block_offsets(), (std::vector<std::int64_t>{0, 0, 3}));
  EXPECT_EQ(rbm.block_nodes(), (std::vector<std::int32_t>{4, 5, 6}));
}

TEST(Rbm, Validation) {
  expect_model_error([] { hamon::make_rbm({0, 2, {}, {}, {}}); }, {"0 visible"});
  expect_model_error(
      [] {
        hamon::make_rbm({2, 2, {1.0, 2.0, 3.0}, {}, {}});
      },
      {"weights", "3", "4"});
  expect_model_error(
      [] {
        hamon::make_rbm({2, 2, std::vector<double>(4, 1.0), {1.0}, {}});
      },
      {"visible_bias"});
  expect_model_error(
      [] {
        hamon::make_rbm({2, 2, std::vector<double>(4, 1.0), {}, {1, 2, 3}});
      },
      {"hidden_bias"});
  expect_model_error(
      [] {
        hamon::make_rbm({2, 2, std::vector<double>(4, 1.0), {}, {}}, {1});
      },
      {"clamped_visible"});
  expect_model_error(
      [] {
        hamon::make_rbm({2, 2, std::vector<double>(4, 1.0), {}, {}}, {1, 0});
      },
      {"clamp of node 1: value 0"});
  expect_model_error(
      [] {
        hamon::make_rbm({2, 2, {1.0, 1.0, std::nan(""), 1.0}, {}, {}});
      },
      {"weight 2", "visible 1, hidden 0"});
  expect_model_error([] { hamon::make_rbm({std::int64_t{1} << 31, 1, {}, {}, {}}); }, {"int32"});
  expect_model_error(
      [] {
        hamon::make_rbm({std::numeric_limits<std::int64_t>::max(), 1, {}, {}, {}});
      },
      {"int32"});
}

TEST(Rbm, RandomRbmIsReproducible) {
  const auto build = [](std::uint64_t seed) {
    return hamon::make_rbm(hamon::random_rbm(6, 4, ValueDistribution::pm_one(seed, 0.25),
                                             ValueDistribution::gaussian(seed, 0.1)));
  };
  const SpinModel a = build(3);
  EXPECT_EQ(a.n_nodes(), 10);
  EXPECT_EQ(a.n_edges(), 24);
  const std::vector<double> w = edge_couplings(a);
  EXPECT_EQ(std::set<double>(w.begin(), w.end()), (std::set<double>{-0.25, 0.25}));
  EXPECT_EQ(edge_couplings(build(3)), w);
  EXPECT_EQ(build(3).fields(), a.fields());
  EXPECT_NE(edge_couplings(build(4)), w);
  EXPECT_NE(build(4).fields(), a.fields());
  EXPECT_EQ(a.n_colours(), 2);
}

// ---------------------------------------------------------------------------- graph files

/// A graph file in the temp directory, removed when the test ends.
class GraphFile {
 public:
  explicit GraphFile(const std::string& text) {
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    path_ = std::filesystem::temp_directory_path() /
            (std::string("hamon_") + info->name() + "_" + std::to_string(counter_++) + ".graph");
    std::ofstream(path_) << text;
  }
  ~GraphFile() {
    std::error_code ignored;
    std::filesystem::remove(path_, ignored);
  }
  GraphFile(const GraphFile&) = delete;
  GraphFile& operator=(const GraphFile&) = delete;
  std::string path() const { return path_.string(); }

 private:
  static inline int counter_ = 0;
  std::filesystem::path path_;
};

void expect_file_error(const std::string& text, std::size_t line, const std::string& fragment) {
  const GraphFile file(text);
  expect_model_error([&] { hamon::read_graph_file(file.path()); },
                     {file.path() + ":" + std::to_string(line) + ": ", fragment});
}

TEST(GraphFile, ReadsDirectivesCommentsAndBlankLines) {
  const GraphFile file(
      "# a 4-node example\n"
      "\n"
      "nodes 4   # trailing comment\n"
      "edge 0 1 1.5\n"
      "edge 2 1 -2e-1\r\n"
      "  edge 3 0 +0.25\n"
      "edge 1 0 1.5\n"
      "field 2 0.5\n"
      "field 2 0.5\n"
      "clamp 3 +1\n"
      "clamp 0 -1\n");
  const SpinModel model = hamon::read_graph_file(file.path());
  EXPECT_EQ(model.n_nodes(), 4);
  ASSERT_EQ(model.n_edges(), 3);
  EXPECT_EQ(model.edges()[0].i, 0);
  EXPECT_EQ(model.edges()[0].j, 1);
  EXPECT_EQ(model.edges()[0].coupling, 1.5);
  EXPECT_EQ(model.edges()[1].i, 0);
  EXPECT_EQ(model.edges()[1].j, 3);
  EXPECT_EQ(model.edges()[1].coupling, 0.25);
  EXPECT_EQ(model.edges()[2].i, 1);
  EXPECT_EQ(model.edges()[2].j, 2);
  EXPECT_EQ(model.edges()[2].coupling, -0.2);
  EXPECT_EQ(model.fields(), (std::vector<double>{0.0, 0.0, 0.5, 0.0}));
  EXPECT_EQ(model.clamped(), (std::vector<std::int8_t>{-1, 0, 0, 1}));
  EXPECT_EQ(model.n_free(), 2);
}

TEST(GraphFile, MissingFile) {
  const std::string path =
      (std::filesystem::temp_directory_path() / "hamon_no_such.graph").string();
  expect_model_error([&] { hamon::read_graph_file(path); }, {path, "cannot open"});
  // A directory opens as a stream but cannot be read.
  const std::string dir = std::filesystem::temp_directory_path().string();
  expect_model_error([&] { hamon::read_graph_file(dir); }, {dir});
}

TEST(GraphFile, StructureErrors) {
  expect_file_error("# c\nedge 0 1 1\n", 2, "expected 'nodes N' before 'edge'");
  expect_file_error("nodes 3\nedge 0 1 1\nvertex 2\n", 3, "unknown directive 'vertex'");
  expect_file_error("nodes 3\nnodes 3\n", 2, "'nodes' given again");
  expect_file_error("nodes 0\n", 1, "node count 0");
  expect_file_error("nodes 3\nedge 0 1\n", 2, "edge I J COUPLING");
  expect_file_error("nodes 3\nedge 0 1 1 extra\n", 2, "got 4 argument(s)");
}

TEST(GraphFile, ValueErrors) {
  expect_file_error("nodes 3\n\nedge 0 1 abc\n", 3, "coupling 'abc' is not a number");
  expect_file_error("nodes 3\nedge 0 1.5 1\n", 2, "node '1.5' is not an integer");
  expect_file_error("nodes 3\nedge 0 1 nan\n", 2, "coupling 'nan' is not finite");
  expect_file_error("nodes 3\nfield 1 inf\n", 2, "field 'inf' is not finite");
  expect_file_error("nodes 3\nedge 0 1 .nan\n", 2, "coupling '.nan' is not finite");  // YAML's
  expect_file_error("nodes 8\nedge 2 9 1\n", 2, "node 9 out of range [0, 8)");
  expect_file_error("nodes 8\nedge 5 5 1\n", 2, "edge (5, 5): self-loop");
  expect_file_error("nodes 8\nclamp 3 2\n", 2, "clamp of node 3: value 2 is not +1 or -1");
}

TEST(GraphFile, ConflictErrors) {
  expect_file_error("nodes 4\nedge 1 2 1\nedge 0 3 1\nedge 2 1 -1\n", 4,
                    "edge (1, 2) given again with coupling -1 (line 2 gave 1)");
  expect_file_error("nodes 4\nfield 1 0.5\nfield 1 0.25\n", 3,
                    "field of node 1 given again with a different value (first on line 2)");
  expect_file_error("nodes 4\nclamp 1 1\nclamp 1 -1\n", 3, "clamp of node 1 given again");
}

// ---------------------------------------------------------------------- Potts graph files

TEST(GraphFile, ReadsAPottsFile) {
  const GraphFile file(
      "# a 4-node q = 3 Potts graph\n"
      "nodes 4\n"
      "potts 3   # states 0, 1, 2\n"
      "edge 0 1 1.5\n"
      "edge 2 1 -0.5\n"
      "edge 1 0 1.5\n"
      "field 2 1 0.5\n"
      "field 2 1 0.5\n"
      "field 0 2 -0.25\n"
      "clamp 3 2\n"
      "clamp 1 0\n");
  const SpinModel model = hamon::read_graph_file(file.path());
  ASSERT_TRUE(model.is_potts());
  EXPECT_EQ(model.n_states(), 3);
  EXPECT_EQ(model.n_nodes(), 4);
  ASSERT_EQ(model.n_edges(), 2);
  EXPECT_EQ(model.edges()[0].i, 0);
  EXPECT_EQ(model.edges()[0].j, 1);
  EXPECT_EQ(model.edges()[0].coupling, 1.5);
  EXPECT_EQ(model.edges()[1].i, 1);
  EXPECT_EQ(model.edges()[1].j, 2);
  EXPECT_EQ(model.edges()[1].coupling, -0.5);
  std::vector<double> fields(12, 0.0);
  fields[2 * 3 + 1] = 0.5;
  fields[0 * 3 + 2] = -0.25;
  EXPECT_EQ(model.state_fields(), fields);
  EXPECT_EQ(model.clamped_states(), (std::vector<std::int16_t>{-1, 0, -1, 2}));
  EXPECT_EQ(model.n_free(), 2);
  // E = -(h_0(x_0) + h_2(x_2) + 1.5 delta(x_0, x_1) - 0.5 delta(x_1, x_2)), x_1 = 0, x_3 = 2.
  EXPECT_DOUBLE_EQ(model.potts_energy({0, 0, 0, 2}), -(1.5 - 0.5));
  EXPECT_DOUBLE_EQ(model.potts_energy({2, 0, 1, 2}), -(-0.25 + 0.5));
}

TEST(GraphFile, PottsFileMatchesSpinModelPotts) {
  const GraphFile file("nodes 3\npotts 4\nedge 0 1 1\nedge 1 2 2\nfield 1 3 0.75\n");
  const SpinModel model = hamon::read_graph_file(file.path());
  std::vector<double> fields(12, 0.0);
  fields[1 * 4 + 3] = 0.75;
  const SpinModel want = SpinModel::potts(3, 4, {{0, 1, 1.0}, {1, 2, 2.0}}, fields);
  EXPECT_EQ(model.n_states(), want.n_states());
  EXPECT_EQ(model.state_fields(), want.state_fields());
  EXPECT_EQ(model.couplings(), want.couplings());
  EXPECT_EQ(model.colour_of_node(), want.colour_of_node());
  // No field lines: all zero, as SpinModel::potts with empty fields.
  const GraphFile bare("nodes 2\npotts 2\nedge 0 1 1\n");
  const SpinModel two = hamon::read_graph_file(bare.path());
  EXPECT_TRUE(two.is_potts());
  EXPECT_EQ(two.n_states(), 2);
  EXPECT_EQ(two.state_fields(), std::vector<double>(4, 0.0));
}

TEST(GraphFile, WithoutPottsEverythingMeansWhatItMeant) {
  const GraphFile file("nodes 3\nedge 0 1 1\nfield 1 0.5\nclamp 2 -1\n");
  const SpinModel model = hamon::read_graph_file(file.path());
  EXPECT_FALSE(model.is_potts());
  EXPECT_EQ(model.fields(), (std::vector<double>{0.0, 0.5, 0.0}));
  EXPECT_EQ(model.clamped(), (std::vector<std::int8_t>{0, 0, -1}));
}

TEST(GraphFile, PottsErrors) {
  expect_file_error("nodes 3\nedge 0 1 1\npotts 3\n", 3,
                    "'potts q' must come right after the 'nodes N' line");
  expect_file_error("nodes 3\npotts 3\npotts 3\n", 3, "'potts' given again");
  expect_file_error("potts 3\nnodes 3\n", 1, "expected 'nodes N' before 'potts'");
  expect_file_error("nodes 3\npotts 1\n", 2, "state count 1 outside [2, 256]");
  expect_file_error("nodes 3\npotts 257\n", 2, "state count 257 outside [2, 256]");
  expect_file_error("nodes 3\npotts three\n", 2, "state count 'three' is not an integer");
  expect_file_error("nodes 3\npotts\n", 2, "expected 'potts Q'");
  expect_file_error("nodes 3\npotts 3\nfield 0 0.5\n", 3, "expected 'field I S H'");
  expect_file_error("nodes 3\npotts 3\nfield 0 3 0.5\n", 3, "state 3 out of range [0, 3)");
  expect_file_error("nodes 3\npotts 3\nfield 0 -1 0.5\n", 3, "state -1 out of range [0, 3)");
  expect_file_error("nodes 3\npotts 3\nfield 5 1 0.5\n", 3, "node 5 out of range [0, 3)");
  expect_file_error("nodes 3\npotts 3\nfield 0 1 nan\n", 3, "field 'nan' is not finite");
  expect_file_error("nodes 3\npotts 3\nfield 0 1 0.5\nfield 0 1 0.25\n", 4,
                    "field of node 0 in state 1 given again with a different value (first on "
                    "line 3)");
  expect_file_error("nodes 3\npotts 3\nclamp 1 3\n", 3, "state 3 out of range [0, 3)");
  expect_file_error("nodes 3\npotts 3\nclamp 1 -1\n", 3, "state -1 out of range [0, 3)");
  expect_file_error("nodes 3\npotts 3\nclamp 1 0\nclamp 1 2\n", 4, "clamp of node 1 given again");
  expect_file_error("nodes 3\npotts 3\nclamp 1 0 0\n", 3, "expected 'clamp I S'");
  expect_file_error("nodes 3\npotts 3\nedge 0 1 1\nedge 1 0 2\n", 4,
                    "edge (0, 1) given again with coupling 2");
}

TEST(GraphFile, NoNodesLine) {
  const GraphFile file("# only a comment\n\n");
  expect_model_error([&] { hamon::read_graph_file(file.path()); },
                     {file.path(), "no 'nodes N' line"});
}

TEST(ModelFromViews, IsTheModelOfItsEdgesAndFields) {
  // The same edges and fields as host vectors and as Views (of other value types): the
  // same model, bit for bit, and the DeviceModel made from it names it.
  const SpinModel lattice = hamon::make_lattice({4, 3}, true, ValueDistribution::gaussian(5),
                                                ValueDistribution::gaussian(6, 0.3));
  const auto n_edges = static_cast<std::size_t>(lattice.n_edges());
  const auto n_nodes = static_cast<std::size_t>(lattice.n_nodes());
  const Kokkos::DefaultHostExecutionSpace space;
  Kokkos::View<std::int32_t*, Kokkos::HostSpace> edge_i("i", n_edges), edge_j("j", n_edges);
  Kokkos::View<float*, Kokkos::HostSpace> unused("unused", 0);
  Kokkos::View<double*, Kokkos::HostSpace> couplings("J", n_edges), fields("h", n_nodes);
  for (std::size_t e = 0; e < n_edges; ++e) {
    edge_i(e) = static_cast<std::int32_t>(lattice.edges()[e].i);
    edge_j(e) = static_cast<std::int32_t>(lattice.edges()[e].j);
    couplings(e) = lattice.edges()[e].coupling;
  }
  for (std::size_t i = 0; i < n_nodes; ++i) fields(i) = lattice.fields()[i];
  const SpinModel from_views =
      hamon::spin_model_from_views(space, lattice.n_nodes(), edge_i, edge_j, couplings, fields);
  const SpinModel from_edges =
      SpinModel::from_edges(lattice.n_nodes(), lattice.edges(), lattice.fields());
  EXPECT_EQ(hamon::model_fingerprint(from_views), hamon::model_fingerprint(from_edges));
  EXPECT_EQ(hamon::make_device_model(space, from_views).fingerprint,
            hamon::model_fingerprint(from_edges));
  // No fields: an empty View.
  const SpinModel without_fields =
      hamon::spin_model_from_views(space, lattice.n_nodes(), edge_i, edge_j, couplings, unused);
  EXPECT_EQ(hamon::model_fingerprint(without_fields),
            hamon::model_fingerprint(SpinModel::from_edges(lattice.n_nodes(), lattice.edges())));
}

TEST(ModelFromViews, RefusesViewsOfUnequalLengthsAndInvalidEdges) {
  const Kokkos::DefaultHostExecutionSpace space;
  Kokkos::View<std::int64_t*, Kokkos::HostSpace> ends("ends", 2), shorter("shorter", 1);
  Kokkos::View<double*, Kokkos::HostSpace> couplings("J", 2), fields("h", 0);
  expect_model_error(
      [&] { hamon::spin_model_from_views(space, 3, ends, shorter, couplings, fields); },
      {"spin_model_from_views", "2, 1 and 2 entries"});
  Kokkos::View<std::int64_t*, Kokkos::HostSpace> others("others", 2);
  ends(0) = 0;
  ends(1) = 7;  // edges (0, 1) and (7, 2) in a 3-node model
  others(0) = 1;
  others(1) = 2;
  expect_model_error(
      [&] { hamon::spin_model_from_views(space, 3, ends, others, couplings, fields); }, {"7"});
}

}  // namespace
