// SPDX-License-Identifier: Apache-2.0
// Validation and host-side layout of a SpinModel: sorted unique edges, symmetric CRS,
// clamps and the colour blocks every sweep walks through.
#include "hamon/core/model/spin_model.hpp"

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <cstddef>
#include <limits>
#include <numeric>
#include <tuple>

#include "hamon/core/model/colouring.hpp"
#include "hamon/core/model/detail/model_validation.hpp"
#include "hamon/core/util/text.hpp"

namespace hamon {

namespace {

using detail::pair_text;
using detail::range_text;

}  // namespace

double SpinModel::magnitude() const {
  if (potts_) return potts_magnitude();
  double sum = 0.0;
  for (double h : fields_) sum += std::abs(h);
  for (const Edge& e : edges_) sum += std::abs(e.coupling);
  return sum;
}

SpinModel SpinModel::from_edges(std::int64_t n_nodes, const std::vector<Edge>& edges,
                                const std::vector<double>& fields,
                                const std::vector<Clamp>& clamps) {
  detail::check_node_count(n_nodes);
  SpinModel model;
  model.edges_ = detail::normalise_edges(edges, n_nodes);
  model.fields_ =
      detail::checked_values(fields, static_cast<std::size_t>(n_nodes), "fields", "field");
  for (const int value : detail::checked_clamps(
           clamps, n_nodes, [](int v) { return v == 1 || v == -1; }, "+1 or -1", 0)) {
    model.clamped_.push_back(static_cast<std::int8_t>(value));
  }
  model.n_free_ = std::count(model.clamped_.begin(), model.clamped_.end(), std::int8_t{0});
  if (!std::isfinite(model.magnitude())) {
    throw ModelError(
        "the energy scale sum |fields| + sum |couplings| overflows a double (energies could "
        "not be represented): rescale the couplings and fields");
  }

  model.set_graph();
  return model;
}

std::vector<std::int64_t> SpinModel::set_graph() {
  const auto n = fields_.size();
  row_offsets_.assign(n + 1, 0);
  for (const Edge& e : edges_) {
    ++row_offsets_[static_cast<std::size_t>(e.i) + 1];
    ++row_offsets_[static_cast<std::size_t>(e.j) + 1];
  }
  std::partial_sum(row_offsets_.begin(), row_offsets_.end(), row_offsets_.begin());
  const auto nnz = static_cast<std::size_t>(row_offsets_.back());
  columns_.resize(nnz);
  couplings_.resize(nnz);
  std::vector<std::int64_t> edge_of_entry(nnz);
  // Walking the (i, j)-sorted edges fills each row in ascending column order: row r first
  // receives its lower neighbours (edges (a, r), a < r, in order of a), then its upper ones
  // (edges (r, b), in order of b), and every (a, r) sorts before every (r, b).
  std::vector<std::int64_t> next(row_offsets_.begin(), row_offsets_.end() - 1);
  for (std::size_t k = 0; k < edges_.size(); ++k) {
    const Edge& e = edges_[k];
    const auto i = static_cast<std::size_t>(e.i);
    const auto j = static_cast<std::size_t>(e.j);
    const auto slot_i = static_cast<std::size_t>(next[i]++);
    const auto slot_j = static_cast<std::size_t>(next[j]++);
    edge_of_entry[slot_i] = static_cast<std::int64_t>(k);
    edge_of_entry[slot_j] = static_cast<std::int64_t>(k);
    columns_[slot_i] = static_cast<std::int32_t>(e.j);
    couplings_[slot_i] = e.coupling;
    columns_[slot_j] = static_cast<std::int32_t>(e.i);
    couplings_[slot_j] = e.coupling;
  }
  set_colouring(greedy_colouring(row_offsets_, columns_));
  return edge_of_entry;
}

void SpinModel::set_colouring(std::vector<std::int32_t> colour_of_node) {
  colour_of_node_ = std::move(colour_of_node);
  n_colours_ = colour_of_node_.empty()
                   ? 0
                   : *std::max_element(colour_of_node_.begin(), colour_of_node_.end()) + 1;
  // Counting sort of the free nodes by colour; visiting nodes in index order keeps each
  // block ascending.
  block_offsets_.assign(static_cast<std::size_t>(n_colours_) + 1, 0);
  for (std::size_t v = 0; v < colour_of_node_.size(); ++v) {
    if (clamped_[v] == 0) ++block_offsets_[static_cast<std::size_t>(colour_of_node_[v]) + 1];
  }
  std::partial_sum(block_offsets_.begin(), block_offsets_.end(), block_offsets_.begin());
  block_nodes_.resize(static_cast<std::size_t>(block_offsets_.back()));
  std::vector<std::int64_t> next(block_offsets_.begin(), block_offsets_.end() - 1);
  for (std::size_t v = 0; v < colour_of_node_.size(); ++v) {
    if (clamped_[v] != 0) continue;
    const auto c = static_cast<std::size_t>(colour_of_node_[v]);
    block_nodes_[static_cast<std::size_t>(next[c]++)] = static_cast<std::int32_t>(v);
  }
}

SpinModel SpinModel::with_blocks(const std::vector<std::int32_t>& block_of_node) const {
  if (static_cast<std::int64_t>(block_of_node.size()) != n_nodes()) {
    throw ModelError("blocks: " + std::to_string(block_of_node.size()) + " entries for " +
                     std::to_string(n_nodes()) + " nodes");
  }
  const auto max_it = std::max_element(block_of_node.begin(), block_of_node.end());
  const std::int32_t max_block = *max_it;
  // Every id is used, so there are at most n_nodes blocks; this also bounds `used` below.
  if (max_block >= n_nodes()) {
    throw ModelError("blocks: node " + std::to_string(max_it - block_of_node.begin()) +
                     " has block " + std::to_string(max_block) + ", but " +
                     std::to_string(n_nodes()) + " nodes allow at most ids 0.." +
                     std::to_string(n_nodes() - 1) + " (every id must be used)");
  }
  const std::int32_t n_blocks = std::max<std::int32_t>(max_block, -1) + 1;
  std::vector<bool> used(static_cast<std::size_t>(n_blocks), false);
  for (std::size_t v = 0; v < block_of_node.size(); ++v) {
    if (block_of_node[v] < 0) {
      throw ModelError("blocks: node " + std::to_string(v) + " has block " +
                       std::to_string(block_of_node[v]) + ", outside [0, " +
                       std::to_string(n_blocks) + ")");
    }
    used[static_cast<std::size_t>(block_of_node[v])] = true;
  }
  const auto unused = std::find(used.begin(), used.end(), false);
  if (unused != used.end()) {
    throw ModelError("blocks: block " + std::to_string(unused - used.begin()) +
                     " has no node (block ids must be 0.." + std::to_string(n_blocks - 1) +
                     ", every id used)");
  }
  for (const Edge& e : edges_) {
    const std::int32_t block = block_of_node[static_cast<std::size_t>(e.i)];
    if (block == block_of_node[static_cast<std::size_t>(e.j)]) {
      throw ModelError("blocks: edge " + pair_text(e.i, e.j) + " lies inside block " +
                       std::to_string(block));
    }
  }
  SpinModel model = *this;
  model.set_colouring(block_of_node);
  return model;
}

SpinModel SpinModel::with_lattice_shape(LatticeShape shape) const {
  if (shape.extents.size() != 2 && shape.extents.size() != 3) {
    throw ModelError("lattice shape: needs 2 or 3 extents, got " +
                     std::to_string(shape.extents.size()));
  }
  std::int64_t product = 1;
  std::string text;
  for (const int extent : shape.extents) {
    if (extent < 1) throw ModelError("lattice shape: extent " + std::to_string(extent) + " < 1");
    // Saturates instead of overflowing; any product above n_nodes is a mismatch anyway.
    product = std::min(product * extent, n_nodes() + 1);
    text += (text.empty() ? "" : "x") + std::to_string(extent);
  }
  if (product != n_nodes()) {
    throw ModelError("lattice shape " + text + " does not match the model's " +
                     std::to_string(n_nodes()) + " nodes");
  }
  SpinModel model = *this;
  model.lattice_shape_ = std::move(shape);
  return model;
}

double SpinModel::energy(const std::vector<std::int8_t>& spins) const {
  if (potts_) {
    std::vector<std::uint8_t> states(spins.size());
    for (std::size_t v = 0; v < spins.size(); ++v) states[v] = static_cast<std::uint8_t>(spins[v]);
    return potts_energy(states);
  }
  if (static_cast<std::int64_t>(spins.size()) != n_nodes()) {
    throw ModelError("energy: " + std::to_string(spins.size()) + " spins for " +
                     std::to_string(n_nodes()) + " nodes");
  }
  // Clamped nodes always take their clamp value, whatever the caller passed.
  std::vector<double> s(spins.size());
  for (std::size_t v = 0; v < spins.size(); ++v) {
    const int value = clamped_[v] != 0 ? clamped_[v] : spins[v];
    if (value != 1 && value != -1) {
      throw ModelError("energy: spin of node " + std::to_string(v) + " is " +
                       std::to_string(value) + ", not +1 or -1");
    }
    s[v] = value;
  }
  double sum = 0.0;
  for (std::size_t v = 0; v < s.size(); ++v) sum += fields_[v] * s[v];
  for (const Edge& e : edges_) {
    sum += e.coupling * s[static_cast<std::size_t>(e.i)] * s[static_cast<std::size_t>(e.j)];
  }
  return -sum;
}

}  // namespace hamon
