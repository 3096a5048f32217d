// SPDX-License-Identifier: Apache-2.0
#include "run/execute_run.hpp"

#include <yaml-cpp/yaml.h>

#include <cstdio>
#include <filesystem>
#include <iostream>
#include <memory>
#include <optional>
#include <sstream>
#include <variant>

#include "config/emit_experiment.hpp"
#include "hamon/core/model/fingerprint.hpp"
#include "hamon/core/sampler/checkpoint.hpp"
#include "hamon/core/sampler/rank_agreement.hpp"
#include "hamon/core/sampler/sampler.hpp"
#include "hamon/policies/dispatch.hpp"
#include "output/npy_stream.hpp"
#include "output/progress_display.hpp"
#include "output/restore_point.hpp"
#include "output/run_directory.hpp"
#include "run/mpi_job.hpp"
#include "run/options_record.hpp"
#include "run/plan_record.hpp"
#include "run/realized_model.hpp"
#include "run/run_driver.hpp"
#include "run/stop_signals.hpp"
#include "run/summary.hpp"
#include "run/trace_setup.hpp"

namespace hamon::cli {

namespace {

namespace fs = std::filesystem;

constexpr const char* kPlanAttachment = "plan";

std::string tuned_parts(const TuneSpec& tune) {
  std::string text;
  const auto add = [&text](bool on, const char* what) {
    if (on) text += (text.empty() ? "" : ", ") + std::string(what);
  };
  add(tune.chains, "chains");
  add(tune.betas, "betas");
  add(tune.explore_sweeps, "explore_sweeps");
  return text;
}

std::string tuned_line(const Plan& plan) {
  char seconds[32];
  std::snprintf(seconds, sizeof seconds, "%.1f s", plan.seconds);
  return "tuned: " + std::to_string(plan.n_chains) + " chains, " + std::to_string(plan.n_expl) +
         " sweeps/round (" + seconds + (plan.cache_hit ? ", from the tuning cache)" : ")");
}

/// What every rank of a job must have read alike: the experiment (as resolved, but for the
/// device, which each rank may choose for itself) and the checkpoint it continues, if any.
template <class Value = std::int8_t>
std::vector<RankInput> rank_inputs(const ExperimentConfig& config,
                                   const CheckpointOf<Value>* checkpoint) {
  ExperimentConfig experiment = config;
  experiment.device.clear();
  const std::uint64_t read = checkpoint == nullptr
                                 ? 0
                                 : Fingerprint()
                                       .add(checkpoint->identity.model_fingerprint)
                                       .add(checkpoint->identity.options_fingerprint)
                                       .add(state_fingerprint(checkpoint->state))
                                       .value();
  return {{"experiment", Fingerprint().add(resolved_config(experiment)).value()},
          {"checkpoint", read}};
}

/// The tuned plan on every rank: every rank runs the tuning flow, each tuning run spread
/// over the ranks (AutotuneOptions::exchange), so every rank makes the one-process plan's
/// decisions (the measured exploration cost is rank 0's). The plan's warm start (the last
/// tuning run's state, of the model's Value) is complete on rank 0 only and is sent to the
/// others.
template <class Value>
Plan tuned_plan(const PreparedRun& run, MpiJob& job) {
  AutotuneOptions tuning = *run.tuning;
  tuning.exchange = job.exchange();
  Plan plan = autotune(*run.model, tuning, run.decision);
  if (!job.distributed()) return plan;
  std::string warm;
  if (job.is_root() && plan.warm_start) {
    CheckpointOf<Value> c;
    c.state = std::get<SamplerStateOf<Value>>(*plan.warm_start);
    std::ostringstream bytes;
    write_checkpoint(bytes, c);
    warm = bytes.str();
  }
  warm = job.broadcast_from_root(warm);
  if (!job.is_root()) {
    plan.warm_start = nullptr;
    if (!warm.empty()) {
      std::istringstream bytes(warm);
      plan.warm_start = std::make_shared<const AnySamplerState>(
          read_checkpoint<Value>(bytes, "the tuned warm start").state);
    }
  }
  return plan;
}

/// A stop that came before the sampler exists (while the model was built, say): the run
/// directory holds config.yaml and no checkpoint, which `hamon resume` starts from the
/// beginning. Tuning does not start, so the stop takes effect at once.
void stop_if_requested_before_sampling(const ExperimentConfig& config, MpiJob& job) {
  std::string signal = StopSignals::requested() ? StopSignals::which() : "";
  const bool on_any_rank = job.distributed()
                               ? job.exchange()->max_over_ranks(signal.empty() ? 0 : 1) == 1
                               : !signal.empty();
  if (!on_any_rank) return;
  if (signal.empty()) signal = "a signal to another rank";
  const fs::path final_dir = normalised_run_dir(config.output.dir);
  throw RunStopped("stopped by " + signal + " before sampling started; the run is saved in " +
                   partial_dir_of(final_dir).string() + ". Start it with: hamon resume " +
                   final_dir.string());
}

/// A continuation from its checkpoint on: rank 0 takes the run directory (DIR.partial;
/// DIR renamed back to it to extend) and reopens the traces; every rank samples.
template <class Value>
RunOutcome continue_in_directory(const PreparedRun& run, ContinueHow how, bool progress,
                                 RunClock::time_point started, RunOutcome outcome,
                                 Production production, CheckpointOf<Value>& checkpoint,
                                 const RunTraceFiles::Shape& shape, RestorePoint* restore) {
  const ExperimentConfig& config = run.config;
  const fs::path final_dir = normalised_run_dir(config.output.dir);
  MpiJob& job = MpiJob::current();
  std::optional<RunDirectory> dir;  // rank 0's
  std::optional<RunTraceFiles> traces;
  job.agree([&] {
    if (!job.is_root()) return;
    dir.emplace(how == ContinueHow::resume ? RunDirectory::open(final_dir)
                                           : RunDirectory::reopen_complete(final_dir));
    if (how == ContinueHow::extend) {
      // Before the first change: from here on DIR.partial holds what puts DIR back.
      restore->attach();
      // The longer run's config; the complete run's summary no longer describes it.
      dir->write(kConfigFile, [&](std::ostream& out) { out << resolved_config(config); });
      std::error_code ignored;
      fs::remove(dir->file(kSummaryFile), ignored);
      fs::remove(dir->file(kBetasFile), ignored);
    }
    const TraceRows rows = trace_rows(checkpoint.state.traces);
    traces.emplace(dir->partial_dir(), shape, &rows);
  });
  RunTraceFiles* sink = traces ? &*traces : nullptr;
  NoTraces no_traces;
  TraceSink* sampler_sink = sink != nullptr ? static_cast<TraceSink*>(sink) : &no_traces;
  Driver driver(run, dir ? &*dir : nullptr, std::move(production), progress);
  const auto sampler = make_sampler_of<Value>(outcome.decision, *run.model, driver.options(),
                                              sampler_sink, &checkpoint.state, job.exchange());
  return driver.drive(*sampler, sink, started, std::move(outcome));
}

template <class Value>
RunOutcome start_run_of(const PreparedRun& run, bool progress, RunClock::time_point started,
                        StartIn where) {
  const ExperimentConfig& config = run.config;
  MpiJob& job = MpiJob::current();
  if (job.distributed()) {
    job.agree([&] { job.require_same_inputs(rank_inputs<Value>(config, nullptr)); });
  }
  std::optional<RunDirectory> dir;  // rank 0's
  job.agree([&] {
    if (!job.is_root()) return;
    dir.emplace(where == StartIn::interrupted_directory
                    ? RunDirectory::open(config.output.dir)
                    : RunDirectory::create(config.output.dir,
                                           run.output_policy == OutputPolicy::replace_run));
    dir->write(kConfigFile, [&](std::ostream& out) { out << resolved_config(config); });
  });
  stop_if_requested_before_sampling(config, job);
  // After the stop: a run stopped before sampling holds config.yaml alone (its start writes
  // model/ when it is resumed).
  job.agree([&] {
    if (dir) write_realized_model(dir->partial_dir(), *run.model, config.model);
  });
  RunOutcome outcome;
  outcome.decision = job.local_decision(
      run.device, static_cast<std::int32_t>(ladder_of(run.options).size()) * run.options.n_replicas,
      run.model->n_free(), run.decision);
  outcome.explore_sweeps = run.options.n_expl;
  Production production;
  production.options = run.options;
  production.attachments[kOptionsAttachment] = options_record(config);
  if (run.tuning) {
    ProgressDisplay display(progress && job.is_root());
    FinishOnExit finish{display};
    display.note("tuning " + tuned_parts(config.nrpt.tune) + " ...");
    outcome.plan = tuned_plan<Value>(run, job);
    display.note(tuned_line(*outcome.plan));
    outcome.explore_sweeps = outcome.plan->n_expl;
    production.options = outcome.plan->options_for(config.nrpt.rounds, run.options);
    production.plan = outcome.plan;
    production.attachments[kPlanAttachment] = plan_record(*outcome.plan);
    // Each rank runs its machines where its own share of the production run routes.
    outcome.plan->decision = job.local_decision(run.device, outcome.plan->n_chains,
                                                run.model->n_free(), outcome.plan->decision);
    outcome.decision = outcome.plan->decision;
  }
  outcome.execution_space = execution_space_of(outcome.decision);
  std::optional<RunTraceFiles> traces;
  job.agree([&] {
    if (dir) traces.emplace(dir->partial_dir(), trace_shape(production.options, *run.model));
  });
  RunTraceFiles* sink = traces ? &*traces : nullptr;
  NoTraces no_traces;
  TraceSink* sampler_sink = sink != nullptr ? static_cast<TraceSink*>(sink) : &no_traces;
  Driver driver(run, dir ? &*dir : nullptr, std::move(production), progress);
  // A tuned run starts where tuning left the plan's ladder (Plan::warm_start).
  const std::unique_ptr<SamplerBaseOf<Value>> sampler =
      outcome.plan ? outcome.plan->production_sampler_of<Value>(driver.options(), sampler_sink,
                                                                job.exchange())
                   : make_sampler_of<Value>(outcome.decision, *run.model, driver.options(),
                                            sampler_sink, nullptr, job.exchange());
  if (config.output.checkpoint.enabled) driver.save(*sampler);  // round 0: resumable at once
  return driver.drive(*sampler, sink, started, std::move(outcome));
}

template <class Value>
RunOutcome continue_run_of(const PreparedRun& run, ContinueHow how, bool progress,
                           RunClock::time_point started) {
  const ExperimentConfig& config = run.config;
  const fs::path final_dir = normalised_run_dir(config.output.dir);
  const fs::path source = how == ContinueHow::resume ? partial_dir_of(final_dir) : final_dir;
  MpiJob& job = MpiJob::current();
  // Every rank reads the checkpoint (one file, whatever the rank count that wrote it).
  std::optional<LoadedCheckpointOf<Value>> loaded_here;
  job.agree([&] { loaded_here.emplace(load_checkpoint<Value>(source / kCheckpointFile)); });
  LoadedCheckpointOf<Value>& loaded = *loaded_here;
  if (job.distributed()) {
    job.agree([&] { job.require_same_inputs(rank_inputs(config, &loaded.checkpoint)); });
  }
  for (const std::string& why : loaded.skipped) {
    if (job.is_root()) std::cerr << "hamon: warning: skipped " << why << "\n";
  }
  if (!loaded.skipped.empty() && job.is_root()) {
    std::cerr << "hamon: warning: continuing from the previous good checkpoint "
              << loaded.file.string() << " (round " << loaded.checkpoint.state.rounds_done << ")\n";
  }
  CheckpointOf<Value>& checkpoint = loaded.checkpoint;
  const std::string note = other_version_note(checkpoint.identity, loaded.file.string());
  if (!note.empty() && job.is_root()) std::cerr << "hamon: note: " << note << "\n";

  RunOutcome outcome;
  outcome.explore_sweeps = run.options.n_expl;
  outcome.resumed_from = loaded.file.string();
  Production production;
  production.options = run.options;
  production.attachments = checkpoint.attachments;
  job.agree([&] {
    if (run.tuning) {
      const auto it = checkpoint.attachments.find(kPlanAttachment);
      if (it == checkpoint.attachments.end()) {
        throw CheckpointError(loaded.file.string() +
                              ": the experiment tunes, but the checkpoint holds no tuned plan");
      }
      Plan plan;
      try {
        plan = plan_from_record(it->second);
      } catch (const std::exception& e) {
        throw CheckpointError(loaded.file.string() + ": " + e.what());
      }
      plan.decision = run.decision;
      plan.model = std::make_shared<const SpinModel>(*run.model);
      plan.reference = run.tuning->reference;
      outcome.explore_sweeps = plan.n_expl;
      production.options = plan.options_for(config.nrpt.rounds, run.options);
      outcome.plan = plan;
      production.plan = plan;
    }
  });
  outcome.decision =
      job.local_decision(run.device, static_cast<std::int32_t>(checkpoint.state.n_machines),
                         run.model->n_free(), run.decision);
  if (outcome.plan) outcome.plan->decision = outcome.decision;
  outcome.execution_space = execution_space_of(outcome.decision);
  job.agree([&] {
    check_options_identity(checkpoint.identity, checkpoint.attachments,
                           identity_of(*run.model, production.options), config,
                           loaded.file.string());
    const UntilSpec& until = config.nrpt.until;
    if (until.enabled && how == ContinueHow::extend) {
      throw CheckpointError(loaded.file.string() +
                            ": the run measured until its best energy was stable (nrpt.until); "
                            "extend adds rounds to a run of a fixed length");
    }
    // A run of nrpt.until measures up to its max_rounds, in chunks of `rounds`.
    const std::int64_t target = production.options.burn_in +
                                (until.enabled ? until.max_rounds : production.options.n_rounds);
    if (checkpoint.state.rounds_done > target) {
      throw CheckpointError(
          loaded.file.string() + ": the checkpoint is at round " +
          std::to_string(checkpoint.state.rounds_done) + ", past the configured burn_in + " +
          (until.enabled ? "until.max_rounds" : "rounds") + " = " + std::to_string(target));
    }
  });

  const RunTraceFiles::Shape shape = trace_shape(production.options, *run.model);
  std::optional<RestorePoint> restore;  // rank 0's, when extending
  job.agree([&] {
    if (!job.is_root()) return;
    // The last check before the run directory changes: the traces hold the checkpoint's rows.
    try {
      RunTraceFiles::check_reopenable(source, shape, trace_rows(checkpoint.state.traces));
    } catch (const std::runtime_error& e) {
      throw CheckpointError(std::string(e.what()) + "; the run directory does not match " +
                            loaded.file.filename().string());
    }
    if (how == ContinueHow::extend) {
      restore.emplace(
          final_dir, RunTraceFiles::extents(final_dir, shape, trace_rows(checkpoint.state.traces)));
    }
  });
  try {
    RunOutcome done = continue_in_directory(run, how, progress, started, std::move(outcome),
                                            std::move(production), checkpoint, shape,
                                            restore ? &*restore : nullptr);
    if (restore) restore->release();
    return done;
  } catch (const RunStopped&) {
    // The extension goes on in DIR.partial (`hamon resume`), or is dropped (--abandon).
    if (restore) restore->release();
    throw;
  } catch (...) {
    if (restore) restore->roll_back();  // a failed extension leaves DIR as it was
    throw;
  }
}

}  // namespace

RunOutcome start_run(const PreparedRun& run, bool progress, RunClock::time_point started,
                     StartIn where) {
  return run.model->is_continuous() ? start_run_of<double>(run, progress, started, where)
                                    : start_run_of<std::int8_t>(run, progress, started, where);
}

RunOutcome continue_run(const PreparedRun& run, ContinueHow how, bool progress,
                        RunClock::time_point started) {
  return run.model->is_continuous() ? continue_run_of<double>(run, how, progress, started)
                                    : continue_run_of<std::int8_t>(run, how, progress, started);
}

}  // namespace hamon::cli
