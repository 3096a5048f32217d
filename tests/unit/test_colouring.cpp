// SPDX-License-Identifier: Apache-2.0
// Deterministic colourings: greedy (any graph) and checkerboard (lattices).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <set>
#include <vector>

#include "hamon/core/model/colouring.hpp"
#include "hamon/core/model/model_builders.hpp"
#include "hamon/core/model/spin_model.hpp"

namespace {

using hamon::Edge;
using hamon::SpinModel;

/// A random graph with about `n * mean_degree / 2` edges. Only raw mt19937_64 outputs are
/// used (their sequence is fixed by the standard, unlike <random>'s distributions).
SpinModel random_graph(std::int64_t n, int mean_degree, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<Edge> edges;
  const auto n_edges = static_cast<std::size_t>(n * mean_degree / 2);
  while (edges.size() < n_edges) {
    const auto i = static_cast<std::int64_t>(rng() % static_cast<std::uint64_t>(n));
    const auto j = static_cast<std::int64_t>(rng() % static_cast<std::uint64_t>(n));
    if (i != j) edges.push_back({i, j, 1.0});
  }
  return SpinModel::from_edges(n, edges);
}

/// True when no CRS edge joins two nodes of one colour.
bool is_proper(const SpinModel& model, const std::vector<std::int32_t>& colour) {
  for (std::size_t v = 0; v + 1 < model.row_offsets().size(); ++v) {
    for (auto k = model.row_offsets()[v]; k < model.row_offsets()[v + 1]; ++k) {
      const auto u = static_cast<std::size_t>(model.columns()[static_cast<std::size_t>(k)]);
      if (colour[u] == colour[v]) return false;
    }
  }
  return true;
}

std::int32_t count_colours(const std::vector<std::int32_t>& colour) {
  return static_cast<std::int32_t>(std::set<std::int32_t>(colour.begin(), colour.end()).size());
}

TEST(GreedyColouring, SmallGraphsGetSmallestColourInNodeOrder) {
  // Path 0-1-2-3 alternates.
  const auto path = SpinModel::from_edges(4, {{0, 1, 1.0}, {1, 2, 1.0}, {2, 3, 1.0}});
  EXPECT_EQ(hamon::greedy_colouring(path.row_offsets(), path.columns()),
            (std::vector<std::int32_t>{0, 1, 0, 1}));
  // A triangle needs three.
  const auto triangle = SpinModel::from_edges(3, {{0, 1, 1.0}, {1, 2, 1.0}, {0, 2, 1.0}});
  EXPECT_EQ(hamon::greedy_colouring(triangle.row_offsets(), triangle.columns()),
            (std::vector<std::int32_t>{0, 1, 2}));
  // Greedy in index order is not optimal: 0 and 1 both get 0, so 3 (next to 0 and 2) gets 2
  // although the graph is a path 1-2-3-0 and two colours would do.
  const auto order = SpinModel::from_edges(4, {{0, 3, 1.0}, {1, 2, 1.0}, {2, 3, 1.0}});
  EXPECT_EQ(hamon::greedy_colouring(order.row_offsets(), order.columns()),
            (std::vector<std::int32_t>{0, 0, 1, 2}));
  // Isolated nodes all share colour 0.
  const auto isolated = SpinModel::from_edges(5, {});
  EXPECT_EQ(hamon::greedy_colouring(isolated.row_offsets(), isolated.columns()),
            (std::vector<std::int32_t>(5, 0)));
}

TEST(GreedyColouring, ProperOnRandomGraphs) {
  for (const std::uint64_t seed : {1u, 2u, 3u, 4u, 5u}) {
    const SpinModel model = random_graph(300, 6, seed);
    const auto colour = hamon::greedy_colouring(model.row_offsets(), model.columns());
    ASSERT_EQ(colour.size(), 300u);
    EXPECT_TRUE(is_proper(model, colour)) << "seed " << seed;
    // Greedy never needs more than max degree + 1 colours.
    std::int64_t max_degree = 0;
    for (std::size_t v = 0; v < 300; ++v) {
      max_degree = std::max(max_degree, model.row_offsets()[v + 1] - model.row_offsets()[v]);
    }
    EXPECT_LE(count_colours(colour), max_degree + 1);
    // from_edges uses exactly this colouring.
    EXPECT_EQ(model.colour_of_node(), colour);
    EXPECT_EQ(model.n_colours(), count_colours(colour));
  }
}

TEST(GreedyColouring, Deterministic) {
  const SpinModel a = random_graph(500, 8, 42);
  const SpinModel b = random_graph(500, 8, 42);
  EXPECT_EQ(hamon::greedy_colouring(a.row_offsets(), a.columns()),
            hamon::greedy_colouring(a.row_offsets(), a.columns()));
  EXPECT_EQ(a.colour_of_node(), b.colour_of_node());
  EXPECT_EQ(a.block_offsets(), b.block_offsets());
  EXPECT_EQ(a.block_nodes(), b.block_nodes());
}

TEST(CheckerboardColouring, ParityOfCoordinateSum) {
  const auto colour = hamon::checkerboard_colouring({2, 4}, true);
  EXPECT_EQ(colour, (std::vector<std::int32_t>{0, 1, 0, 1, 1, 0, 1, 0}));
  const auto cube = hamon::checkerboard_colouring({2, 2, 2}, false);
  EXPECT_EQ(cube, (std::vector<std::int32_t>{0, 1, 1, 0, 1, 0, 0, 1}));
}

TEST(CheckerboardColouring, TwoColoursForEvenPeriodicAndOpenLattices) {
  const std::vector<std::pair<std::vector<int>, bool>> cases = {
      {{4, 4}, true},  {{8, 6}, true},     {{4, 4, 6}, true},
      {{3, 5}, false}, {{5, 5, 5}, false}, {{1, 7}, false}};
  for (const auto& [extents, periodic] : cases) {
    const auto colour = hamon::checkerboard_colouring(extents, periodic);
    const SpinModel lattice = hamon::make_lattice(extents, periodic);
    ASSERT_EQ(static_cast<std::int64_t>(colour.size()), lattice.n_nodes());
    EXPECT_EQ(count_colours(colour), 2);
    EXPECT_TRUE(is_proper(lattice, colour));
  }
}

TEST(CheckerboardColouring, EmptyWhenNotProperOrNotALattice) {
  EXPECT_TRUE(hamon::checkerboard_colouring({3, 3}, true).empty());
  EXPECT_TRUE(hamon::checkerboard_colouring({4, 5}, true).empty());
  EXPECT_TRUE(hamon::checkerboard_colouring({4, 4, 3}, true).empty());
  EXPECT_TRUE(hamon::checkerboard_colouring({}, false).empty());
  EXPECT_TRUE(hamon::checkerboard_colouring({4, 0}, false).empty());
  EXPECT_TRUE(hamon::checkerboard_colouring({4, -2}, true).empty());
}

TEST(LatticeColouring, CheckerboardWhenProperGreedyOtherwise) {
  const SpinModel even = hamon::make_lattice({6, 4}, true);
  EXPECT_EQ(even.n_colours(), 2);
  EXPECT_EQ(even.colour_of_node(), hamon::checkerboard_colouring({6, 4}, true));

  const SpinModel open = hamon::make_lattice({5, 3}, false);
  EXPECT_EQ(open.n_colours(), 2);
  EXPECT_EQ(open.colour_of_node(), hamon::checkerboard_colouring({5, 3}, false));

  // An odd periodic cycle is not bipartite: the greedy colouring is used.
  for (const auto& extents :
       {std::vector<int>{5, 5}, std::vector<int>{3, 4}, std::vector<int>{3, 3, 3}}) {
    const SpinModel odd = hamon::make_lattice(extents, true);
    EXPECT_GT(odd.n_colours(), 2);
    EXPECT_TRUE(is_proper(odd, odd.colour_of_node()));
    EXPECT_EQ(odd.colour_of_node(), hamon::greedy_colouring(odd.row_offsets(), odd.columns()));
  }
}

}  // namespace
