// SPDX-License-Identifier: Apache-2.0
// The `model` section: its kind, the keys that kind takes, and the kind's parser
// (model_kinds.hpp: lattice, graph, rbm, gaussian or double_well); or the path of a model
// file holding that section (a run directory's model/model.yaml).
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "config/model_kinds.hpp"
#include "config/model_values.hpp"
#include "config/parse_sections.hpp"
#include "config/yaml_document.hpp"

namespace hamon::cli::detail {

namespace {

const std::vector<std::string> kKinds = {"lattice",     "graph", "rbm",   "gaussian",
                                         "double_well", "qubo",  "maxcut"};

const std::vector<std::string>& keys_of(const std::string& kind) {
  static const std::vector<std::string> lattice = {"kind",  "shape", "periodic", "coupling",
                                                   "field", "potts", "file"};
  static const std::vector<std::string> graph = {"kind",    "nodes", "edges", "field",
                                                 "clamped", "file",  "potts"};
  static const std::vector<std::string> rbm = {"kind",    "visible",        "hidden",
                                               "weights", "visible_bias",   "hidden_bias",
                                               "random",  "clamped_visible"};
  static const std::vector<std::string> continuous = {"kind",    "shape", "periodic", "coupling",
                                                      "nodes",   "edges", "file",     "diag",
                                                      "barrier", "field"};
  static const std::vector<std::string> objective = {"kind", "file"};
  if (kind == "lattice") return lattice;
  if (kind == "graph") return graph;
  if (kind == "rbm") return rbm;
  if (kind == "qubo" || kind == "maxcut") return objective;
  return continuous;
}

}  // namespace

ModelSpec parse_model(YamlReader& reader, const YAML::Node& node, const std::string& base_dir,
                      const std::string& instance_file) {
  if (!node.IsMap()) {
    reader.fail("model",
                "expected a mapping with 'kind' (lattice, graph, rbm, gaussian, double_well, qubo "
                "or maxcut) and its keys");
  }
  const YAML::Node kind_node = node["kind"];
  if (!kind_node) {
    reader.fail(
        "model",
        "missing required key 'kind' (lattice, graph, rbm, gaussian, double_well, qubo or maxcut)");
  }
  reader.record("model.kind", kind_node, node);
  const std::string kind = reader.choice(kind_node, "model.kind", kKinds);
  const bool objective = kind == "qubo" || kind == "maxcut";
  if ((kind == "rbm" || kind == "gaussian" || kind == "double_well" || objective) &&
      node["potts"]) {
    reader.record("model.potts", node["potts"], node);
    reader.fail("model.potts", "Potts variables are for kind lattice and graph; kind " + kind +
                                   (kind == "rbm" ? " has +-1 spins"
                                    : objective   ? " has binary variables"
                                                  : " has real values") +
                                   " (remove 'potts')");
  }
  auto keys = reader.entries(node, "model", keys_of(kind));
  if (!instance_file.empty()) {
    if (objective) {
      reader.fail("instances.files",
                  "gives each instance a graph file; a " + kind +
                      " file is one problem, judged in its own objective: run each file as its "
                      "own experiment (model: {kind: " +
                      kind + ", file: ...})");
    }
    if (kind == "lattice" || kind == "rbm") {
      reader.fail("instances.files",
                  "gives each instance a graph file: model.kind graph, gaussian or "
                  "double_well, not " +
                      kind + " (whose instances differ by their drawn values: instances: K)");
    }
    for (const auto& [key, value] : keys) {
      if (key != "kind" && key != "potts") {
        reader.fail("model." + key,
                    "the instances' graph files (instances.files) give the "
                    "whole model: remove '" +
                        key + "'");
      }
    }
    // Read as if the section named the first instance's file (checked to exist).
    keys["file"] = YAML::Node(instance_file);
  }
  if (kind == "lattice") return parse_lattice(reader, keys, base_dir);
  if (kind == "graph") return parse_graph(reader, keys, base_dir);
  if (kind == "rbm") return parse_rbm(reader, keys, base_dir);
  if (objective) return parse_objective(reader, keys, kind, base_dir);
  return parse_continuous(reader, keys, kind, base_dir);
}

ModelSpec parse_model_file(YamlReader& reader, const YAML::Node& node, const std::string& base_dir,
                           std::map<std::string, Location>& locations) {
  const std::string named = resolve_path(base_dir, reader.text(node, "model"));
  std::error_code ec;
  if (!std::filesystem::is_regular_file(named, ec)) {
    reader.fail("model",
                "expected a mapping with 'kind' (lattice, graph, rbm, gaussian, double_well, qubo "
                "or maxcut) "
                "and its keys, or the path of a model file (a run directory's "
                "model/model.yaml); '" +
                    named + "' is not a file (relative to the experiment file's directory)");
  }
  const std::string file = existing_file(reader, node, "model", base_dir, "model file ");
  const YAML::Node root = load_yaml_document(read_config_file(file, "model file"), file);
  // The file's own reader: an error in it names the model file's line, not the experiment's.
  YamlReader in_file(file, locations);
  try {
    const std::string alone =
        "a model file holds the model section alone (as a run directory's model/model.yaml "
        "does); this key belongs in the experiment";
    std::map<std::string, std::string> hints;
    for (const char* key : {"seed", "device", "replicas", "instances", "nrpt", "output"}) {
      hints[key] = alone;
    }
    const auto keys = in_file.entries(root, "", {"model"}, hints);
    if (keys.count("model") == 0) {
      in_file.fail("",
                   "missing key 'model' (a model file holds a model section, as a run "
                   "directory's model/model.yaml does)");
    }
    // Its files are named relative to the model file.
    return parse_model(in_file, keys.at("model"), config_base_dir(file));
  } catch (const YAML::Exception& e) {
    throw unreadable_document(file, e);
  }
}

}  // namespace hamon::cli::detail
