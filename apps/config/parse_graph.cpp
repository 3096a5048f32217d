// SPDX-License-Identifier: Apache-2.0
// model.kind: graph (inline, or a graph file), and the nodes and edges a continuous model
// shares (model_kinds.hpp).
#include <set>
#include <string>

#include "config/model_kinds.hpp"
#include "config/model_values.hpp"

namespace hamon::cli::detail {

namespace {

std::vector<Edge> parse_edges(YamlReader& reader, const YAML::Node& node, std::int64_t nodes) {
  std::vector<Edge> edges;
  const auto items = reader.elements(node, "model.edges");
  edges.reserve(items.size());
  for (std::size_t k = 0; k < items.size(); ++k) {
    const std::string at = index_key("model.edges", k);
    const auto triple = reader.elements(items[k], at);
    if (triple.size() != 3) {
      reader.fail(at, "an edge is [i, j, J], got " + std::to_string(triple.size()) + " entries");
    }
    Edge e;
    e.i = reader.integer(triple[0], index_key(at, 0), 0, nodes - 1, " (nodes are 0 .. nodes-1)");
    e.j = reader.integer(triple[1], index_key(at, 1), 0, nodes - 1, " (nodes are 0 .. nodes-1)");
    e.coupling = reader.number(triple[2], index_key(at, 2));
    if (e.i == e.j) reader.fail(at, "self-loop on node " + std::to_string(e.i));
    edges.push_back(e);
  }
  return edges;
}

/// Clamps: node -> +1 or -1, or with potts (q > 0) node -> state 0..q-1.
std::vector<Clamp> parse_clamped(YamlReader& reader, const YAML::Node& node, std::int64_t nodes,
                                 int q) {
  const std::string path = "model.clamped";
  if (!node.IsMap()) {
    reader.fail(path, q > 0 ? "expected a mapping {node: state, ...}"
                            : "expected a mapping {node: +1 or -1, ...}");
  }
  std::vector<Clamp> clamps;
  std::set<std::int64_t> seen;
  for (auto it = node.begin(); it != node.end(); ++it) {
    const std::string at =
        path + "." + (it->first.IsScalar() ? printable(it->first.Scalar()) : "?");
    reader.record(at, it->first, node);
    const std::int64_t i = reader.integer(it->first, at, 0, nodes - 1, " (nodes are 0 .. nodes-1)");
    if (!seen.insert(i).second) reader.fail(at, "node " + std::to_string(i) + " clamped twice");
    reader.record(at, it->second, it->first);
    if (q > 0) {
      const std::int64_t state =
          reader.integer(it->second, at, 0, q - 1,
                         " (a clamp is a state 0 .. q-1, potts: " + std::to_string(q) + ")");
      clamps.push_back({i, static_cast<int>(state)});
      continue;
    }
    const std::int64_t value = reader.integer(it->second, at);
    if (value != 1 && value != -1)
      reader.fail(at, "a clamp value is +1 or -1, got " + std::to_string(value));
    clamps.push_back({i, static_cast<int>(value)});
  }
  return clamps;
}

}  // namespace

void parse_nodes_and_edges(YamlReader& reader, const ModelKeys& keys, std::int64_t& nodes,
                           std::vector<Edge>& edges) {
  nodes = reader.integer(keys.at("nodes"), "model.nodes", 1, kMaxNodes);
  if (keys.count("edges") != 0) edges = parse_edges(reader, keys.at("edges"), nodes);
}

GraphSpec parse_graph(YamlReader& reader, const ModelKeys& keys, const std::string& base_dir) {
  GraphSpec spec;
  spec.potts = parse_potts(reader, keys);
  if (keys.count("file") != 0) {
    spec.file =
        parse_graph_file_key(reader, keys, base_dir, {"nodes", "edges", "field", "clamped"});
    return spec;
  }
  if (keys.count("nodes") == 0) {
    reader.fail("model", "missing required key 'nodes' (or 'file' with a graph file)");
  }
  parse_nodes_and_edges(reader, keys, spec.nodes, spec.edges);
  if (keys.count("field") != 0 && spec.potts > 0) {
    parse_potts_graph_field(reader, keys.at("field"), base_dir, spec);
  } else if (keys.count("field") != 0) {
    if (keys.at("field").IsMap()) {
      reader.fail("model.field", "a graph's field is a number or a list with one per node");
    }
    spec.field = parse_values(reader, keys.at("field"), "model.field", base_dir, false);
    check_count(reader, spec.field, "model.field", spec.nodes, "one per node");
  }
  if (keys.count("clamped") != 0)
    spec.clamped = parse_clamped(reader, keys.at("clamped"), spec.nodes, spec.potts);
  return spec;
}

}  // namespace hamon::cli::detail
