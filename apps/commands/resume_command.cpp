// SPDX-License-Identifier: Apache-2.0
// `hamon resume DIR` and `hamon extend DIR --rounds N`: continue a run from its checkpoint.
#include <chrono>
#include <filesystem>
#include <iostream>
#include <limits>
#include <memory>
#include <optional>

#include "commands/commands.hpp"
#include "commands/option_values.hpp"
#include "commands/run_report.hpp"
#include "config/parse_experiment.hpp"
#include "output/progress_display.hpp"
#include "output/restore_point.hpp"
#include "output/run_description.hpp"
#include "output/run_directory.hpp"
#include "output/run_files.hpp"
#include "run/execute_ensemble.hpp"
#include "run/execute_run.hpp"
#include "run/execute_training.hpp"
#include "run/kokkos_session.hpp"
#include "run/mpi_job.hpp"
#include "run/prepare_run.hpp"

namespace hamon::cli {

namespace {

namespace fs = std::filesystem;

struct ContinueFlags {
  std::string dir, device, rounds;
  bool quiet = false;
  bool abandon = false;    // extend --abandon
  bool overwrite = false;  // resume --overwrite
  CLI::Option* device_option = nullptr;
};

/// The run's own resolved experiment (config.yaml in `source`), pointed at DIR.
PreparedRun prepare_continuation(const ContinueFlags& f, const fs::path& source,
                                 std::int64_t extra_rounds) {
  const fs::path config_file = source / kConfigFile;
  std::error_code ec;
  if (!fs::is_regular_file(config_file, ec)) {
    throw UsageError("no " + std::string(kConfigFile) + " in " + source.string() +
                     ": not a run directory of this hamon");
  }
  Overrides overrides;
  overrides.out = normalised_run_dir(f.dir).string();
  if (f.device_option->count() > 0) overrides.device = f.device;
  if (extra_rounds > 0) {
    const std::int64_t rounds = parse_experiment_file(config_file.string()).nrpt.rounds;
    if (rounds > std::numeric_limits<std::int64_t>::max() - extra_rounds) {
      throw UsageError("--rounds: too many rounds");
    }
    overrides.rounds = rounds + extra_rounds;
  }
  return prepare_run(config_file.string(), overrides, OutputPolicy::continue_run);
}

/// Why neither resume nor extend continues the complete training run in `dir`, and what
/// does instead: a training run ends at its epochs, and trains from its start only.
std::string complete_training_run(const fs::path& dir, ContinueHow how) {
  const std::string d = dir.string();
  return d + " is a complete training run: " +
         (how == ContinueHow::resume ? "nothing to resume" : "extend continues sampling runs") +
         ", and training does not continue past its epochs; to train longer, raise "
         "train.epochs in the training file (" +
         d + "/" + kTrainingConfigFile +
         " is a copy of it) and `hamon train` it with another --out; to sample the trained "
         "model, `hamon run` an experiment with model: {kind: rbm, weights: {file: " +
         d + "/weights.npy}, visible_bias: {file: " + d +
         "/visible_bias.npy}, hidden_bias: {file: " + d + "/hidden_bias.npy}, ...}";
}

CLI::App* add_common(CLI::App& app, const char* name, const char* what, ContinueFlags& f) {
  CLI::App* sub = app.add_subcommand(name, what);
  sub->add_option("DIR", f.dir, "the run directory (as given to `hamon run --out`)")
      ->required()
      ->type_name("DIR");
  f.device_option =
      sub->add_option("--device", f.device, device_option_help("resolved again; same bits"))
          ->type_name("SPEC");
  sub->add_flag("--quiet,-q", f.quiet, "no progress display and no report on stdout");
  return sub;
}

/// A run started with --overwrite over a complete one and interrupted: finishing it
/// replaces that run, which `resume` does only when asked again, and says so before it
/// samples rather than at the end.
void refuse_replacing_unasked(const ContinueFlags& f, const fs::path& dir,
                              const fs::path& partial) {
  std::error_code ec;
  if (!fs::is_directory(partial, ec) || !fs::exists(dir, ec) ||
      (fs::is_directory(dir, ec) && fs::is_empty(dir, ec))) {
    return;
  }
  if (f.overwrite) {
    if (const auto problem = output_directory_problem(dir.string(), true))
      throw UsageError(*problem);
    if (MpiJob::current().is_root()) announce_replacement(dir);
    return;
  }
  const std::string d = dir.string();
  throw UsageError(
      "'" + d + "' holds " +
      (is_hamon_run(dir) ? "a complete run (" + describe_complete_run(dir) + ")" : "files") +
      ", and '" + partial.string() +
      "' an interrupted run that would replace it when done (it was started with "
      "--overwrite); `hamon resume " +
      d + " --overwrite` finishes it and then replaces " + d + ", or move " + d +
      " away first to keep it");
}

int continue_command(const ContinueFlags& f, ContinueHow how, std::int64_t extra_rounds) {
  const auto started = std::chrono::steady_clock::now();
  const fs::path dir = normalised_run_dir(f.dir);
  const fs::path partial = partial_dir_of(dir);
  MpiJob& job = MpiJob::current();
  std::optional<PreparedRun> prepared;
  bool from_the_beginning = false;
  job.agree([&] {
    std::error_code ec;
    if (!fs::is_directory(partial, ec) && is_hamon_run(dir) &&
        fs::is_regular_file(dir / kTrainingConfigFile, ec)) {
      throw UsageError(complete_training_run(dir, how));
    }
    if (how == ContinueHow::resume && !fs::is_directory(partial, ec)) {
      if (fs::is_regular_file(dir / kSummaryFile, ec)) {
        // extend refuses an ensemble: naming it would send the user to a second refusal.
        if (fs::is_directory(dir / kInstancesDir, ec)) {
          throw UsageError(dir.string() + " is a complete ensemble, nothing to resume");
        }
        throw UsageError(dir.string() + " is a complete run, nothing to resume; `hamon extend " +
                         dir.string() + " --rounds N` continues it");
      }
      throw UsageError("no interrupted run at " + dir.string() + " (no " + partial.string() + ")");
    }
    if (how == ContinueHow::extend) {
      if (is_interrupted_extension(partial)) {
        throw UsageError("an extension of the complete run in " + partial.string() +
                         " was interrupted; `hamon resume " + dir.string() +
                         "` finishes it first (or `hamon extend " + dir.string() +
                         " --abandon` drops it, putting the complete run back)");
      }
      if (fs::is_directory(partial, ec)) {
        throw UsageError("an interrupted run is in " + partial.string() + "; `hamon resume " +
                         dir.string() + "` finishes it first");
      }
      if (!fs::is_regular_file(dir / kSummaryFile, ec)) {
        throw UsageError(dir.string() + " is not a complete hamon run (no " + kSummaryFile + ")");
      }
    }
    if (how == ContinueHow::resume) refuse_replacing_unasked(f, dir, partial);
    prepared.emplace(
        prepare_continuation(f, how == ContinueHow::resume ? partial : dir, extra_rounds));
    if (f.overwrite) prepared->output_policy = OutputPolicy::replace_run;
    if (prepared->config.instances > 1 && how == ContinueHow::extend) {
      throw UsageError(dir.string() +
                       " is an ensemble (instances); extend runs one run longer: give each "
                       "instance's rounds in a new ensemble");
    }
    // Stopped before sampling: starting again from config.yaml is the run itself.
    from_the_beginning = how == ContinueHow::resume && is_unstarted_run(partial);
  });
  fit_to_machine(prepared->decision);
  const PreparedRun& run = *prepared;
  const KokkosSession kokkos(host_threads_for(run.decision));
  const bool speaks = !f.quiet && job.is_root();
  const bool progress = speaks && stderr_is_terminal();
  if (run.config.instances > 1) {
    const EnsembleOutcome ensemble = run_ensemble(run, true, progress, started);
    if (speaks) print_ensemble_report(std::cout, ensemble);
    return 0;
  }
  const RunOutcome outcome = from_the_beginning
                                 ? start_run(run, progress, started, StartIn::interrupted_directory)
                                 : continue_run(run, how, progress, started);
  if (speaks) {
    if (from_the_beginning) {
      std::cout << "hamon: started from the beginning (" << partial.string()
                << " held nothing sampled yet)\n";
    } else {
      std::cout << "hamon: continued from " << outcome.resumed_from << "\n";
    }
    print_run_report(std::cout, run, outcome, false);
  }
  return 0;
}

/// `hamon extend DIR --abandon`: the interrupted extension is dropped, the complete run
/// it extended is DIR again.
int abandon_command(const ContinueFlags& f) {
  const fs::path dir = normalised_run_dir(f.dir);
  const fs::path partial = partial_dir_of(dir);
  std::error_code ec;
  if (!fs::is_directory(partial, ec)) {
    throw UsageError("no interrupted extension at " + dir.string() + " (no " + partial.string() +
                     ")" + (is_hamon_run(dir) ? "; " + dir.string() + " is a complete run" : ""));
  }
  if (!is_interrupted_extension(partial)) {
    throw UsageError(partial.string() +
                     " is an interrupted run, not an interrupted extension: there is no complete "
                     "run to put back; `hamon resume " +
                     dir.string() + "` finishes it");
  }
  const std::string why = extension_not_abandonable(dir);
  if (!why.empty()) throw UsageError(why + "; nothing was changed");
  const std::string what = describe_complete_run(partial / kBeforeExtendDir);
  abandon_extension(dir);
  if (!f.quiet) {
    std::cout << "hamon: dropped the extension; " << dir.string() << " is the complete run ("
              << what << ") as it was before `hamon extend`\n";
  }
  return 0;
}

}  // namespace

Command add_resume_command(CLI::App& app) {
  auto f = std::make_shared<ContinueFlags>();
  CLI::App* sub =
      add_common(app, "resume", "Continue an interrupted run (DIR.partial) to its end", *f);
  sub->add_flag("--overwrite", f->overwrite,
                "replace the earlier hamon run in DIR when done (a run started with "
                "--overwrite over it)");
  sub->footer(
      "Continues DIR.partial (a sampling or a training run) from its last good checkpoint (a "
      "corrupt newest one falls back\n"
      "to the previous one, and says so) and renames it to DIR when done; a sampling run\n"
      "stopped before sampling starts from the beginning. The result is\n"
      "bit-identical to an uninterrupted run, whatever --device. A checkpoint that does not\n"
      "fit DIR.partial/config.yaml (other model, options, checkpoint format or random-stream\n"
      "version) is refused; one written by another hamon version with this one's format and\n"
      "random stream continues (with a note). A failed resume leaves DIR.partial resumable.\n"
      "A run started with --overwrite over an earlier one replaces it only with --overwrite\n"
      "again (refused before it samples otherwise).\n"
      "Exit status: 0 done, 1 the run failed, 2 bad input or checkpoint, 3 stopped again.");
  return {sub,
          [f]() {
            std::error_code ec;
            const fs::path partial = partial_dir_of(normalised_run_dir(f->dir));
            if (fs::is_regular_file(partial / kTrainingConfigFile, ec)) {
              if (MpiJob::current().distributed()) {
                throw UsageError("training runs in one process: resume it without mpirun");
              }
              refuse_replacing_unasked(*f, normalised_run_dir(f->dir), partial);
              TrainingRunFlags flags;
              if (f->device_option->count() > 0) flags.device = f->device;
              flags.speak = !f->quiet;
              flags.overwrite = f->overwrite;
              return MpiJob::current().is_root() ? train_resume(f->dir, flags) : 0;
            }
            return continue_command(*f, ContinueHow::resume, 0);
          },
          true, true};
}

Command add_extend_command(CLI::App& app) {
  auto f = std::make_shared<ContinueFlags>();
  CLI::App* sub = add_common(app, "extend", "Continue a complete run by more measured rounds", *f);
  CLI::Option* rounds =
      sub->add_option("--rounds", f->rounds, "measured rounds to add")->type_name("N");
  sub->add_flag("--abandon", f->abandon,
                "drop an interrupted extension: DIR is the complete run again, as it was")
      ->excludes(rounds);
  sub->footer(
      "Continues DIR from its final checkpoint by N measured rounds: the result is\n"
      "bit-identical to a run configured with rounds + N from the start. While it runs,\n"
      "DIR is DIR.partial again (`hamon resume DIR` finishes an interrupted extension);\n"
      "a failed extension (not a stopped one) leaves DIR exactly as it was. DIR.partial\n"
      "keeps what the extension changed in the complete run (DIR.partial/before-extend/)\n"
      "until it is done: `hamon extend DIR --abandon` drops an interrupted extension and\n"
      "puts the complete run back in DIR, byte for byte; no --overwrite deletes it.\n"
      "Exit status: 0 done, 1 the run failed, 2 bad input or checkpoint, 3 stopped.");
  return {sub,
          [f]() {
            if (f->abandon) {
              return MpiJob::current().is_root() ? abandon_command(*f) : 0;
            }
            if (f->rounds.empty()) {
              throw UsageError("extend: --rounds N (the rounds to add) or --abandon is required");
            }
            const std::int64_t n = parse_integer_option("--rounds", f->rounds, 1, kMaxRoundsTotal);
            return continue_command(*f, ContinueHow::extend, n);
          },
          true, true};
}

}  // namespace hamon::cli
