// SPDX-License-Identifier: Apache-2.0
#include "run/demo_directory.hpp"

#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>
#include <string>
#include <system_error>

#include "config/emit_experiment.hpp"
#include "output/run_directory.hpp"
#include "output/run_files.hpp"

namespace hamon::cli {

namespace {

namespace fs = std::filesystem;

// How many numbered neighbours the demo tries before it gives up.
constexpr int kLastAlternative = 99;

bool holds_config(const fs::path& dir, const std::string& config_text) {
  std::ifstream in(dir / kConfigFile, std::ios::binary);
  if (!in) return false;
  std::ostringstream text;
  text << in.rdbuf();
  return text.str() == config_text;
}

/// Why the demo of `config` must not write into its output.dir, or nothing when that is
/// free or holds only the demo's own earlier run.
std::optional<std::string> not_the_demos(const ExperimentConfig& config) {
  const fs::path dir = normalised_run_dir(config.output.dir);
  const fs::path partial = partial_dir_of(dir);
  const std::string text = resolved_config(config);
  std::error_code ec;
  if (fs::exists(partial, ec) &&
      (!holds_config(partial, text) || !foreign_entries(partial).empty())) {
    return "'" + partial.string() + "' holds an interrupted run that is not this demo's";
  }
  if (!fs::exists(dir, ec) || (fs::is_directory(dir, ec) && fs::is_empty(dir, ec))) {
    return std::nullopt;
  }
  if (!is_hamon_run(dir)) {
    return "'" + dir.string() + "' is not empty and is not an earlier run of this demo";
  }
  if (!holds_config(dir, text)) {
    return "'" + dir.string() + "' holds a run that is not this demo's (its " + kConfigFile +
           " differs from the demo's)";
  }
  const auto foreign = foreign_entries(dir);
  if (!foreign.empty()) {
    return "'" + dir.string() + "' holds files hamon did not write (" + listed(foreign) + ")";
  }
  return std::nullopt;
}

}  // namespace

void choose_demo_directory(PreparedRun& run, bool may_move, std::ostream& note) {
  ExperimentConfig& config = run.config;
  const std::string wanted = config.output.dir;
  const auto why = not_the_demos(config);
  if (why) {
    const std::string base = normalised_run_dir(wanted).string();
    bool found = false;
    for (int k = 2; may_move && !found && k <= kLastAlternative; ++k) {
      config.output.dir = base + "-" + std::to_string(k);
      found = !not_the_demos(config);
    }
    if (!found) {
      config.output.dir = wanted;
      config.fail("output.dir",
                  *why + "; the demo replaces only its own earlier run, never another" +
                      (may_move ? " (and " + base + "-2 to -" + std::to_string(kLastAlternative) +
                                      " are taken too): move it away or pass --out DIR"
                                : ": choose another directory with --out"));
    }
    note << "hamon: note: " << *why << "; the demo writes to " << config.output.dir
         << " instead (the first of " << base << "-2, -3, ... free or holding its own run)\n";
  }
  run.output_policy = OutputPolicy::replace_run;
  if (const auto problem = output_directory_problem(config.output.dir, true)) {
    config.fail("output.dir", *problem);
  }
}

}  // namespace hamon::cli
