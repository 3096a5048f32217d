// SPDX-License-Identifier: Apache-2.0
// SpinModel: validation, edge normalisation, CRS layout, clamps, blocks and energy.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
#include <limits>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "expect_model_error.hpp"
#include "hamon/core/families/family_facts.hpp"
#include "hamon/core/model/spin_model.hpp"
#include "hamon/core/sampler/nrpt.hpp"

namespace {

using hamon::Clamp;
using hamon::Edge;
using hamon::LatticeShape;
using hamon::ModelError;
using hamon::SpinModel;

using hamon_test::expect_model_error;

/// Random couplings on a random graph; raw mt19937_64 outputs only (a fixed sequence).
std::vector<Edge> random_edges(std::int64_t n, std::size_t count, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<Edge> edges;
  while (edges.size() < count) {
    const auto i = static_cast<std::int64_t>(rng() % static_cast<std::uint64_t>(n));
    const auto j = static_cast<std::int64_t>(rng() % static_cast<std::uint64_t>(n));
    const double coupling = static_cast<double>(rng() % 1000) / 100.0 - 5.0;
    if (i != j) edges.push_back({i, j, coupling});
  }
  // A pair drawn again (in either orientation) repeats its first coupling, so the list has
  // identical duplicates to merge but no conflicting ones.
  for (std::size_t a = 0; a < edges.size(); ++a) {
    for (std::size_t b = 0; b < a; ++b) {
      if (std::min(edges[a].i, edges[a].j) == std::min(edges[b].i, edges[b].j) &&
          std::max(edges[a].i, edges[a].j) == std::max(edges[b].i, edges[b].j)) {
        edges[a].coupling = edges[b].coupling;
        break;
      }
    }
  }
  return edges;
}

TEST(SpinModel, EdgesAreSortedUniqueWithILessThanJ) {
  const auto model = SpinModel::from_edges(
      5, {{3, 1, 0.5}, {0, 4, -1.0}, {1, 3, 0.5}, {2, 0, 2.0}, {0, 2, 2.0}, {0, 4, -1.0}});
  ASSERT_EQ(model.n_edges(), 3);
  EXPECT_EQ(model.n_nodes(), 5);
  const auto& e = model.edges();
  EXPECT_EQ(e[0].i, 0);
  EXPECT_EQ(e[0].j, 2);
  EXPECT_EQ(e[0].coupling, 2.0);
  EXPECT_EQ(e[1].i, 0);
  EXPECT_EQ(e[1].j, 4);
  EXPECT_EQ(e[1].coupling, -1.0);
  EXPECT_EQ(e[2].i, 1);
  EXPECT_EQ(e[2].j, 3);
  EXPECT_EQ(e[2].coupling, 0.5);
}

TEST(SpinModel, CrsIsSymmetricAndSorted) {
  const std::int64_t n = 120;
  const auto model = SpinModel::from_edges(n, random_edges(n, 600, 7));
  const auto& offsets = model.row_offsets();
  const auto& cols = model.columns();
  const auto& vals = model.couplings();
  ASSERT_EQ(offsets.size(), static_cast<std::size_t>(n) + 1);
  EXPECT_EQ(offsets.front(), 0);
  EXPECT_EQ(offsets.back(), 2 * model.n_edges());
  ASSERT_EQ(cols.size(), static_cast<std::size_t>(offsets.back()));
  ASSERT_EQ(vals.size(), cols.size());

  const auto coupling_at = [&](std::int64_t row, std::int32_t col) -> std::optional<double> {
    const auto begin = cols.begin() + offsets[static_cast<std::size_t>(row)];
    const auto end = cols.begin() + offsets[static_cast<std::size_t>(row) + 1];
    const auto it = std::lower_bound(begin, end, col);
    if (it == end || *it != col) return std::nullopt;
    return vals[static_cast<std::size_t>(it - cols.begin())];
  };
  for (std::int64_t row = 0; row < n; ++row) {
    const auto r = static_cast<std::size_t>(row);
    for (auto k = offsets[r]; k < offsets[r + 1]; ++k) {
      const auto kk = static_cast<std::size_t>(k);
      if (k + 1 < offsets[r + 1]) {
        EXPECT_LT(cols[kk], cols[kk + 1]) << "row " << row;
      }
      EXPECT_NE(cols[kk], row);
      EXPECT_EQ(coupling_at(cols[kk], static_cast<std::int32_t>(row)), vals[kk]);
    }
  }
  for (const Edge& e : model.edges()) {
    EXPECT_LT(e.i, e.j);
    EXPECT_EQ(coupling_at(e.i, static_cast<std::int32_t>(e.j)), e.coupling);
  }
}

TEST(SpinModel, FieldsDefaultToZeroAndAreKept) {
  const auto zero = SpinModel::from_edges(3, {{0, 1, 1.0}});
  EXPECT_EQ(zero.fields(), (std::vector<double>{0.0, 0.0, 0.0}));
  const auto given = SpinModel::from_edges(3, {{0, 1, 1.0}}, {0.5, -1.0, 2.0});
  EXPECT_EQ(given.fields(), (std::vector<double>{0.5, -1.0, 2.0}));
}

TEST(SpinModel, IsolatedNodesAreValid) {
  const auto model = SpinModel::from_edges(4, {});
  EXPECT_EQ(model.n_edges(), 0);
  EXPECT_EQ(model.n_free(), 4);
  EXPECT_EQ(model.n_colours(), 1);
  EXPECT_EQ(model.block_offsets(), (std::vector<std::int64_t>{0, 4}));
  EXPECT_EQ(model.block_nodes(), (std::vector<std::int32_t>{0, 1, 2, 3}));
}

TEST(SpinModel, ClampsSetValuesAndLeaveBlocks) {
  // Path 0-1-2-3-4-5: greedy colours 0,1,0,1,0,1.
  const std::vector<Edge> path = {{0, 1, 1.0}, {1, 2, 1.0}, {2, 3, 1.0}, {3, 4, 1.0}, {4, 5, 1.0}};
  // The same clamp twice is accepted.
  const auto model = SpinModel::from_edges(6, path, {}, {{2, -1}, {5, 1}, {2, -1}});
  EXPECT_EQ(model.clamped(), (std::vector<std::int8_t>{0, 0, -1, 0, 0, 1}));
  EXPECT_EQ(model.n_free(), 4);
  EXPECT_EQ(model.n_colours(), 2);
  EXPECT_EQ(model.colour_of_node(), (std::vector<std::int32_t>{0, 1, 0, 1, 0, 1}));
  // Blocks hold free nodes only, ascending per colour.
  EXPECT_EQ(model.block_offsets(), (std::vector<std::int64_t>{0, 2, 4}));
  EXPECT_EQ(model.block_nodes(), (std::vector<std::int32_t>{0, 4, 1, 3}));
}

TEST(SpinModel, AllClampedGivesEmptyBlocks) {
  const auto model = SpinModel::from_edges(2, {{0, 1, 1.0}}, {}, {{0, 1}, {1, -1}});
  EXPECT_EQ(model.n_free(), 0);
  EXPECT_EQ(model.n_colours(), 2);
  EXPECT_EQ(model.block_offsets(), (std::vector<std::int64_t>{0, 0, 0}));
  EXPECT_TRUE(model.block_nodes().empty());
}

TEST(SpinModel, BlocksPartitionFreeNodesByColour) {
  const std::int64_t n = 200;
  std::vector<Clamp> clamps;
  for (std::int64_t v = 0; v < n; v += 7) clamps.push_back({v, v % 2 == 0 ? 1 : -1});
  const auto model = SpinModel::from_edges(n, random_edges(n, 500, 11), {}, clamps);
  EXPECT_EQ(model.n_free(), n - static_cast<std::int64_t>(clamps.size()));
  ASSERT_EQ(model.block_offsets().size(), static_cast<std::size_t>(model.n_colours()) + 1);
  EXPECT_EQ(model.block_offsets().back(), model.n_free());
  std::vector<int> seen(static_cast<std::size_t>(n), 0);
  for (std::int32_t c = 0; c < model.n_colours(); ++c) {
    const auto begin = model.block_offsets()[static_cast<std::size_t>(c)];
    const auto end = model.block_offsets()[static_cast<std::size_t>(c) + 1];
    for (auto k = begin; k < end; ++k) {
      const auto v = static_cast<std::size_t>(model.block_nodes()[static_cast<std::size_t>(k)]);
      EXPECT_EQ(model.colour_of_node()[v], c);
      EXPECT_EQ(model.clamped()[v], 0);
      if (k > begin) {
        EXPECT_LT(model.block_nodes()[static_cast<std::size_t>(k) - 1],
                  static_cast<std::int32_t>(v));
      }
      ++seen[v];
    }
  }
  for (std::size_t v = 0; v < seen.size(); ++v) {
    EXPECT_EQ(seen[v], model.clamped()[v] == 0 ? 1 : 0) << "node " << v;
  }
}

TEST(SpinModelValidation, NodeCount) {
  expect_model_error([] { SpinModel::from_edges(0, {}); }, {"n_nodes = 0"});
  expect_model_error([] { SpinModel::from_edges(-3, {}); }, {"n_nodes = -3"});
  const std::int64_t too_many = std::int64_t{std::numeric_limits<std::int32_t>::max()} + 1;
  expect_model_error([&] { SpinModel::from_edges(too_many, {}); },
                     {std::to_string(too_many), "int32"});
}

TEST(SpinModelValidation, SelfLoop) {
  expect_model_error(
      [] {
        SpinModel::from_edges(8, {{0, 1, 1.0}, {1, 2, 1.0}, {2, 3, 1.0}, {5, 5, 1.0}});
      },
      {"edge 3 (5, 5): self-loop"});
}

TEST(SpinModelValidation, EndpointOutOfRange) {
  std::vector<Edge> edges(7, Edge{0, 1, 1.0});
  edges.push_back({2, 9, 1.0});
  expect_model_error([&] { SpinModel::from_edges(8, edges); },
                     {"edge 7 (2, 9): node 9 out of range [0, 8)"});
  expect_model_error(
      [] {
        SpinModel::from_edges(8, {{-1, 3, 1.0}});
      },
      {"edge 0 (-1, 3): node -1 out of range [0, 8)"});
}

TEST(SpinModelValidation, ConflictingDuplicateEdge) {
  expect_model_error(
      [] {
        SpinModel::from_edges(4, {{1, 2, 1.0}, {0, 3, 1.0}, {2, 1, -1.0}});
      },
      {"(1, 2)", "different couplings 1 and -1", "edges 0 and 2"});
}

TEST(SpinModelValidation, NonFiniteCouplingAndField) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double inf = std::numeric_limits<double>::infinity();
  expect_model_error(
      [&] {
        SpinModel::from_edges(3, {{0, 1, 1.0}, {1, 2, nan}});
      },
      {"edge 1 (1, 2)", "NaN"});
  expect_model_error([&] { SpinModel::from_edges(3, {{0, 1, -inf}}); }, {"edge 0 (0, 1)", "-Inf"});
  expect_model_error(
      [&] {
        SpinModel::from_edges(6, {}, {0, 0, 0, 0, nan, 0});
      },
      {"field of node 4 is NaN"});
  expect_model_error(
      [&] {
        SpinModel::from_edges(3, {}, {inf, 0, 0});
      },
      {"field of node 0 is Inf"});
}

