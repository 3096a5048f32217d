// SPDX-License-Identifier: Apache-2.0
#pragma once
// The kinds of the `model` section, each read by its own file, and the pieces two kinds
// share (a lattice's geometry, a graph's nodes and edges, a graph file, Potts variables).
// parse_model (parse_model.cpp) checks the section's keys and hands them to one kind.
// Internal to apps/config.

#include <yaml-cpp/yaml.h>

#include <cstdint>
#include <initializer_list>
#include <map>
#include <string>
#include <vector>

#include "config/experiment_config.hpp"
#include "config/yaml_reader.hpp"

namespace hamon::cli::detail {

/// The model section's keys, checked against the kind's (reader.entries).
using ModelKeys = std::map<std::string, YAML::Node>;

// Each kind, read in the file named after it (parse_lattice.cpp, parse_graph.cpp,
// parse_rbm.cpp, parse_continuous.cpp, parse_objective.cpp).
LatticeSpec parse_lattice(YamlReader& reader, const ModelKeys& keys, const std::string& base_dir);
GraphSpec parse_graph(YamlReader& reader, const ModelKeys& keys, const std::string& base_dir);
RbmSpec parse_rbm(YamlReader& reader, const ModelKeys& keys, const std::string& base_dir);
/// kind gaussian or double_well (`kind`).
ContinuousSpec parse_continuous(YamlReader& reader, const ModelKeys& keys, const std::string& kind,
                                const std::string& base_dir);
/// kind qubo or maxcut (`kind`): the problem file, read now (parse_objective.cpp).
ObjectiveSpec parse_objective(YamlReader& reader, const ModelKeys& keys, const std::string& kind,
                              const std::string& base_dir);

/// A lattice's `periodic`, `shape` (2 or 3 extents, >= 3 each when periodic) and
/// `coupling` (parse_lattice.cpp); what the keys do not give keeps its default.
void parse_lattice_geometry(YamlReader& reader, const ModelKeys& keys, bool& periodic,
                            std::vector<int>& shape, ValueDistribution& coupling);

/// An inline graph's `nodes` (present) and `edges` (optional) (parse_graph.cpp).
void parse_nodes_and_edges(YamlReader& reader, const ModelKeys& keys, std::int64_t& nodes,
                           std::vector<Edge>& edges);

/// `file`: the graph file's path, resolved and openable; none of `others` may stand beside it
/// (parse_graph_file.cpp).
std::string parse_graph_file_key(YamlReader& reader, const ModelKeys& keys,
                                 const std::string& base_dir,
                                 std::initializer_list<const char*> others);

// Potts variables (`potts: q` on a lattice or a graph; parse_potts.cpp).

/// q, or 0 without `potts` (Ising spins).
int parse_potts(YamlReader& reader, const ModelKeys& keys);
/// A Potts lattice's field: q numbers h(s) (every node) or a distribution (per node and
/// state).
void parse_potts_lattice_field(YamlReader& reader, const YAML::Node& node, LatticeSpec& spec);
/// A Potts graph's field: q numbers (every node), one list of q per node, or {file: PATH}
/// with nodes x q numbers (node-major).
void parse_potts_graph_field(YamlReader& reader, const YAML::Node& node,
                             const std::string& base_dir, GraphSpec& spec);

}  // namespace hamon::cli::detail
