// SPDX-License-Identifier: Apache-2.0
// The `model` section: lattice, graph or rbm.
#include <cstdio>
#include <filesystem>
#include <initializer_list>
#include <limits>
#include <set>
#include <string>

#include "config/parse_experiment.hpp"
#include "config/parse_sections.hpp"

namespace hamon::cli::detail {

namespace {

const std::vector<std::string> kKinds = {"lattice", "graph", "rbm", "gaussian", "double_well"};

std::string indexed(const std::string& path, std::size_t k) {
  return path + "[" + std::to_string(k) + "]";
}

// ---------------------------------------------------------------------------------------
// Distributions (lattice couplings and fields)

ValueDistribution parse_distribution(YamlReader& reader, const YAML::Node& node,
                                     const std::string& path) {
  if (node.IsScalar()) return ValueDistribution::constant(reader.number(node, path));
  const auto keys = reader.entries(node, path, {"distribution", "value", "std", "mean", "seed"});
  if (keys.count("distribution") == 0) {
    reader.fail(path, "missing required key 'distribution' (constant, pm_one or gaussian)");
  }
  const std::string kind = reader.choice(keys.at("distribution"), path + ".distribution",
                                         {"constant", "pm_one", "gaussian"});
  const auto only_for = [&](const char* key, const std::string& kinds) {
    if (keys.count(key) != 0) {
      reader.fail(join_key(path, key), std::string("'") + key + "' applies to " + kinds +
                                           ", not to distribution " + kind);
    }
  };
  const auto number_or = [&](const char* key, double fallback, double min) {
    return keys.count(key) != 0 ? reader.number(keys.at(key), join_key(path, key), min) : fallback;
  };
  const std::uint64_t seed =
      keys.count("seed") != 0 ? reader.seed(keys.at("seed"), join_key(path, "seed")) : 0;
  if (kind == "constant") {
    only_for("std", "gaussian");
    only_for("mean", "gaussian");
    only_for("seed", "pm_one and gaussian");
    if (keys.count("value") == 0) reader.fail(path, "missing required key 'value'");
    return ValueDistribution::constant(reader.number(keys.at("value"), path + ".value"));
  }
  if (kind == "pm_one") {
    only_for("std", "gaussian");
    only_for("mean", "gaussian");
    return ValueDistribution::pm_one(seed, number_or("value", 1.0, 0.0));
  }
  only_for("value", "constant and pm_one (gaussian takes std and mean)");
  return ValueDistribution::gaussian(seed, number_or("std", 1.0, 0.0),
                                     number_or("mean", 0.0, -std::numeric_limits<double>::max()));
}

// ---------------------------------------------------------------------------------------
// Value lists: scalar, inline list, or {file: PATH}

ValuesSpec parse_values(YamlReader& reader, const YAML::Node& node, const std::string& path,
                        const std::string& base_dir, bool nested_rows) {
  ValuesSpec spec;
  if (node.IsScalar()) {
    spec.form = ValuesSpec::Form::scalar;
    spec.scalar = reader.number(node, path);
    return spec;
  }
  if (node.IsMap()) {
    const auto keys = reader.entries(node, path, {"file"});
    if (keys.count("file") == 0) reader.fail(path, "missing required key 'file'");
    spec.form = ValuesSpec::Form::file;
    spec.file = resolve_path(base_dir, reader.text(keys.at("file"), path + ".file"));
    std::error_code ec;
    if (!std::filesystem::is_regular_file(spec.file, ec)) {
      reader.fail(path + ".file", "cannot open '" + spec.file + "' (relative paths are " +
                                      "resolved against the experiment file's directory)");
    }
    return spec;
  }
  spec.form = ValuesSpec::Form::list;
  const auto items = reader.elements(node, path);
  for (std::size_t k = 0; k < items.size(); ++k) {
    if (nested_rows && items[k].IsSequence()) {
      for (double v : reader.numbers(items[k], indexed(path, k))) spec.list.push_back(v);
    } else {
      spec.list.push_back(reader.number(items[k], indexed(path, k)));
    }
  }
  return spec;
}

void check_count(const YamlReader& reader, const ValuesSpec& values, const std::string& path,
                 std::int64_t expected, const std::string& what) {
  if (values.form == ValuesSpec::Form::list &&
      static_cast<std::int64_t>(values.list.size()) != expected) {
    reader.fail(path, "has " + std::to_string(values.list.size()) + " values, expected " +
                          std::to_string(expected) + " (" + what + ")");
  }
}

// ---------------------------------------------------------------------------------------
// Potts (`potts: q` on a lattice or a graph)

int parse_potts(YamlReader& reader, const std::map<std::string, YAML::Node>& keys) {
  if (keys.count("potts") == 0) return 0;
  return static_cast<int>(reader.integer(keys.at("potts"), "model.potts", 2, kMaxStates,
                                         " (the number of states q of every Potts variable)"));
}

/// q numbers h(0) .. h(q-1).
std::vector<double> parse_state_values(YamlReader& reader, const YAML::Node& node,
                                       const std::string& path, int q) {
  const auto items = reader.elements(node, path);
  if (static_cast<int>(items.size()) != q) {
    reader.fail(path, "has " + std::to_string(items.size()) + " values, expected " +
                          std::to_string(q) +
                          " (one field h(s) per state, potts: " + std::to_string(q) + ")");
  }
  std::vector<double> values;
  values.reserve(items.size());
  for (std::size_t k = 0; k < items.size(); ++k) {
    values.push_back(reader.number(items[k], indexed(path, k)));
  }
  return values;
}

// ---------------------------------------------------------------------------------------
// Lattice

/// A lattice's `shape` (2 or 3 extents, >= 3 each when periodic).
std::vector<int> parse_shape(YamlReader& reader, const std::map<std::string, YAML::Node>& keys,
                             bool periodic) {
  std::vector<int> shape;
  if (keys.count("shape") == 0)
    reader.fail("model", "missing required key 'shape' (e.g. [16, 16])");
  const auto extents = reader.elements(keys.at("shape"), "model.shape");
  if (extents.size() != 2 && extents.size() != 3) {
    reader.fail("model.shape", "a lattice is 2D or 3D: give 2 or 3 extents, got " +
                                   std::to_string(extents.size()));
  }
  const int minimum = periodic ? 3 : 1;
  double n_nodes = 1.0;
  for (std::size_t k = 0; k < extents.size(); ++k) {
    const std::string at = indexed("model.shape", k);
    const std::int64_t extent = reader.integer(extents[k], at, 1, kMaxNodes);
    if (extent < minimum) {
      reader.fail(at, "extent " + std::to_string(extent) +
                          " is below 3; periodic lattices need extents >= 3 (or set "
                          "periodic: false)");
    }
    shape.push_back(static_cast<int>(extent));
    n_nodes *= static_cast<double>(extent);
  }
  if (n_nodes > static_cast<double>(kMaxNodes)) {
    char count[32];
    std::snprintf(count, sizeof count, "%.0f", n_nodes);
    reader.fail("model.shape", std::string("the lattice has ") + count +
                                   " nodes, more than the limit of " + std::to_string(kMaxNodes));
  }
  return shape;
}

LatticeSpec parse_lattice(YamlReader& reader, const std::map<std::string, YAML::Node>& keys) {
  LatticeSpec spec;
  if (keys.count("periodic") != 0)
    spec.periodic = reader.boolean(keys.at("periodic"), "model.periodic");
  spec.shape = parse_shape(reader, keys, spec.periodic);
  if (keys.count("coupling") != 0) {
    spec.coupling = parse_distribution(reader, keys.at("coupling"), "model.coupling");
  }
  spec.potts = parse_potts(reader, keys);
  if (keys.count("field") == 0) return spec;
  const YAML::Node& field = keys.at("field");
  if (spec.potts == 0) {
    spec.field = parse_distribution(reader, field, "model.field");
  } else if (field.IsSequence()) {
    spec.potts_field = parse_state_values(reader, field, "model.field", spec.potts);
  } else if (field.IsMap()) {
    spec.field = parse_distribution(reader, field, "model.field");
  } else {
    reader.fail("model.field", "with potts, the field is a list of " + std::to_string(spec.potts) +
                                   " numbers h(s) (the same at every node) or a distribution "
                                   "(drawn per node and state)");
  }
  return spec;
}

// ---------------------------------------------------------------------------------------
// Graph

std::vector<Edge> parse_edges(YamlReader& reader, const YAML::Node& node, std::int64_t nodes) {
  std::vector<Edge> edges;
  const auto items = reader.elements(node, "model.edges");
  edges.reserve(items.size());
  for (std::size_t k = 0; k < items.size(); ++k) {
    const std::string at = indexed("model.edges", k);
    const auto triple = reader.elements(items[k], at);
    if (triple.size() != 3) {
      reader.fail(at, "an edge is [i, j, J], got " + std::to_string(triple.size()) + " entries");
    }
    Edge e;
    e.i = reader.integer(triple[0], indexed(at, 0), 0, nodes - 1, " (nodes are 0 .. nodes-1)");
    e.j = reader.integer(triple[1], indexed(at, 1), 0, nodes - 1, " (nodes are 0 .. nodes-1)");
    e.coupling = reader.number(triple[2], indexed(at, 2));
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

/// A Potts graph's field: q numbers (every node), one list of q per node, or {file: PATH}
/// with nodes x q numbers (node-major).
void parse_potts_graph_field(YamlReader& reader, const YAML::Node& node,
                             const std::string& base_dir, GraphSpec& spec) {
  const std::string path = "model.field";
  const std::string q = std::to_string(spec.potts);
  const auto rows_are_lists = [&](const std::vector<YAML::Node>& items) {
    return !items.empty() && items[0].IsSequence();
  };
  if (node.IsMap()) {
    spec.field = parse_values(reader, node, path, base_dir, false);
    return;
  }
  if (!node.IsSequence()) {
    reader.fail(path, "with potts, a graph's field is a list of " + q +
                          " numbers (the same at every node), one list of " + q +
                          " numbers per node, or {file: PATH}");
  }
  const auto items = reader.elements(node, path);
  if (!rows_are_lists(items)) {
    spec.potts_field = parse_state_values(reader, node, path, spec.potts);
    return;
  }
  if (static_cast<std::int64_t>(items.size()) != spec.nodes) {
    reader.fail(path, "has " + std::to_string(items.size()) + " lists, expected " +
                          std::to_string(spec.nodes) + " (one list of " + q + " fields per node)");
  }
  spec.field.form = ValuesSpec::Form::list;
  for (std::size_t k = 0; k < items.size(); ++k) {
    if (!items[k].IsSequence()) {
      reader.fail(indexed(path, k), "expected a list of " + q + " numbers h_i(0) .. h_i(" +
                                        std::to_string(spec.potts - 1) + ")");
    }
    for (double v : parse_state_values(reader, items[k], indexed(path, k), spec.potts)) {
      spec.field.list.push_back(v);
    }
  }
}

/// `file`: the graph file's path, resolved and openable; none of `others` may stand beside it.
std::string parse_graph_file_key(YamlReader& reader, const std::map<std::string, YAML::Node>& keys,
                                 const std::string& base_dir,
                                 std::initializer_list<const char*> others) {
  for (const char* other : others) {
    if (keys.count(other) != 0) {
      reader.fail(std::string("model.") + other,
                  "cannot be combined with 'file' (the graph file gives the whole model)");
    }
  }
  std::string file = resolve_path(base_dir, reader.text(keys.at("file"), "model.file"));
  std::error_code ec;
  if (!std::filesystem::is_regular_file(file, ec)) {
    reader.fail("model.file", "cannot open graph file '" + file +
                                  "' (relative paths are resolved against the experiment "
                                  "file's directory)");
  }
  return file;
}

GraphSpec parse_graph(YamlReader& reader, const std::map<std::string, YAML::Node>& keys,
                      const std::string& base_dir) {
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
  spec.nodes = reader.integer(keys.at("nodes"), "model.nodes", 1, kMaxNodes);
  if (keys.count("edges") != 0) spec.edges = parse_edges(reader, keys.at("edges"), spec.nodes);
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

// ---------------------------------------------------------------------------------------
// Continuous models (gaussian, double_well)

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

ContinuousSpec parse_continuous(YamlReader& reader, const std::map<std::string, YAML::Node>& keys,
                                const std::string& kind, const std::string& base_dir) {
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
  const int topologies = static_cast<int>(keys.count("shape")) +
                         static_cast<int>(keys.count("nodes")) +
                         static_cast<int>(keys.count("file"));
  if (topologies != 1) {
    reader.fail("model",
                "give exactly one of 'shape' (a lattice), 'nodes' (with 'edges') or "
                "'file' (a graph file)");
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
    if (keys.count("periodic") != 0) {
      spec.periodic = reader.boolean(keys.at("periodic"), "model.periodic");
    }
    spec.shape = parse_shape(reader, keys, spec.periodic);
    if (keys.count("coupling") != 0) {
      spec.coupling = parse_distribution(reader, keys.at("coupling"), "model.coupling");
    }
  } else {
    for (const char* key : {"coupling", "periodic"}) {
      if (keys.count(key) != 0) {
        reader.fail(std::string("model.") + key,
                    "is for a lattice ('shape'); a graph's couplings are its edges' [i, j, J]");
      }
    }
    spec.nodes = reader.integer(keys.at("nodes"), "model.nodes", 1, kMaxNodes);
    nodes = spec.nodes;
    if (keys.count("edges") != 0) spec.edges = parse_edges(reader, keys.at("edges"), spec.nodes);
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

// ---------------------------------------------------------------------------------------
// RBM

RbmSpec parse_rbm(YamlReader& reader, const std::map<std::string, YAML::Node>& keys,
                  const std::string& base_dir) {
  RbmSpec spec;
  for (const char* key : {"visible", "hidden"}) {
    if (keys.count(key) == 0)
      reader.fail("model", std::string("missing required key '") + key + "'");
  }
  spec.visible = reader.integer(keys.at("visible"), "model.visible", 1, kMaxNodes);
  spec.hidden = reader.integer(keys.at("hidden"), "model.hidden", 1, kMaxNodes);
  if (spec.visible + spec.hidden > kMaxNodes) {
    reader.fail("model.hidden",
                std::to_string(spec.visible) + " visible + " + std::to_string(spec.hidden) +
                    " hidden nodes exceed the limit of " + std::to_string(kMaxNodes));
  }
  if (static_cast<double>(spec.visible) * static_cast<double>(spec.hidden) >
      static_cast<double>(kMaxNodes)) {
    reader.fail("model.hidden", std::to_string(spec.visible) + " x " + std::to_string(spec.hidden) +
                                    " weights exceed the limit of " + std::to_string(kMaxNodes));
  }
  if (keys.count("random") != 0) {
    for (const char* other : {"weights", "visible_bias", "hidden_bias"}) {
      if (keys.count(other) != 0) {
        reader.fail(std::string("model.") + other,
                    "cannot be combined with 'random' (random draws weights and biases)");
      }
    }
    const auto random =
        reader.entries(keys.at("random"), "model.random", {"seed", "std", "bias_std"});
    RbmSpec::Random r;
    if (random.count("seed") != 0) r.seed = reader.seed(random.at("seed"), "model.random.seed");
    if (random.count("std") != 0) r.std = reader.number(random.at("std"), "model.random.std", 0.0);
    if (random.count("bias_std") != 0) {
      r.bias_std = reader.number(random.at("bias_std"), "model.random.bias_std", 0.0);
    }
    spec.random = r;
  } else {
    if (keys.count("weights") == 0) {
      reader.fail("model",
                  "missing required key 'weights' (inline, {file: PATH}, or use "
                  "random: {seed, std})");
    }
    spec.weights = parse_values(reader, keys.at("weights"), "model.weights", base_dir, true);
    if (spec.weights.form == ValuesSpec::Form::scalar) {
      reader.fail("model.weights", "give a list of visible x hidden weights (or {file: PATH})");
    }
    check_count(reader, spec.weights, "model.weights", spec.visible * spec.hidden,
                "visible x hidden, visible-major");
    if (keys.count("visible_bias") != 0) {
      spec.visible_bias =
          parse_values(reader, keys.at("visible_bias"), "model.visible_bias", base_dir, false);
      check_count(reader, spec.visible_bias, "model.visible_bias", spec.visible,
                  "one per visible node");
    }
    if (keys.count("hidden_bias") != 0) {
      spec.hidden_bias =
          parse_values(reader, keys.at("hidden_bias"), "model.hidden_bias", base_dir, false);
      check_count(reader, spec.hidden_bias, "model.hidden_bias", spec.hidden,
                  "one per hidden node");
    }
  }
  if (keys.count("clamped_visible") != 0) {
    const auto items = reader.elements(keys.at("clamped_visible"), "model.clamped_visible");
    if (static_cast<std::int64_t>(items.size()) != spec.visible) {
      reader.fail("model.clamped_visible", "has " + std::to_string(items.size()) +
                                               " values, expected " + std::to_string(spec.visible) +
                                               " (one +1 or -1 per visible node)");
    }
    for (std::size_t k = 0; k < items.size(); ++k) {
      const std::int64_t v = reader.integer(items[k], indexed("model.clamped_visible", k));
      if (v != 1 && v != -1) {
        reader.fail(indexed("model.clamped_visible", k),
                    "a clamp value is +1 or -1, got " + std::to_string(v));
      }
      spec.clamped_visible.push_back(static_cast<int>(v));
    }
  }
  return spec;
}

const std::vector<std::string>& keys_of(const std::string& kind) {
  static const std::vector<std::string> lattice = {"kind",     "shape", "periodic",
                                                   "coupling", "field", "potts"};
  static const std::vector<std::string> graph = {"kind",    "nodes", "edges", "field",
                                                 "clamped", "file",  "potts"};
  static const std::vector<std::string> rbm = {"kind",    "visible",        "hidden",
                                               "weights", "visible_bias",   "hidden_bias",
                                               "random",  "clamped_visible"};
  static const std::vector<std::string> continuous = {"kind",    "shape", "periodic", "coupling",
                                                      "nodes",   "edges", "file",     "diag",
                                                      "barrier", "field"};
  if (kind == "lattice") return lattice;
  if (kind == "graph") return graph;
  if (kind == "rbm") return rbm;
  return continuous;
}

}  // namespace

std::string resolve_path(const std::string& base_dir, const std::string& path) {
  const std::filesystem::path p(path);
  if (p.is_absolute() || base_dir.empty()) return p.lexically_normal().string();
  return (std::filesystem::path(base_dir) / p).lexically_normal().string();
}

ModelSpec parse_model(YamlReader& reader, const YAML::Node& node, const std::string& base_dir) {
  if (!node.IsMap()) {
    reader.fail("model",
                "expected a mapping with 'kind' (lattice, graph, rbm, gaussian or double_well) "
                "and its keys");
  }
  const YAML::Node kind_node = node["kind"];
  if (!kind_node) {
    reader.fail("model",
                "missing required key 'kind' (lattice, graph, rbm, gaussian or double_well)");
  }
  reader.record("model.kind", kind_node, node);
  const std::string kind = reader.choice(kind_node, "model.kind", kKinds);
  if ((kind == "rbm" || kind == "gaussian" || kind == "double_well") && node["potts"]) {
    reader.record("model.potts", node["potts"], node);
    reader.fail("model.potts", "Potts variables are for kind lattice and graph; kind " + kind +
                                   (kind == "rbm" ? " has +-1 spins" : " has real values") +
                                   " (remove 'potts')");
  }
  const auto keys = reader.entries(node, "model", keys_of(kind));
  if (kind == "lattice") return parse_lattice(reader, keys);
  if (kind == "graph") return parse_graph(reader, keys, base_dir);
  if (kind == "rbm") return parse_rbm(reader, keys, base_dir);
  return parse_continuous(reader, keys, kind, base_dir);
}

}  // namespace hamon::cli::detail
