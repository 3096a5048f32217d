// SPDX-License-Identifier: Apache-2.0
#include "hamon/core/families/multispin/multispin_ensemble.hpp"

#include <algorithm>
#include <cmath>
#include <functional>
#include <map>
#include <stdexcept>
#include <utility>

namespace hamon {

namespace {

using EdgeKey = std::pair<std::int32_t, std::int32_t>;

/// The model's couplings by edge (i < j), from its CSR rows (each edge appears twice there).
std::map<EdgeKey, double> couplings_by_edge(const SpinModel& model) {
  std::map<EdgeKey, double> out;
  const auto& offsets = model.row_offsets();
  for (std::int64_t i = 0; i < model.n_nodes(); ++i) {
    for (auto k = offsets[static_cast<std::size_t>(i)];
         k < offsets[static_cast<std::size_t>(i) + 1]; ++k) {
      const std::int32_t j = model.columns()[static_cast<std::size_t>(k)];
      if (i < j)
        out[{static_cast<std::int32_t>(i), j}] = model.couplings()[static_cast<std::size_t>(k)];
    }
  }
  return out;
}

std::int32_t bits_for(std::int64_t largest) {
  std::int32_t bits = 1;
  while ((std::int64_t{1} << bits) <= largest) ++bits;
  return bits;
}

}  // namespace

std::string multispin_problem(const SpinModel& model) {
  if (model.is_potts()) return "a Potts model has q states per node, not one bit";
  if (model.is_continuous()) return "a real-valued model has no bits to pack";
  if (model.n_free() != model.n_nodes()) return "it has clamped nodes";
  for (double h : model.fields()) {
    if (h != 0.0) return "it has fields (multispin coding packs couplings only)";
  }
  double magnitude = 0.0;
  for (double j : model.couplings()) {
    if (j == 0.0) continue;
    if (magnitude == 0.0) magnitude = std::fabs(j);
    if (std::fabs(j) != magnitude) {
      return "its couplings have more than one magnitude (" + std::to_string(magnitude) + " and " +
             std::to_string(std::fabs(j)) + "); multispin coding needs 0 or +-J";
    }
  }
  return "";
}

MultispinEnsemble pack_multispin(const std::vector<SpinModel>& instances) {
  if (instances.empty()) throw std::invalid_argument("pack_multispin: no instances");
  const SpinModel& first = instances.front();
  std::vector<std::map<EdgeKey, double>> couplings;
  std::map<EdgeKey, std::int32_t> edge_index;  // the union of the instances' edges
  double magnitude = 0.0;
  for (std::size_t k = 0; k < instances.size(); ++k) {
    const SpinModel& model = instances[k];
    const std::string where = "multispin instance " + std::to_string(k) + ": ";
    if (const std::string problem = multispin_problem(model); !problem.empty()) {
      throw std::invalid_argument(where + problem);
    }
    if (model.n_nodes() != first.n_nodes() || model.colour_of_node() != first.colour_of_node()) {
      throw std::invalid_argument(where + "its nodes or colouring differ from instance 0's");
    }
    couplings.push_back(couplings_by_edge(model));
    for (const auto& [key, j] : couplings.back()) {
      edge_index.emplace(key, 0);
      if (j == 0.0) continue;
      if (magnitude == 0.0) magnitude = std::fabs(j);
      if (std::fabs(j) != magnitude) {
        throw std::invalid_argument(where + "coupling magnitude " + std::to_string(std::fabs(j)) +
                                    " differs from the others' " + std::to_string(magnitude));
      }
    }
  }

  MultispinEnsemble m;
  m.n_nodes = first.n_nodes();
  m.n_systems = static_cast<std::int64_t>(instances.size());
  m.n_groups = (m.n_systems + kMultispinSystems - 1) / kMultispinSystems;
  m.coupling = magnitude == 0.0 ? 1.0 : magnitude;
  std::int32_t e = 0;
  for (auto& [key, index] : edge_index) {
    index = e++;
    if (first.colour_of_node()[static_cast<std::size_t>(key.first)] ==
        first.colour_of_node()[static_cast<std::size_t>(key.second)]) {
      throw std::invalid_argument("multispin: edge (" + std::to_string(key.first) + ", " +
                                  std::to_string(key.second) +
                                  ") joins two nodes of one colour in instance 0's colouring");
    }
    m.edge_first.push_back(key.first);
    m.edge_second.push_back(key.second);
  }

  // The rows: every node's neighbours through the union's edges, in neighbour order.
  std::vector<std::vector<std::pair<std::int32_t, std::int32_t>>> rows(
      static_cast<std::size_t>(m.n_nodes));
  for (const auto& [key, index] : edge_index) {
    rows[static_cast<std::size_t>(key.first)].push_back({key.second, index});
    rows[static_cast<std::size_t>(key.second)].push_back({key.first, index});
  }
  m.row_offsets.push_back(0);
  for (auto& row : rows) {
    std::sort(row.begin(), row.end());
    for (const auto& [j, index] : row) {
      m.neighbour.push_back(j);
      m.edge_of_entry.push_back(index);
    }
    m.row_offsets.push_back(static_cast<std::int64_t>(m.neighbour.size()));
    m.max_degree = std::max(m.max_degree, static_cast<std::int32_t>(row.size()));
  }
  m.colour_offsets.assign(static_cast<std::size_t>(first.n_colours()) + 1, 0);
  for (std::int32_t c : first.colour_of_node()) ++m.colour_offsets[static_cast<std::size_t>(c) + 1];
  for (std::size_t c = 1; c < m.colour_offsets.size(); ++c) {
    m.colour_offsets[c] += m.colour_offsets[c - 1];
  }
  m.colour_nodes.resize(static_cast<std::size_t>(m.n_nodes));
  std::vector<std::int64_t> fill(m.colour_offsets.begin(), m.colour_offsets.end() - 1);
  for (std::int32_t i = 0; i < static_cast<std::int32_t>(m.n_nodes); ++i) {
    const auto c = static_cast<std::size_t>(first.colour_of_node()[static_cast<std::size_t>(i)]);
    m.colour_nodes[static_cast<std::size_t>(fill[c]++)] = i;
  }

  // The coupling words; a system past the last instance repeats it.
  const auto words = static_cast<std::size_t>(m.n_edges() * m.n_groups * kMultispinLanes);
  m.negative.assign(words, 0);
  std::vector<std::uint64_t> present(words, 0);
  m.present_edges.assign(static_cast<std::size_t>(m.n_groups * kMultispinSystems), 0);
  // Each instance's couplings by union edge index (0 where it lacks the edge).
  std::vector<std::vector<double>> by_edge(couplings.size(),
                                           std::vector<double>(edge_index.size(), 0.0));
  for (std::size_t k = 0; k < couplings.size(); ++k) {
    for (const auto& [key, j] : couplings[k])
      by_edge[k][static_cast<std::size_t>(edge_index[key])] = j;
  }
  for (std::int64_t system = 0; system < m.n_groups * kMultispinSystems; ++system) {
    const auto& mine = by_edge[static_cast<std::size_t>(std::min(system, m.n_systems - 1))];
    const std::int64_t group = system / kMultispinSystems;
    const int lane = static_cast<int>(system % kMultispinSystems) / 64;
    const std::uint64_t bit = std::uint64_t{1} << (system % 64);
    for (std::int64_t index = 0; index < m.n_edges(); ++index) {
      const double j = mine[static_cast<std::size_t>(index)];
      const auto word =
          static_cast<std::size_t>((index * m.n_groups + group) * kMultispinLanes + lane);
      if (j < 0.0) m.negative[word] |= bit;
      if (j != 0.0) {
        present[word] |= bit;
        ++m.present_edges[static_cast<std::size_t>(system)];
      } else {
        m.diluted = true;
      }
    }
  }
  if (m.diluted) m.present = std::move(present);
  // The counter holds sum_j (1 + J_ij s_j / J0) over a node's edges, 0 .. 2 z; without
  // dilution half of it, 0 .. z (multispin_sweep.hpp).
  // The Fourier overlap's lattice: instance 0's periodic lattice of equal extents, when no
  // instance is another lattice.
  if (const auto& shape = first.lattice_shape();
      shape && shape->periodic &&
      std::adjacent_find(shape->extents.begin(), shape->extents.end(), std::not_equal_to<>()) ==
          shape->extents.end()) {
    m.extents = shape->extents;
    for (const SpinModel& model : instances) {
      if (model.lattice_shape() && model.lattice_shape()->extents != m.extents) m.extents.clear();
    }
  }
  m.counter_planes = bits_for(m.diluted ? 2 * m.max_degree : m.max_degree);
  if (m.counter_planes > kMultispinMaxPlanes) {
    throw std::invalid_argument("multispin: a node of degree " + std::to_string(m.max_degree) +
                                " needs a counter of more than 8 bits");
  }
  return m;
}

double multispin_energy(const MultispinEnsemble& ensemble, std::int64_t system,
                        const std::vector<std::int8_t>& spins) {
  const std::int64_t group = system / kMultispinSystems;
  const int lane = static_cast<int>(system % kMultispinSystems) / 64;
  const int bit = static_cast<int>(system % 64);
  double energy = 0.0;
  for (std::int64_t e = 0; e < ensemble.n_edges(); ++e) {
    const auto word =
        static_cast<std::size_t>((e * ensemble.n_groups + group) * kMultispinLanes + lane);
    if (ensemble.diluted && ((ensemble.present[word] >> bit) & 1u) == 0) continue;
    const double j =
        ((ensemble.negative[word] >> bit) & 1u) ? -ensemble.coupling : ensemble.coupling;
    energy -= j *
              spins[static_cast<std::size_t>(ensemble.edge_first[static_cast<std::size_t>(e)])] *
              spins[static_cast<std::size_t>(ensemble.edge_second[static_cast<std::size_t>(e)])];
  }
  return energy;
}

}  // namespace hamon
