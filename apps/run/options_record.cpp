// SPDX-License-Identifier: Apache-2.0
#include "run/options_record.hpp"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <sstream>
#include <utility>

#include "config/emit_experiment.hpp"
#include "hamon/core/util/text.hpp"
#include "hamon/version.hpp"

namespace hamon::cli {

namespace {

using Entries = std::vector<std::pair<std::string, std::string>>;

// Not what a run may change between its checkpoints and keep its bits: its length
// (extend), where it lives (a moved run), how often it saves.
bool recorded(const std::string& path) {
  for (const char* skipped : {"nrpt.rounds", "output.dir", "output.checkpoint"}) {
    if (path == skipped) return false;
  }
  return true;
}

// A sequence or scalar as one line of flow YAML ("[0.0, 0.5]", "2").
std::string flow_text(const YAML::Node& node) {
  YAML::Emitter out;
  out << YAML::Flow << node;
  return out.c_str();
}

void flatten(const YAML::Node& node, const std::string& path, Entries& entries) {
  if (!node.IsMap()) {
    entries.emplace_back(path, flow_text(node));
    return;
  }
  for (auto it = node.begin(); it != node.end(); ++it) {
    const std::string key = path + "." + it->first.Scalar();
    if (recorded(key)) flatten(it->second, key, entries);
  }
}

Entries entries_of(const ExperimentConfig& config) {
  YAML::Emitter out;
  emit_experiment(out, config);
  const YAML::Node root = YAML::Load(out.c_str());
  Entries entries;
  for (const char* section : {"seed", "replicas", "nrpt", "output"}) {
    if (root[section]) flatten(root[section], section, entries);
  }
  return entries;
}

}  // namespace

std::string options_record(const ExperimentConfig& config) {
  std::string text;
  for (const auto& [key, value] : entries_of(config)) text += key + ": " + value + "\n";
  return text;
}

std::vector<std::string> differing_options(const std::string& record,
                                           const ExperimentConfig& config) {
  Entries saved;
  std::istringstream lines(record);
  for (std::string line; std::getline(lines, line);) {
    const auto colon = line.find(": ");
    if (colon != std::string::npos)
      saved.emplace_back(line.substr(0, colon), line.substr(colon + 2));
  }
  const Entries now = entries_of(config);
  const auto find = [](const Entries& in, const std::string& key) {
    return std::find_if(in.begin(), in.end(), [&](const auto& e) { return e.first == key; });
  };
  const auto text = [](const Entries& in, Entries::const_iterator at) {
    return at == in.end() ? std::string("nothing") : at->second;
  };
  std::vector<std::string> differ;
  Entries keys = saved;
  for (const auto& entry : now) {
    if (find(keys, entry.first) == keys.end()) keys.push_back(entry);
  }
  for (const auto& [key, ignored] : keys) {
    const auto a = find(saved, key);
    const auto b = find(now, key);
    if (a == saved.end() || b == now.end() || a->second != b->second) {
      differ.push_back(key + " (the checkpoint has " + text(saved, a) + ", config.yaml has " +
                       text(now, b) + ")");
    }
  }
  return differ;
}

void check_options_identity(const CheckpointIdentity& saved,
                            const std::map<std::string, std::string>& attachments,
                            const CheckpointIdentity& expected, const ExperimentConfig& config,
                            const std::string& name) {
  const auto record = attachments.find(kOptionsAttachment);
  if (record != attachments.end() && saved.stream_version == expected.stream_version &&
      saved.model_fingerprint == expected.model_fingerprint &&
      saved.options_fingerprint != expected.options_fingerprint) {
    const std::vector<std::string> differ = differing_options(record->second, config);
    if (!differ.empty()) {
      throw CheckpointError(
          name + ": the sampling options differ from config.yaml's: " + join(differ, "; "));
    }
  }
  check_identity(saved, expected, name);
}

std::string other_version_note(const CheckpointIdentity& saved, const std::string& name) {
  if (saved.hamon_version == version) return "";
  return name + " was written by hamon " + saved.hamon_version + " (this is hamon " + version +
         "); it continues the run: its checkpoint format and random stream are this version's";
}

}  // namespace hamon::cli
