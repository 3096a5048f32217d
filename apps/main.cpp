// SPDX-License-Identifier: Apache-2.0
// The `hamon` command: YAML-configured experiments in, a complete run directory out.
// Data flows config -> policies -> core -> outputs: apps/config parses and checks the
// experiment, apps/run builds the model and options, resolves the device once and runs,
// apps/output writes the run directory; apps/commands holds the subcommands. Each is a
// library of its own (apps/CMakeLists.txt); this file only dispatches to the commands.
#include <CLI/CLI.hpp>
#include <exception>
#include <iostream>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "commands/commands.hpp"
#include "config/config_error.hpp"
#include "hamon/core/sampler/checkpoint.hpp"
#include "hamon/policies/resolve_device.hpp"
#include "hamon/version.hpp"
#include "run/execute_run.hpp"
#include "run/mpi_job.hpp"
#include "run/stop_signals.hpp"

namespace {

using hamon::cli::MpiJob;

/// The exit status and message of a command's failure.
struct Failure {
  int status;
  std::string message;      // empty: nothing to print
  bool every_rank = false;  // every rank of a job fails the same way at the same point
};

Failure failure_of(const std::exception_ptr& error) {
  using namespace hamon::cli;
  try {
    std::rethrow_exception(error);
  } catch (const FailedOnAnotherRank& e) {
    return {e.status(), "", true};
  } catch (const ConfigError& e) {
    return {kExitBadInput, e.what()};  // already the whole line (error_line)
  } catch (const UsageError& e) {
    return {kExitBadInput, error_line(e.what())};
  } catch (const hamon::CheckpointError& e) {
    return {kExitBadInput, error_line(e.what())};
  } catch (const RunStopped& e) {
    // Every rank stops at the same round; rank 0 says where the run is saved.
    return {e.status(), MpiJob::current().is_root() ? std::string("hamon: ") + e.what() : "", true};
  } catch (const std::exception& e) {
    return {kExitRunFailed, error_line(e.what())};
  } catch (...) {
    return {kExitRunFailed, error_line("an unknown exception")};
  }
}

int exit_status_of(const std::exception_ptr& error) {
  return failure_of(error).status;
}

/// An invalid HAMON_* setting is bad input for every command, reported before it starts
/// (and never as a place in the experiment file).
void check_settings() {
  try {
    hamon::check_environment();
  } catch (const std::invalid_argument& e) {
    throw hamon::cli::UsageError(e.what());
  }
}

/// Runs a command; its failure's status (and message). `over_ranks`: every rank of a job
/// runs it, so a failure on this rank alone ends the job.
int run_guarded(const std::function<int()>& command, bool over_ranks) {
  try {
    // Every rank reads the same settings: they fail together, and one prints.
    if (over_ranks) {
      MpiJob::current().agree(check_settings);
    } else {
      check_settings();
    }
    return command();
  } catch (...) {
    const std::exception_ptr error = std::current_exception();
    const Failure f = failure_of(error);
    const MpiJob& job = MpiJob::current();
    if (over_ranks && job.distributed() && !job.failure_agreed() && !f.every_rank) {
      // One rank failed while the others may wait for it in a collective.
      job.abort_job(f.message, f.status);
    }
    if (!f.message.empty()) std::cerr << f.message << "\n";
    return f.status;
  }
}

}  // namespace

int main(int argc, char* argv[]) {
  using namespace hamon::cli;
  MpiJob job(argc, argv);
  job.set_status_of(exit_status_of);
  CLI::App app{"hamon: non-reversible parallel tempering and block Gibbs sampling on Kokkos"};
  app.set_version_flag("--version", std::string("hamon ") + hamon::version);
  app.require_subcommand(1);
  app.footer(
      "Experiment files: examples/README.md. Exit status: 0 ok, 1 run failed, 2 bad input,\n"
      "3 stopped on a signal (resumable with `hamon resume DIR`).");
  const std::vector<Command> commands = {
      add_run_command(app),     add_validate_command(app),  add_devices_command(app),
      add_resolve_command(app), add_demo_command(app),      add_resume_command(app),
      add_extend_command(app),  add_calibrate_command(app), add_train_command(app),
  };
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int code = app.exit(e);
    return code == 0 ? 0 : kExitBadInput;
  }
  for (const Command& command : commands) {
    if (!command.app->parsed()) continue;
    // Before the command's first step: a stop while it reads files or tunes must not kill
    // it with a run directory half made.
    std::optional<StopSignals> signals;
    if (command.changes_run_directory) signals.emplace(job.is_root());
    if (!job.distributed() || command.over_ranks) return run_guarded(command.run, true);
    // A one-process command in a job over ranks: rank 0 runs it, every rank exits alike.
    const int status = job.is_root() ? run_guarded(command.run, false) : 0;
    return static_cast<int>(job.exchange()->max_over_ranks(status));
  }
  return kExitBadInput;
}