TEST(SpinModelValidation, FieldLength) {
  expect_model_error([] { SpinModel::from_edges(3, {}, {1.0, 2.0}); }, {"2 entries", "3 nodes"});
}

TEST(SpinModelValidation, Clamps) {
  expect_model_error(
      [] {
        SpinModel::from_edges(5, {}, {}, {{3, 2}});
      },
      {"clamp of node 3: value 2 is not +1 or -1"});
  expect_model_error(
      [] {
        SpinModel::from_edges(5, {}, {}, {{3, 0}});
      },
      {"clamp of node 3: value 0"});
  expect_model_error(
      [] {
        SpinModel::from_edges(5, {}, {}, {{0, 1}, {7, 1}});
      },
      {"clamp 1: node 7 out of range [0, 5)"});
  expect_model_error(
      [] {
        SpinModel::from_edges(5, {}, {}, {{3, 1}, {1, 1}, {3, -1}});
      },
      {"node 3 clamped twice", "1 and -1", "clamps 0 and 2"});
}

TEST(SpinModelBlocks, UserBlocksReplaceTheColouring) {
  // A 4-cycle 0-1-2-3-0 with a valid 3-block split (node 3 alone).
  const auto cycle =
      SpinModel::from_edges(4, {{0, 1, 1.0}, {1, 2, 1.0}, {2, 3, 1.0}, {3, 0, 1.0}}, {}, {{2, 1}});
  const auto model = cycle.with_blocks({0, 1, 0, 2});
  EXPECT_EQ(model.n_colours(), 3);
  EXPECT_EQ(model.colour_of_node(), (std::vector<std::int32_t>{0, 1, 0, 2}));
  // Node 2 is clamped, so block 0 holds node 0 only.
  EXPECT_EQ(model.block_offsets(), (std::vector<std::int64_t>{0, 1, 2, 3}));
  EXPECT_EQ(model.block_nodes(), (std::vector<std::int32_t>{0, 1, 3}));
  // The original is unchanged, the rest of the model carried over.
  EXPECT_EQ(cycle.n_colours(), 2);
  EXPECT_EQ(model.edges().size(), cycle.edges().size());
  EXPECT_EQ(model.clamped(), cycle.clamped());
  EXPECT_EQ(model.n_free(), 3);
}

