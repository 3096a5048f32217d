// SPDX-License-Identifier: Apache-2.0
#include "output/run_description.hpp"

#include <sys/stat.h>
#include <yaml-cpp/yaml.h>

#include <ctime>

#include "output/run_files.hpp"

namespace hamon::cli {

namespace {

namespace fs = std::filesystem;

/// The scalar at `node[key]`, or "" (a summary of another version may lack it).
std::string scalar(const YAML::Node& node, const char* key) {
  if (!node || !node.IsMap()) return "";
  const YAML::Node value = node[key];
  return value && value.IsScalar() ? value.Scalar() : "";
}

std::string what_ran(const YAML::Node& summary) {
  const YAML::Node training = summary["training"];
  if (training && training.IsMap()) {
    const std::string epochs = scalar(training, "epochs");
    return "a training run" + (epochs.empty() ? "" : " of " + epochs + " epochs") + " (" +
           scalar(training, "visible") + " x " + scalar(training, "hidden") + " RBM)";
  }
  const YAML::Node config = summary["config"];
  const YAML::Node nrpt = config ? config["nrpt"] : YAML::Node();
  const std::string rounds = scalar(nrpt, "rounds");
  const std::string burn_in = scalar(nrpt, "burn_in");
  const std::string kind = scalar(config ? config["model"] : YAML::Node(), "kind");
  const std::string nodes = scalar(summary["model"], "n_nodes");
  const std::string instances = scalar(summary["ensemble"], "instances");
  std::string text = instances.empty() ? "" : "an ensemble of " + instances + " runs of ";
  text += rounds.empty() ? "a run" : rounds + " rounds";
  if (!burn_in.empty()) text += " (+" + burn_in + " burn-in)";
  if (!kind.empty()) text += " of a " + kind + " model";
  if (!nodes.empty()) text += " of " + nodes + " nodes";
  return text;
}

}  // namespace

std::string describe_complete_run(const fs::path& dir) {
  const fs::path summary = dir / kSummaryFile;
  std::string text;
  try {
    text = what_ran(YAML::LoadFile(summary.string()));
  } catch (const YAML::Exception&) {
    return "a complete run";
  }
  struct stat info {};
  if (::stat(summary.c_str(), &info) == 0) {
    char when[32];
    std::tm local{};
    if (::localtime_r(&info.st_mtime, &local) != nullptr &&
        std::strftime(when, sizeof when, "%Y-%m-%d %H:%M", &local) > 0) {
      text += std::string(", finished ") + when;
    }
  }
  return text;
}

}  // namespace hamon::cli
