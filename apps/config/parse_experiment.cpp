// SPDX-License-Identifier: Apache-2.0
// The top level of an experiment file, the overrides, and the checks between keys.
#include "config/parse_experiment.hpp"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <filesystem>
#include <limits>
#include <optional>
#include <stdexcept>

#include "config/config_kind.hpp"
#include "config/parse_sections.hpp"
#include "config/yaml_document.hpp"
#include "config/yaml_reader.hpp"
#include "hamon/policies/device_spec.hpp"

namespace hamon::cli {

namespace {

void check_device_word(const ExperimentConfig& config) {
  try {
    (void)parse_device_spec(config.device);
  } catch (const std::invalid_argument& e) {
    config.fail("device", e.what());
  }
}

std::string default_output_dir(const std::string& file) {
  const std::string stem = std::filesystem::path(file).stem().string();
  return "runs/" + (stem.empty() ? std::string("experiment") : stem);
}

}  // namespace

ExperimentConfig parse_experiment_text(const std::string& text, const std::string& name,
                                       const std::string& base_dir) {
  ExperimentConfig config;
  config.file = name;
  config.base_dir = base_dir;
  const YAML::Node root = load_config_document(
      text, name, ConfigKind::experiment,
      "the experiment file is empty (expected keys seed, device, model, nrpt, output)");
  YamlReader reader(name, config.locations);
  try {
    const std::string tuning_hint = "automatic tuning is set in nrpt: write nrpt: {tune: auto}";
    const auto top = reader.entries(
        root, "", {"seed", "device", "replicas", "instances", "model", "nrpt", "output"},
        {{"tune", tuning_hint}, {"autotune", tuning_hint}});
    if (top.count("seed") != 0) config.seed = reader.seed(top.at("seed"), "seed");
    if (top.count("device") != 0) {
      config.device = reader.text(top.at("device"), "device");
      check_device_word(config);
    }
    if (top.count("replicas") != 0) {
      config.replicas =
          static_cast<std::int32_t>(reader.integer(top.at("replicas"), "replicas", 1, 1 << 16));
    }
    if (top.count("instances") != 0 && top.at("instances").IsMap()) {
      config.instance_files = detail::parse_instance_files(reader, top.at("instances"), base_dir);
      config.instances = static_cast<std::int32_t>(config.instance_files.size());
    } else if (top.count("instances") != 0) {
      config.instances = static_cast<std::int32_t>(
          reader.integer(top.at("instances"), "instances", 1, kMaxInstances));
    }
    if (top.count("model") == 0) reader.fail("", "missing required key 'model'");
    if (top.count("nrpt") == 0) reader.fail("", "missing required key 'nrpt'");
    // `model: PATH` names a model file (a run directory's model/model.yaml); per-instance
    // files (instances.files) need the section itself, which then names the kind only.
    if (top.at("model").IsScalar()) {
      if (!config.instance_files.empty()) {
        reader.fail("model",
                    "instances.files gives each instance's model: write the model "
                    "section with its kind (model: {kind: graph}), not a model file");
      }
      config.model = detail::parse_model_file(reader, top.at("model"), base_dir, config.locations);
    } else {
      config.model = detail::parse_model(
          reader, top.at("model"), base_dir,
          config.instance_files.empty() ? std::string() : config.instance_files.front());
    }
    // The model's file is the first instance's: its errors point at that entry.
    if (!config.instance_files.empty()) {
      config.locations["model.file"] = config.where("instances.files[0]");
    }
    config.nrpt = detail::parse_nrpt(reader, top.at("nrpt"));
    // Houdayer moves pair replicas: two unless the file says how many.
    if (config.nrpt.cluster_moves == ClusterMoves::houdayer && top.count("replicas") == 0) {
      config.replicas = 2;
    }
    if (top.count("output") != 0) config.output = detail::parse_output(reader, top.at("output"));
    if (config.output.dir.empty()) config.output.dir = default_output_dir(name);
  } catch (const YAML::Exception& e) {
    // Only reached for a document yaml-cpp accepted but cannot walk; say where.
    throw unreadable_document(name, e);
  }
  check_consistency(config);
  return config;
}

ExperimentConfig parse_experiment_file(const std::string& path) {
  return parse_experiment_text(read_config_file(path, "experiment file"), path,
                               config_base_dir(path));
}

void apply_overrides(ExperimentConfig& config, const Overrides& overrides) {
  const auto on_command_line = [&](const std::string& key, const std::string& option) {
    config.locations[key] = Location{kCommandLine, 0, 0, option};
  };
  const auto fail = [](const std::string& option, const std::string& message) {
    throw ConfigError(Location{kCommandLine, 0, 0, option}, message);
  };
  if (overrides.out) {
    if (overrides.out->empty()) fail("--out", "the output directory is empty");
    config.output.dir = *overrides.out;
    on_command_line("output.dir", "--out");
  }
  if (overrides.device) {
    config.device = *overrides.device;
    on_command_line("device", "--device");
    try {
      (void)parse_device_spec(config.device);
    } catch (const std::invalid_argument& e) {
      fail("--device", e.what());
    }
  }
  if (overrides.seed) {
    config.seed = *overrides.seed;
    on_command_line("seed", "--seed");
  }
  // --rounds and --burn-in: a count of rounds from `min` to kMaxRoundsTotal.
  const auto rounds_option = [&](const std::optional<std::int64_t>& value, const char* option,
                                 std::int64_t min, const char* key, std::int64_t& target) {
    if (!value) return;
    if (*value < min || *value > kMaxRoundsTotal) {
      fail(option, std::to_string(*value) + " is out of range [" + std::to_string(min) + ", " +
                       std::to_string(kMaxRoundsTotal) + "]");
    }
    target = *value;
    on_command_line(key, option);
  };
  rounds_option(overrides.rounds, "--rounds", 1, "nrpt.rounds", config.nrpt.rounds);
  if (overrides.rounds) {
    // The command line gave the chunk: nothing was chosen for it.
    auto& chosen = config.nrpt.chosen;
    chosen.erase(std::remove_if(chosen.begin(), chosen.end(),
                                [](const Choice& c) { return c.key == "nrpt.rounds"; }),
                 chosen.end());
  }
  rounds_option(overrides.burn_in, "--burn-in", 0, "nrpt.burn_in", config.nrpt.burn_in);
  check_consistency(config);
}

void check_consistency(const ExperimentConfig& config) {
  const NrptSpec& nrpt = config.nrpt;
  if (nrpt.rounds > kMaxRoundsTotal - nrpt.burn_in) {
    config.fail("nrpt.rounds", "rounds + burn_in = " + std::to_string(nrpt.rounds) + " + " +
                                   std::to_string(nrpt.burn_in) +
                                   " exceeds 2^32 - 1 = " + std::to_string(kMaxRoundsTotal) +
                                   " (the round counter is 32 bits)");
  }
  // A tuned chain count is not known yet: it is at most max_chains.
  const std::int32_t chains = nrpt.tune.chains ? nrpt.tune.max_chains : nrpt.chains;
  const std::string chains_text =
      (nrpt.tune.chains ? "up to " : "") + std::to_string(chains) + " chains";
  const auto check_trace = [&](bool on, const char* file, double bytes_per_value, const char* key) {
    const double bytes = static_cast<double>(nrpt.rounds) * chains * bytes_per_value;
    if (on && bytes > static_cast<double>(kMaxRecordedBytes)) {
      config.fail("nrpt.rounds", std::string(file) + " would hold " + std::to_string(nrpt.rounds) +
                                     " rounds x " + chains_text + ", more than 16 GiB; " +
                                     "use fewer rounds or set output." + key + ": false");
    }
  };
  if (config.instances > 1 && nrpt.tune.any()) {
    // The ensemble's tables put every instance's temperatures in the same columns.
    config.fail("instances",
                "the instances of an ensemble share one ladder: drop nrpt's tuning (tune one "
                "instance alone and write its betas into the ensemble's file)");
  }
  if (config.instances > 1 && nrpt.chains_from_estimate) {
    // Each instance's model would give its own count, and the tables share the columns.
    config.fail("nrpt", "the instances of an ensemble share one ladder: give nrpt.chains (" +
                            std::string("beta_max: auto's chain count is each instance's own)"));
  }
  if (nrpt.cluster_moves == ClusterMoves::houdayer && config.replicas % 2 != 0) {
    config.fail("replicas",
                "cluster_moves: houdayer pairs replicas (0, 1), (2, 3), ...: give an "
                "even number of replicas, got " +
                    std::to_string(config.replicas));
  }
  check_trace(config.output.energies, "energies.npy", 8.0, "energies");
  check_trace(config.output.index_process, "index_process.npy", 4.0, "index_process");
}

}  // namespace hamon::cli