TEST(SpinModelBlocks, Validation) {
  const auto path = SpinModel::from_edges(4, {{0, 1, 1.0}, {1, 2, 1.0}, {2, 3, 1.0}});
  expect_model_error(
      [&] {
        (void)path.with_blocks({0, 1, 1, 0});
      },
      {"edge (1, 2) lies inside block 1"});
  expect_model_error([&] { (void)path.with_blocks({0, 1, 0}); }, {"3 entries", "4 nodes"});
  expect_model_error([&] { (void)path.with_blocks({0, -1, 0, 1}); }, {"node 1", "block -1"});
  expect_model_error([&] { (void)path.with_blocks({0, 2, 0, 2}); }, {"block 1 has no node"});
  expect_model_error([&] { (void)path.with_blocks({0, 1, 0, 9}); }, {"node 3", "block 9"});
}

TEST(SpinModelLattice, ShapeIsStoredAndChecked) {
  const auto model = SpinModel::from_edges(12, {});
  EXPECT_FALSE(model.lattice_shape().has_value());
  const auto shaped = model.with_lattice_shape(LatticeShape{{3, 4}, false});
  ASSERT_TRUE(shaped.lattice_shape().has_value());
  EXPECT_EQ(shaped.lattice_shape()->extents, (std::vector<int>{3, 4}));
  EXPECT_FALSE(shaped.lattice_shape()->periodic);
  expect_model_error(
      [&] {
        (void)model.with_lattice_shape(LatticeShape{{3, 5}, true});
      },
      {"lattice shape 3x5", "12 nodes"});
  expect_model_error(
      [&] {
        (void)model.with_lattice_shape(LatticeShape{{12}, true});
      },
      {"2 or 3 extents"});
}

