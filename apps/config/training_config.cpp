// SPDX-License-Identifier: Apache-2.0
// The training file (training_config.hpp).
#include "config/training_config.hpp"

#include <yaml-cpp/yaml.h>

#include <filesystem>
#include <stdexcept>

#include "config/config_kind.hpp"
#include "config/yaml_document.hpp"
#include "config/yaml_reader.hpp"
#include "hamon/policies/device_spec.hpp"

namespace hamon::cli {

namespace {

using Entries = std::map<std::string, YAML::Node>;

bool has(const Entries& keys, const char* key) {
  return keys.count(key) != 0;
}

void parse_data(YamlReader& reader, const YAML::Node& node, const std::string& base_dir,
                TrainingDataSpec& data) {
  const auto keys =
      reader.entries(node, "train.data", {"files", "labels", "heldout_fraction", "rows_per_file"});
  if (!has(keys, "files")) reader.fail("train.data", "missing required key 'files'");
  const auto files = reader.elements(keys.at("files"), "train.data.files");
  if (files.empty()) reader.fail("train.data.files", "needs at least one .npy file");
  for (std::size_t k = 0; k < files.size(); ++k) {
    const std::string path = index_key("train.data.files", k);
    data.files.push_back(resolve_path(base_dir, reader.text(files[k], path)));
  }
  data.labels = files.size() > 1;
  if (has(keys, "labels")) data.labels = reader.boolean(keys.at("labels"), "train.data.labels");
  if (data.labels && files.size() < 2) {
    reader.fail("train.data.labels", "label units need at least two classes (files)");
  }
  if (has(keys, "heldout_fraction")) {
    data.heldout_fraction =
        reader.number(keys.at("heldout_fraction"), "train.data.heldout_fraction", 0.0, 0.95);
  }
  if (has(keys, "rows_per_file")) {
    data.rows_per_file = reader.integer(keys.at("rows_per_file"), "train.data.rows_per_file", 1);
  }
}

void parse_optimiser(YamlReader& reader, const YAML::Node& node, TrainingOptions& o) {
  const std::string path = "train.optimiser";
  if (node.IsScalar()) {
    o.optimiser = reader.choice(node, path, kOptimiserNames);
    return;
  }
  const auto keys = reader.entries(node, path, {"kind", "momentum", "beta1", "beta2", "epsilon"});
  if (!has(keys, "kind")) reader.fail(path, "missing required key 'kind' (adam or sgd)");
  o.optimiser = reader.choice(keys.at("kind"), path + ".kind", kOptimiserNames);
  const bool adam = o.optimiser == Optimiser::adam;
  for (const char* key : {"beta1", "beta2", "epsilon"}) {
    if (has(keys, key) && !adam) reader.fail(path + "." + key, "is an option of adam, not sgd");
  }
  if (has(keys, "momentum") && adam) {
    reader.fail(path + ".momentum", "is an option of sgd (adam has beta1)");
  }
  if (has(keys, "momentum"))
    o.momentum = reader.number(keys.at("momentum"), path + ".momentum", 0, 0.999999);
  if (has(keys, "beta1"))
    o.adam_beta1 = reader.number(keys.at("beta1"), path + ".beta1", 0, 0.999999);
  if (has(keys, "beta2"))
    o.adam_beta2 = reader.number(keys.at("beta2"), path + ".beta2", 0, 0.999999);
  if (has(keys, "epsilon")) {
    o.adam_epsilon = reader.number(keys.at("epsilon"), path + ".epsilon", 1e-300);
  }
}

void parse_schedule(YamlReader& reader, const YAML::Node& node, TrainingOptions& o) {
  const std::string path = "train.schedule";
  const auto keys = reader.entries(node, path, {"kind", "final_factor"});
  if (!has(keys, "kind")) {
    reader.fail(path, "missing required key 'kind' (constant, linear or exponential)");
  }
  o.schedule = reader.choice(keys.at("kind"), path + ".kind", kRateScheduleNames);
  if (has(keys, "final_factor")) {
    if (o.schedule == RateSchedule::constant) {
      reader.fail(path + ".final_factor", "a constant rate has no final factor");
    }
    o.final_rate_factor =
        reader.number(keys.at("final_factor"), path + ".final_factor", 1e-12, 1e12);
  } else if (o.schedule != RateSchedule::constant) {
    reader.fail(path, "missing required key 'final_factor' (the last update's rate factor)");
  }
}

void parse_monitor(YamlReader& reader, const YAML::Node& node, MonitorSpec& m) {
  const std::string path = "train.monitor";
  const auto keys =
      reader.entries(node, path, {"every", "log_likelihood_every", "samples", "log_z"});
  if (has(keys, "every")) m.every = reader.integer(keys.at("every"), path + ".every", 1);
  if (has(keys, "log_likelihood_every")) {
    m.log_likelihood_every =
        reader.integer(keys.at("log_likelihood_every"), path + ".log_likelihood_every", 0);
  }
  if (has(keys, "samples")) {
    m.samples =
        static_cast<std::int32_t>(reader.integer(keys.at("samples"), path + ".samples", 0, 4096));
  }
  if (!has(keys, "log_z")) return;
  const std::string z = path + ".log_z";
  const auto zk =
      reader.entries(keys.at("log_z"), z, {"rungs", "rounds", "burn_in", "sweeps", "seed"});
  if (has(zk, "rungs"))
    m.log_z.rungs =
        static_cast<std::int32_t>(reader.integer(zk.at("rungs"), z + ".rungs", 2, 4096));
  if (has(zk, "rounds"))
    m.log_z.rounds = reader.integer(zk.at("rounds"), z + ".rounds", 2, 1 << 30);
  if (has(zk, "burn_in"))
    m.log_z.burn_in = reader.integer(zk.at("burn_in"), z + ".burn_in", 0, 1 << 30);
  if (has(zk, "sweeps"))
    m.log_z.sweeps =
        static_cast<std::int32_t>(reader.integer(zk.at("sweeps"), z + ".sweeps", 1, 1 << 20));
  if (has(zk, "seed")) m.log_z.seed = reader.seed(zk.at("seed"), z + ".seed");
}

void parse_train(YamlReader& reader, const YAML::Node& node, const std::string& base_dir,
                 TrainingConfig& c) {
  const auto keys =
      reader.entries(node, "train",
                     {"data", "model", "epochs", "batch", "learning_rate", "schedule", "optimiser",
                      "weight_decay", "positive_phase", "negative_chains", "sweeps", "ladder",
                      "sweep_path", "initial_weight_scale", "seed", "monitor"},
                     {{"optimizer", "write optimiser"},
                      {"chains", "write negative_chains"},
                      {"lr", "write learning_rate"}});
  if (!has(keys, "data")) reader.fail("train", "missing required key 'data'");
  if (!has(keys, "model"))
    reader.fail("train", "missing required key 'model' ({kind: rbm, hidden: H})");
  parse_data(reader, keys.at("data"), base_dir, c.data);
  const auto model = reader.entries(keys.at("model"), "train.model", {"kind", "hidden"});
  if (!has(model, "kind")) reader.fail("train.model", "missing required key 'kind' (rbm)");
  (void)reader.choice(model.at("kind"), "train.model.kind", {"rbm"});
  if (!has(model, "hidden")) reader.fail("train.model", "missing required key 'hidden'");
  c.hidden = reader.integer(model.at("hidden"), "train.model.hidden", 1, 1 << 24);
  TrainingOptions& o = c.options;
  if (has(keys, "epochs")) o.epochs = reader.integer(keys.at("epochs"), "train.epochs", 1, 1 << 24);
  if (has(keys, "batch")) o.batch = reader.integer(keys.at("batch"), "train.batch", 1, 1 << 20);
  if (has(keys, "learning_rate")) {
    o.learning_rate = reader.number(keys.at("learning_rate"), "train.learning_rate", 1e-300, 1e6);
  }
  if (has(keys, "schedule")) parse_schedule(reader, keys.at("schedule"), o);
  if (has(keys, "optimiser")) parse_optimiser(reader, keys.at("optimiser"), o);
  if (has(keys, "weight_decay"))
    o.weight_decay = reader.number(keys.at("weight_decay"), "train.weight_decay", 0.0, 1e6);
  if (has(keys, "positive_phase")) {
    o.positive_phase =
        reader.choice(keys.at("positive_phase"), "train.positive_phase", kPositivePhaseNames);
  }
  if (has(keys, "negative_chains")) {
    o.negative_chains = static_cast<std::int32_t>(
        reader.integer(keys.at("negative_chains"), "train.negative_chains", 1, 1 << 20));
  }
  if (has(keys, "sweeps"))
    o.sweeps =
        static_cast<std::int32_t>(reader.integer(keys.at("sweeps"), "train.sweeps", 1, 1 << 20));
  if (has(keys, "ladder")) o.ladder = reader.numbers(keys.at("ladder"), "train.ladder");
  if (has(keys, "sweep_path")) {
    o.sweep_path = reader.choice(keys.at("sweep_path"), "train.sweep_path", kSweepPathNames);
  }
  if (has(keys, "initial_weight_scale")) {
    o.initial_weight_scale =
        reader.number(keys.at("initial_weight_scale"), "train.initial_weight_scale", 0.0, 1e3);
  }
  if (has(keys, "seed")) o.seed = reader.seed(keys.at("seed"), "train.seed");
  if (has(keys, "monitor")) parse_monitor(reader, keys.at("monitor"), c.monitor);
  try {
    validate_options(o);
  } catch (const std::invalid_argument& e) {
    // The message starts with the option's key path ("train.ladder: ...").
    const std::string message = e.what();
    const auto colon = message.find(": ");
    const std::string key = colon == std::string::npos ? "train" : message.substr(0, colon);
    reader.fail(key, colon == std::string::npos ? message : message.substr(colon + 2));
  }
}

}  // namespace

void TrainingConfig::fail(const std::string& key, const std::string& message) const {
  throw ConfigError(locate(locations, key, Location{file, 0, 0, key}), message);
}

TrainingConfig parse_training_text(const std::string& text, const std::string& name,
                                   const std::string& base_dir) {
  TrainingConfig c;
  c.file = name;
  c.text = text;
  const YAML::Node root =
      load_config_document(text, name, ConfigKind::training,
                           "the training file is empty (expected keys train, device, output)");
  YamlReader reader(name, c.locations);
  try {
    const auto top = reader.entries(root, "", {"train", "device", "output"},
                                    {{"nrpt",
                                      "a training file has no nrpt section (hamon run "
                                      "samples an experiment file)"},
                                     {"model", "the model goes in train.model"}});
    if (!has(top, "train")) reader.fail("", "missing required key 'train'");
    parse_train(reader, top.at("train"), base_dir, c);
    if (has(top, "device")) {
      c.device = reader.text(top.at("device"), "device");
      try {
        (void)parse_device_spec(c.device);
      } catch (const std::invalid_argument& e) {
        reader.fail("device", e.what());
      }
    }
    if (has(top, "output")) {
      const auto keys = reader.entries(top.at("output"), "output", {"dir", "checkpoint_every"});
      if (has(keys, "dir")) c.output_dir = reader.text(keys.at("dir"), "output.dir");
      if (has(keys, "checkpoint_every")) {
        c.checkpoint_every =
            reader.integer(keys.at("checkpoint_every"), "output.checkpoint_every", 1);
      }
    }
    if (c.output_dir.empty()) {
      const std::string stem = std::filesystem::path(name).stem().string();
      c.output_dir = "runs/" + (stem.empty() ? std::string("training") : stem);
    }
  } catch (const YAML::Exception& e) {
    throw unreadable_document(name, e);
  }
  return c;
}

TrainingConfig parse_training_file(const std::string& path) {
  return parse_training_text(read_config_file(path, "training file"), path, config_base_dir(path));
}

}  // namespace hamon::cli
