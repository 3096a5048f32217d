// SPDX-License-Identifier: Apache-2.0
// `hamon run CONFIG.yaml` and `hamon validate CONFIG.yaml` (either kind of file).
#include <chrono>
#include <iostream>
#include <memory>
#include <optional>

#include "commands/commands.hpp"
#include "commands/config_subcommand.hpp"
#include "commands/run_flags.hpp"
#include "commands/run_report.hpp"
#include "config/config_kind.hpp"
#include "output/progress_display.hpp"
#include "run/execute_ensemble.hpp"
#include "run/execute_run.hpp"
#include "run/execute_training.hpp"
#include "run/instance_config.hpp"
#include "run/kokkos_session.hpp"
#include "run/mpi_job.hpp"
#include "run/prepare_run.hpp"

namespace hamon::cli {

namespace {

struct RunState {
  std::string config;
  RunFlags flags;
};

/// `validate`'s flags for a training file: --out and --device apply as to `train`; the
/// experiment's overrides do not.
TrainingRunFlags training_flags_of(const RunFlags& flags, const std::string& config) {
  for (const CLI::Option* option : {flags.seed_option, flags.rounds_option, flags.burn_in_option}) {
    if (option->count() > 0) {
      throw UsageError(option->get_name() + ": overrides an experiment file, and " + config +
                       " is a training file (its options are in train:)");
    }
  }
  TrainingRunFlags t;
  if (flags.out_option->count() > 0) t.out = flags.out;
  if (flags.device_option->count() > 0) t.device = flags.device;
  t.overwrite = flags.overwrite;
  return t;
}

OutputPolicy output_policy_of(const RunFlags& flags) {
  return flags.overwrite ? OutputPolicy::replace_run : OutputPolicy::refuse_non_empty;
}

}  // namespace

Command add_run_command(CLI::App& app) {
  auto state = std::make_shared<RunState>();
  CLI::App* sub = add_config_subcommand(app, "run", "Run the experiment a YAML file describes",
                                        state->config, "experiment file (see examples/README.md)");
  add_run_flags(*sub, state->flags, FlagSet::run);
  sub->footer(
      "Writes DIR (output.dir, or --out) with summary.yaml, betas.npy, energies.npy,\n"
      "index_process.npy, samples.npy, config.yaml and checkpoint.bin. While it runs the\n"
      "directory is DIR.partial (traces streamed there, checkpoints per output.checkpoint);\n"
      "DIR appears only when complete. An existing non-empty DIR is refused unless\n"
      "--overwrite is given and DIR is an earlier hamon run holding only hamon's files\n"
      "(which are all it removes). SIGTERM, SIGINT or SIGUSR1, at any moment, end the round\n"
      "(or tuning), write a checkpoint and exit 3: `hamon resume DIR` continues; a second\n"
      "SIGINT or SIGTERM ends the process at once.\n"
      "Exit status: 0 done, 1 the run failed, 2 bad input (nothing created), 3 stopped\n"
      "and resumable.");
  return {sub,
          [state]() {
            const auto started = std::chrono::steady_clock::now();
            const RunFlags& f = state->flags;
            MpiJob& job = MpiJob::current();
            std::optional<PreparedRun> prepared;  // checked on every rank before any sampling
            job.agree([&] {
              prepared.emplace(prepare_run(state->config, overrides_of(f), output_policy_of(f)));
            });
            fit_to_machine(prepared->decision);
            const PreparedRun& run = *prepared;
            // An ensemble's instances are fitted alike (one load sample per process); one
            // whose tuning routes it elsewhere still gives the same bits.
            const KokkosSession kokkos(host_threads_for(run.decision));
            const bool speaks = !f.quiet && job.is_root();
            if (run.config.instances > 1) {
              const EnsembleOutcome ensemble =
                  run_ensemble(run, false, speaks && stderr_is_terminal(), started);
              if (speaks) print_ensemble_report(std::cout, ensemble);
              return 0;
            }
            const RunOutcome outcome = start_run(run, speaks && stderr_is_terminal(), started);
            if (speaks) print_run_report(std::cout, run, outcome, false);
            return 0;
          },
          true, true};
}

Command add_validate_command(CLI::App& app) {
  auto state = std::make_shared<RunState>();
  CLI::App* sub = add_config_subcommand(
      app, "validate",
      "Check an experiment or training file as `run` or `train` would; run nothing", state->config,
      "experiment or training file");
  add_run_flags(*sub, state->flags, FlagSet::validate);
  sub->footer(
      "An experiment file is checked as `run` would, a training file (top-level train:) as\n"
      "`train` would (with --overwrite, as `run --overwrite` would). Exit status: 0 valid, 2 not "
      "(one message on stderr names\n"
      "file:line:column).");
  return {sub, [state]() {
            if (config_file_kind(state->config) == ConfigKind::training) {
              validate_training(state->config, training_flags_of(state->flags, state->config),
                                std::cout);
              return 0;
            }
            const PreparedRun run = prepare_run(state->config, overrides_of(state->flags),
                                                output_policy_of(state->flags));
            check_instance_models(run.config);
            print_validation_report(std::cout, run);
            return 0;
          }};
}

}  // namespace hamon::cli
