// SPDX-License-Identifier: Apache-2.0
// model.kind: gaussian or double_well, real variables on a lattice, an inline graph or a
// graph file (model_kinds.hpp).
#include <string>

#include "config/model_kinds.hpp"
#include "config/model_values.hpp"

namespace hamon::cli::detail {

namespace {

/// A number or a list (or file) of one per node, or a distribution drawn node by node.
NodeValuesSpec parse_node_values(YamlReader& reader, const YAML::Node& node,
                                 const std::string& path, const std::string& base_dir,
                                 std::int64_t nodes) {
  NodeValuesSpec spec;
  if (node.IsMap() && node["distribution"]) {
    spec.distribution = parse_distribution(reader, node, path);
    return spec;
  }
  spec.values = parse_values(reader, node, path, base_dir, false);
  if (nodes > 0) check_count(reader, spec.values, path, nodes, "one per node");
  return spec;
}

}  // namespace

ContinuousSpec parse_continuous(YamlReader& reader, const ModelKeys& keys, const std::string& kind,
                                const std::string& base_dir) {
  ContinuousSpec spec;
  spec.kind = kind == "gaussian" ? ContinuousKind::gaussian : ContinuousKind::double_well;
  const char* weight = spec.kind == ContinuousKind::gaussian ? "diag" : "barrier";
  const char* other = spec.kind == ContinuousKind::gaussian ? "barrier" : "diag";
  if (keys.count(other) != 0) {
    reader.fail(std::string("model.") + other,
                std::string("'") + other + "' is for kind " +
                    (spec.kind == ContinuousKind::gaussian ? "double_well" : "gaussian") +
                    "; kind " + kind + " takes '" + weight + "'");
  }
  // `shape` with `file`: a lattice whose numbers are the graph file's (a run directory's
  // model/model.graph).
  const bool lattice_file = keys.count("shape") != 0 && keys.count("file") != 0;
  const int topologies = static_cast<int>(keys.count("shape")) +
                         static_cast<int>(keys.count("nodes")) +
                         static_cast<int>(keys.count("file") != 0 && !lattice_file);
  if (topologies != 1) {
    reader.fail("model",
                "give exactly one of 'shape' (a lattice), 'nodes' (with 'edges') or "
                "'file' (a graph file; with 'shape', a lattice holding the file's numbers)");
  }
  if (lattice_file) {
    spec.file = parse_graph_file_key(reader, keys, base_dir,
                                     {"edges", "field", "diag", "barrier", "coupling"});
    parse_lattice_geometry(reader, keys, spec.periodic, spec.shape, spec.coupling);
    return spec;
  }
  if (keys.count("file") != 0) {
    spec.file = parse_graph_file_key(reader, keys, base_dir,
                                     {"edges", "field", "diag", "barrier", "coupling", "periodic"});
    return spec;
  }
  std::int64_t nodes = 0;
  if (keys.count("shape") != 0) {
    if (keys.count("edges") != 0) {
      reader.fail("model.edges", "a lattice's bonds come from 'shape' and 'coupling'");
    }
    parse_lattice_geometry(reader, keys, spec.periodic, spec.shape, spec.coupling);
  } else {
    for (const char* key : {"coupling", "periodic"}) {
      if (keys.count(key) != 0) {
        reader.fail(std::string("model.") + key,
                    "is for a lattice ('shape'); a graph's couplings are its edges' [i, j, J]");
      }
    }
    parse_nodes_and_edges(reader, keys, spec.nodes, spec.edges);
    nodes = spec.nodes;
  }
  if (keys.count(weight) != 0) {
    spec.weight =
        parse_node_values(reader, keys.at(weight), std::string("model.") + weight, base_dir, nodes);
  }
  if (keys.count("field") != 0) {
    spec.field = parse_node_values(reader, keys.at("field"), "model.field", base_dir, nodes);
  }
  return spec;
}

}  // namespace hamon::cli::detail