TEST(SpinModelEnergy, HandComputedCase) {
  // h = (0.5, 0, -1), J01 = 1.5, J12 = -2 (given as (2, 1)).
  const auto model = SpinModel::from_edges(3, {{0, 1, 1.5}, {2, 1, -2.0}}, {0.5, 0.0, -1.0});
  // s = (+1, +1, -1): sum h s = 0.5 + 0 + 1 = 1.5; sum J s s = 1.5 + 2 = 3.5; E = -5.
  EXPECT_DOUBLE_EQ(model.energy({1, 1, -1}), -5.0);
  // s = (+1, -1, +1): sum h s = -0.5; sum J s s = -1.5 + 2 = 0.5; E = 0.
  EXPECT_DOUBLE_EQ(model.energy({1, -1, 1}), 0.0);
  // s = (-1, -1, -1): sum h s = 0.5; sum J s s = 1.5 - 2 = -0.5; E = 0.
  EXPECT_DOUBLE_EQ(model.energy({-1, -1, -1}), 0.0);
  // Flipping every spin negates the field term only: E(-s) = E(s) + 2 sum h s.
  EXPECT_DOUBLE_EQ(model.energy({-1, -1, 1}), -5.0 + 2 * 1.5);
}

TEST(SpinModelEnergy, ClampedNodesUseTheirClampValue) {
  const auto model =
      SpinModel::from_edges(3, {{0, 1, 1.5}, {1, 2, -2.0}}, {0.5, 0.0, -1.0}, {{2, -1}});
  EXPECT_DOUBLE_EQ(model.energy({1, 1, -1}), -5.0);
  EXPECT_DOUBLE_EQ(model.energy({1, 1, 1}), -5.0);
  EXPECT_DOUBLE_EQ(model.energy({1, 1, 0}), -5.0);
}

