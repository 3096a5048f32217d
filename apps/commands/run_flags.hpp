// SPDX-License-Identifier: Apache-2.0
#pragma once
// The options `run`, `validate` and `demo` share: the overrides of the experiment file.

#include <CLI/CLI.hpp>
#include <string>

#include "config/experiment_config.hpp"

namespace hamon::cli {

struct RunFlags {
  std::string out, device, seed, rounds, burn_in;
  bool quiet = false;
  bool overwrite = false;
  CLI::Option* out_option = nullptr;
  CLI::Option* device_option = nullptr;
  CLI::Option* seed_option = nullptr;
  CLI::Option* rounds_option = nullptr;
  CLI::Option* burn_in_option = nullptr;
};

/// Which command the flags are for: validate runs nothing (no --quiet; --overwrite checks
/// as run's would); demo replaces only its own earlier run (no --overwrite).
enum class FlagSet { validate, run, demo };

/// Adds --out, --device, --seed, --rounds, --burn-in, and --quiet / --overwrite as above.
void add_run_flags(CLI::App& app, RunFlags& flags, FlagSet set);

/// The overrides the flags give (UsageError for a malformed number).
Overrides overrides_of(const RunFlags& flags);

}  // namespace hamon::cli
