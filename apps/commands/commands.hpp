// SPDX-License-Identifier: Apache-2.0
#pragma once
// The subcommands of `hamon`. Each add_* registers its options on the CLI11 app and
// returns what to run when it was chosen. Exit codes: 0 success, 1 a run that failed,
// 2 bad input (the experiment file, a command-line value, the device, a checkpoint that
// does not fit), 3 a run stopped on a signal, saved and resumable.

#include <CLI/CLI.hpp>
#include <functional>

#include "run/exit_status.hpp"

namespace hamon::cli {

struct Command {
  CLI::App* app = nullptr;
  std::function<int()> run;
  /// In a job over MPI ranks, whether every rank takes part (run, resume, extend, devices);
  /// otherwise rank 0 alone runs the command and every rank exits with its status.
  bool over_ranks = false;
  /// Whether it changes a run directory: then stop signals (run/stop_signals.hpp) are
  /// handled from before its first step to its end.
  bool changes_run_directory = false;
};

Command add_run_command(CLI::App& app);
Command add_validate_command(CLI::App& app);
Command add_demo_command(CLI::App& app);
Command add_devices_command(CLI::App& app);
Command add_resolve_command(CLI::App& app);
Command add_resume_command(CLI::App& app);
Command add_extend_command(CLI::App& app);
Command add_calibrate_command(CLI::App& app);
Command add_train_command(CLI::App& app);

}  // namespace hamon::cli