TEST(SpinModelEnergy, RejectsBadConfigurations) {
  const auto model = SpinModel::from_edges(3, {{0, 1, 1.0}});
  expect_model_error([&] { (void)model.energy({1, 1}); }, {"2 spins", "3 nodes"});
  expect_model_error([&] { (void)model.energy({1, 0, 1}); }, {"node 1"});
}

// Potts models (SpinModel::potts).

TEST(PottsModelValidation, StateCount) {
  expect_model_error([] { SpinModel::potts(3, 1, {}); }, {"2 <= q <= 256", "q = 1"});
  expect_model_error([] { SpinModel::potts(3, 257, {}); }, {"q = 257"});
  expect_model_error([] { SpinModel::potts(3, -2, {}); }, {"q = -2"});
  EXPECT_EQ(SpinModel::potts(3, 256, {{0, 1, 1.0}}).n_states(), 256);
  EXPECT_EQ(SpinModel::potts(3, 2, {}).n_states(), 2);
  expect_model_error([] { SpinModel::potts(0, 3, {}); }, {"n_nodes = 0"});
}

TEST(PottsModelValidation, MatrixSizeAndValues) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double inf = std::numeric_limits<double>::infinity();
  expect_model_error(
      [] {
        SpinModel::potts(3, 3, {}, {}, {},
                         {{0, 1, std::vector<double>(9, 0.5)}, {1, 2, {1, 2, 3, 4}}});
      },
      {"coupling matrix 1 (1, 2)", "4 entries", "has 9"});
  expect_model_error([] { SpinModel::potts(3, 2, {}, {}, {}, {{0, 1, {}}}); }, {"0 entries"});
  expect_model_error(
      [&] {
        SpinModel::potts(3, 2, {}, {}, {}, {{2, 0, {0.0, 1.0, nan, 0.0}}});
      },
      {"coupling matrix 0 (2, 0)", "entry (1, 0) is NaN"});
  expect_model_error(
      [&] {
        SpinModel::potts(3, 2, {}, {}, {}, {{0, 1, {0.0, -inf, 0.0, 0.0}}});
      },
      {"entry (0, 1) is -Inf"});
  expect_model_error(
      [] {
        SpinModel::potts(3, 2, {}, {}, {}, {{0, 3, {0, 0, 0, 0}}});
      },
      {"node 3 out of range [0, 3)"});
  expect_model_error(
      [] {
        SpinModel::potts(3, 2, {}, {}, {}, {{1, 1, {0, 0, 0, 0}}});
      },
      {"self-loop"});
}

TEST(PottsModelValidation, EdgeInBothListsOrMatrixTwice) {
  const std::vector<double> w(4, 0.25);
  expect_model_error(
      [&] {
        SpinModel::potts(4, 2, {{0, 1, 1.0}, {2, 1, 0.5}}, {}, {}, {{1, 2, w}});
      },
      {"edge (1, 2)", "both as a Potts coupling and as a coupling matrix"});
  expect_model_error(
      [&] {
        SpinModel::potts(4, 2, {}, {}, {}, {{0, 3, w}, {3, 0, w}});
      },
      {"coupling matrix of edge (0, 3) given twice"});
  expect_model_error(
      [] {
        SpinModel::potts(4, 3, {{0, 1, 1.0}, {1, 0, 2.0}});
      },
      {"different couplings 1 and 2"});
}

