// SPDX-License-Identifier: Apache-2.0
// The `hamon` command: YAML-configured experiments in, a complete run directory out.
// Data flows config -> policies -> core -> outputs: apps/config parses and checks the
// experiment, apps/run builds the model and options, resolves the device once and runs,
// apps/output writes the run directory; apps/commands holds the subcommands.
#include <CLI/CLI.hpp>
#include <exception>
#include <iostream>
#include <vector>

#include "commands/commands.hpp"
#include "config/config_error.hpp"
#include "hamon/core/checkpoint.hpp"
#include "hamon/version.hpp"
#include "run/execute_run.hpp"

namespace {

int run_guarded(const std::function<int()>& command) {
  using namespace hamon::cli;
  try {
    return command();
  } catch (const ConfigError& e) {
    std::cerr << e.what() << "\n";
    return kExitBadInput;
  } catch (const UsageError& e) {
    std::cerr << "hamon: error: " << e.what() << "\n";
    return kExitBadInput;
  } catch (const hamon::CheckpointError& e) {
    std::cerr << "hamon: error: " << e.what() << "\n";
    return kExitBadInput;
  } catch (const RunStopped& e) {
    std::cerr << "hamon: " << e.what() << "\n";
    return kExitStopped;
  } catch (const std::exception& e) {
    std::cerr << "hamon: error: " << e.what() << "\n";
    return kExitRunFailed;
  }
}

}  // namespace

int main(int argc, char* argv[]) {
  using namespace hamon::cli;
  CLI::App app{"hamon: non-reversible parallel tempering and block Gibbs sampling on Kokkos"};
  app.set_version_flag("--version", std::string("hamon ") + hamon::version);
  app.require_subcommand(1);
  app.footer(
      "Experiment files: examples/README.md. Exit status: 0 ok, 1 run failed, 2 bad input,\n"
      "3 stopped on a signal (resumable with `hamon resume DIR`).");
  const std::vector<Command> commands = {
      add_run_command(app),     add_validate_command(app),  add_devices_command(app),
      add_resolve_command(app), add_demo_command(app),      add_resume_command(app),
      add_extend_command(app),  add_calibrate_command(app),
  };
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int code = app.exit(e);
    return code == 0 ? 0 : kExitBadInput;
  }
  for (const Command& command : commands) {
    if (command.app->parsed()) return run_guarded(command.run);
  }
  return kExitBadInput;
}
