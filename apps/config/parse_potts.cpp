// SPDX-License-Identifier: Apache-2.0
// Potts variables (`potts: q` on a lattice or a graph): q and the fields (model_kinds.hpp).
#include <string>

#include "config/model_kinds.hpp"
#include "config/model_values.hpp"

namespace hamon::cli::detail {

namespace {

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
    values.push_back(reader.number(items[k], index_key(path, k)));
  }
  return values;
}

}  // namespace

int parse_potts(YamlReader& reader, const ModelKeys& keys) {
  if (keys.count("potts") == 0) return 0;
  return static_cast<int>(reader.integer(keys.at("potts"), "model.potts", 2, kMaxStates,
                                         " (the number of states q of every Potts variable)"));
}

void parse_potts_lattice_field(YamlReader& reader, const YAML::Node& node, LatticeSpec& spec) {
  if (node.IsSequence()) {
    spec.potts_field = parse_state_values(reader, node, "model.field", spec.potts);
  } else if (node.IsMap()) {
    spec.field = parse_distribution(reader, node, "model.field");
  } else {
    reader.fail("model.field", "with potts, the field is a list of " + std::to_string(spec.potts) +
                                   " numbers h(s) (the same at every node) or a distribution "
                                   "(drawn per node and state)");
  }
}

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
      reader.fail(index_key(path, k), "expected a list of " + q + " numbers h_i(0) .. h_i(" +
                                          std::to_string(spec.potts - 1) + ")");
    }
    for (double v : parse_state_values(reader, items[k], index_key(path, k), spec.potts)) {
      spec.field.list.push_back(v);
    }
  }
}

}  // namespace hamon::cli::detail