TEST(PottsModelValidation, StateFieldsAndClamps) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  expect_model_error(
      [] {
        SpinModel::potts(2, 3, {}, {1, 2, 3, 4, 5});
      },
      {"5 entries", "2 nodes", "3 per node"});
  expect_model_error(
      [&] {
        SpinModel::potts(2, 3, {}, {0, 0, 0, 0, 0, nan});
      },
      {"field of node 1, state 2 is NaN"});
  expect_model_error(
      [] {
        SpinModel::potts(4, 3, {}, {}, {{2, 3}});
      },
      {"clamp of node 2: value 3 is not a state in [0, 3)"});
  expect_model_error([] { SpinModel::potts(4, 3, {}, {}, {{2, -1}}); }, {"value -1"});
  expect_model_error(
      [] {
        SpinModel::potts(4, 3, {}, {}, {{4, 0}});
      },
      {"clamp 0: node 4 out of range [0, 4)"});
  expect_model_error(
      [] {
        SpinModel::potts(4, 3, {}, {}, {{1, 0}, {1, 2}});
      },
      {"node 1 clamped twice", "0 and 2"});
  // State 0 is a clamp like any other (for Ising spins 0 is not a value at all).
  const auto model = SpinModel::potts(4, 3, {{0, 1, 1.0}}, {}, {{1, 0}, {3, 2}, {3, 2}});
  EXPECT_EQ(model.n_free(), 2);
  EXPECT_EQ(model.clamped_states(), (std::vector<std::int16_t>{-1, 0, -1, 2}));
  EXPECT_EQ(model.clamped(), (std::vector<std::int8_t>{0, 1, 0, 1}));
  EXPECT_EQ(model.block_offsets().back(), 2);
}

TEST(PottsModel, LayoutAndEdgeCouplings) {
  // A matrix given as (2, 0) is stored transposed as (0, 2); Potts-form edges read as J delta.
  const std::vector<double> w20 = {0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9};  // (x_2, x_0)
  const auto model = SpinModel::potts(3, 3, {{1, 0, -1.5}}, {}, {}, {{2, 0, w20}});
  EXPECT_TRUE(model.is_potts());
  EXPECT_FALSE(SpinModel::from_edges(2, {}).is_potts());
  ASSERT_EQ(model.n_edges(), 2);
  EXPECT_EQ(model.edges()[0].i, 0);
  EXPECT_EQ(model.edges()[0].j, 1);
  EXPECT_EQ(model.edges()[1].i, 0);
  EXPECT_EQ(model.edges()[1].j, 2);
  EXPECT_EQ(model.state_fields(), std::vector<double>(9, 0.0));
  for (int a = 0; a < 3; ++a) {
    for (int b = 0; b < 3; ++b) {
      EXPECT_EQ(model.edge_coupling(0, a, b), a == b ? -1.5 : 0.0);
      EXPECT_EQ(model.edge_coupling(1, a, b), w20[static_cast<std::size_t>(b * 3 + a)]);
    }
  }
  // CRS matrices are oriented (x_row, x_column): row 2's entry for column 0 is w20 itself.
  ASSERT_EQ(model.csr_matrices().size(), 4u * 9u);
  const auto& cols = model.columns();
  for (auto e = model.row_offsets()[2]; e < model.row_offsets()[3]; ++e) {
    ASSERT_EQ(cols[static_cast<std::size_t>(e)], 0);
    for (std::size_t k = 0; k < 9; ++k) {
      EXPECT_EQ(model.csr_matrices()[static_cast<std::size_t>(e) * 9 + k], w20[k]);
    }
  }
  // Only Potts-form edges: no matrices at all.
  EXPECT_TRUE(SpinModel::potts(3, 3, {{0, 1, 1.0}}).csr_matrices().empty());
}

TEST(PottsModelEnergy, HandComputedCase) {
  // q = 3; h_0 = (0.5, 0, -1), h_1 = 0, h_2 = (0, 0.25, 0); J_01 = 2 (Potts form);
  // W_12(x_1, x_2) general.
  const std::vector<double> fields = {0.5, 0.0, -1.0, 0, 0, 0, 0.0, 0.25, 0.0};
  const std::vector<double> w12 = {1, 2, 3, 4, 5, 6, 7, 8, 9};
  const auto model = SpinModel::potts(3, 3, {{0, 1, 2.0}}, fields, {}, {{1, 2, w12}});
  // x = (0, 0, 1): h = 0.5 + 0 + 0.25; J delta = 2; W_12(0, 1) = 2; E = -4.75.
  EXPECT_DOUBLE_EQ(model.potts_energy({0, 0, 1}), -4.75);
  // x = (2, 1, 0): h = -1 + 0 + 0; J delta = 0; W_12(1, 0) = 4; E = -3.
  EXPECT_DOUBLE_EQ(model.potts_energy({2, 1, 0}), -3.0);
  // energy() reads the bytes as states too.
  EXPECT_DOUBLE_EQ(model.energy({2, 1, 0}), -3.0);
  // magnitude: max|h_i| summed (1 + 0 + 0.25) plus max|W| per edge (2 + 9).
  EXPECT_DOUBLE_EQ(model.magnitude(), 12.25);
}

