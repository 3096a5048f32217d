// SPDX-License-Identifier: Apache-2.0
// The `output` section: the run directory and what is recorded.
#include <cstdint>
#include <limits>

#include "config/parse_experiment.hpp"
#include "config/parse_sections.hpp"

namespace hamon::cli::detail {

namespace {

void parse_samples(YamlReader& reader, const YAML::Node& node, OutputSpec& spec) {
  const std::string path = "output.samples";
  if (node.IsScalar() && node.Tag() != "!") {
    // `samples: false` switches them off; true is not enough to know how often.
    if (!reader.boolean(node, path)) return;
    reader.fail(path, "say how often: samples: {every: N, nodes: all}");
  }
  const auto keys = reader.entries(node, path, {"every", "nodes"});
  if (keys.count("every") == 0) reader.fail(path, "missing required key 'every'");
  spec.samples_every = reader.integer(keys.at("every"), path + ".every", 0,
                                      std::numeric_limits<std::uint32_t>::max());
  if (keys.count("nodes") == 0 || reader.is_scalar_text(keys.at("nodes"), "all")) return;
  const auto items = reader.elements(keys.at("nodes"), path + ".nodes");
  if (items.empty()) reader.fail(path + ".nodes", "the list is empty; give node indices or 'all'");
  for (std::size_t k = 0; k < items.size(); ++k) {
    spec.sample_nodes.push_back(
        reader.integer(items[k], path + ".nodes[" + std::to_string(k) + "]", 0, kMaxNodes - 1));
  }
}

void parse_checkpoint(YamlReader& reader, const YAML::Node& node, CheckpointSpec& spec) {
  const std::string path = "output.checkpoint";
  if (node.IsScalar() && node.Tag() != "!") {
    spec.enabled = reader.boolean(node, path);  // true: the default cadence
    return;
  }
  const auto keys = reader.entries(node, path, {"every", "seconds"});
  if (keys.empty()) reader.fail(path, "give every: ROUNDS and/or seconds: S, or false");
  spec.every = 0;
  spec.seconds = 0.0;
  if (keys.count("every") != 0) {
    spec.every = reader.integer(keys.at("every"), path + ".every", 1,
                                std::numeric_limits<std::uint32_t>::max());
  }
  if (keys.count("seconds") != 0) {
    spec.seconds = reader.number(keys.at("seconds"), path + ".seconds", 0.001, 1e9);
  }
}

}  // namespace

OutputSpec parse_output(YamlReader& reader, const YAML::Node& node) {
  OutputSpec spec;
  const auto keys = reader.entries(
      node, "output",
      {"dir", "samples", "moments", "magnetization", "energies", "index_process", "checkpoint"});
  if (keys.count("dir") != 0) spec.dir = reader.text(keys.at("dir"), "output.dir");
  if (keys.count("samples") != 0) parse_samples(reader, keys.at("samples"), spec);
  if (keys.count("moments") != 0)
    spec.moments = reader.boolean(keys.at("moments"), "output.moments");
  if (keys.count("magnetization") != 0) {
    spec.magnetization = reader.boolean(keys.at("magnetization"), "output.magnetization");
  }
  if (keys.count("energies") != 0) {
    spec.energies = reader.boolean(keys.at("energies"), "output.energies");
  }
  if (keys.count("index_process") != 0) {
    spec.index_process = reader.boolean(keys.at("index_process"), "output.index_process");
  }
  if (keys.count("checkpoint") != 0)
    parse_checkpoint(reader, keys.at("checkpoint"), spec.checkpoint);
  return spec;
}

}  // namespace hamon::cli::detail