TEST(PottsModelEnergy, ClampedNodesTakeTheirStateAndBadStatesAreRefused) {
  const auto model = SpinModel::potts(3, 4, {{0, 1, 1.0}, {1, 2, -0.5}}, {}, {{1, 3}});
  EXPECT_DOUBLE_EQ(model.potts_energy({3, 0, 3}), -(1.0 - 0.5));
  EXPECT_DOUBLE_EQ(model.potts_energy({3, 3, 3}), -(1.0 - 0.5));
  EXPECT_DOUBLE_EQ(model.potts_energy({3, 200, 1}), -1.0);  // the clamped byte is ignored
  expect_model_error([&] { (void)model.potts_energy({0, 0}); }, {"2 states", "3 nodes"});
  expect_model_error(
      [&] {
        (void)model.potts_energy({0, 0, 4});
      },
      {"state of node 2 is 4", "q = 4"});
  expect_model_error(
      [] {
        (void)SpinModel::from_edges(2, {}).potts_energy({0, 1});
      },
      {"not a Potts model"});
}

TEST(IsingReference, LogZIsTheEnumeratedOneOfIndependentSpins) {
  // Three free spins and one clamped to -1: enumerate exp(beta sum_i h_i s_i), couplings
  // ignored (the reference is the fields alone).
  const auto model =
      SpinModel::from_edges(4, {{0, 1, 1.0}, {1, 3, -2.0}}, {0.7, -1.3, 0.0, 0.4}, {{3, -1}});
  const double beta = 1.7;
  double z = 0.0;
  for (int bits = 0; bits < 8; ++bits) {
    double field_sum = 0.4 * -1.0;
    for (int i = 0; i < 3; ++i) field_sum += model.fields()[i] * ((bits >> i) & 1 ? 1.0 : -1.0);
    z += std::exp(beta * field_sum);
  }
  EXPECT_NEAR(hamon::reference_log_z(model, beta), std::log(z), 1e-13);
  EXPECT_NEAR(hamon::reference_log_z(model, 0.0), 3.0 * std::log(2.0), 1e-15);
  // Fields far beyond exp's range: log 2 cosh x = |x| + log1p(exp(-2|x|)), no overflow.
  const auto strong = SpinModel::from_edges(2, {}, {1e4, -3e4});
  EXPECT_DOUBLE_EQ(hamon::reference_log_z(strong, 2.0), 8e4);
  expect_model_error([&] { hamon::reference_log_z(model, -1.0); }, {"beta", ">= 0"});
  const auto potts = SpinModel::potts(2, 3, {{0, 1, 1.0}});
  expect_model_error([&] { hamon::reference_log_z(potts, 1.0); }, {"Potts"});
}

TEST(IsingReference, OnlyIsingAndContinuousModelsAnneal) {
  // Each family's answer (family_facts: its abilities), as the CLI asks it of a host model.
  auto anneals = [](const hamon::NrptOptions& o, const SpinModel& model) {
    const hamon::FamilyFacts family = hamon::family_facts(model);
    return hamon::anneals(o, family.abilities.annealing, family.name);
  };
  const auto ising = SpinModel::from_edges(2, {{0, 1, 1.0}});
  const auto potts = SpinModel::potts(2, 3, {{0, 1, 1.0}});
  const auto gaussian = SpinModel::gaussian(2, {{0, 1, 0.1}}, {1.0, 1.0});
  hamon::NrptOptions o;
  EXPECT_FALSE(anneals(o, ising));  // automatic: uniform
  EXPECT_TRUE(anneals(o, gaussian));
  o.reference = hamon::AnnealingReference::independent;
  EXPECT_TRUE(anneals(o, ising));
  try {
    anneals(o, potts);
    ADD_FAILURE() << "a Potts model anneals";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("Potts"), std::string::npos) << e.what();
  }
  o.reference = hamon::AnnealingReference::none;
  EXPECT_FALSE(anneals(o, potts));
}

}  // namespace
