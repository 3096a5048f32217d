// SPDX-License-Identifier: Apache-2.0
#include "run/execute_run.hpp"

#include <yaml-cpp/yaml.h>

#include <cstdio>
#include <filesystem>
#include <iostream>
#include <memory>
#include <optional>
#include <sstream>

#include "config/emit_experiment.hpp"
#include "hamon/core/checkpoint.hpp"
#include "hamon/core/sampler.hpp"
#include "hamon/policies/dispatch.hpp"
#include "output/npy.hpp"
#include "output/npy_stream.hpp"
#include "output/progress_display.hpp"
#include "output/run_directory.hpp"
#include "run/mpi_job.hpp"
#include "run/options_record.hpp"
#include "run/plan_record.hpp"
#include "run/stop_signals.hpp"
#include "run/summary.hpp"

namespace hamon::cli {

namespace {

namespace fs = std::filesystem;
using clock = std::chrono::steady_clock;

constexpr const char* kPlanAttachment = "plan";

double seconds_since(clock::time_point start) {
  return std::chrono::duration<double>(clock::now() - start).count();
}

/// Ends the progress line however the run ends.
struct FinishOnExit {
  ProgressDisplay& display;
  ~FinishOnExit() { display.finish(); }
};

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

std::string resolved_config(const ExperimentConfig& config) {
  YAML::Emitter out;
  emit_experiment(out, config);
  return std::string(out.c_str()) + "\n";
}

/// The production run: its options, its plan when tuned, the sampler's identity.
struct Production {
  NrptOptions options;
  std::optional<Plan> plan;
  std::map<std::string, std::string> attachments;
};

/// Everything between "the sampler exists" and "the run directory is committed". In a job
/// over ranks every rank drives its sampler (the sampler's calls are collective); only
/// rank 0 has the run directory (`dir`, null elsewhere) and shows progress.
class Driver {
 public:
  Driver(const PreparedRun& run, RunDirectory* dir, Production production, bool progress)
      : run_(run),
        dir_(dir),
        production_(std::move(production)),
        display_(progress && dir != nullptr) {
    if (display_.enabled()) {
      NrptOptions& o = production_.options;
      o.progress_every = ProgressDisplay::report_every(o.burn_in + o.n_rounds);
      o.on_progress = [this](const Progress& p) { display_.update(p); };
    }
  }
  Driver(const Driver&) = delete;
  Driver& operator=(const Driver&) = delete;

  /// The production options (with the progress display attached).
  const NrptOptions& options() const { return production_.options; }

  RunOutcome drive(SamplerBase& sampler, RunTraceFiles* traces, clock::time_point started,
                   RunOutcome outcome) {
    const CheckpointSpec& cadence = run_.config.output.checkpoint;
    const std::int64_t target = production_.options.burn_in + production_.options.n_rounds;
    auto last_save = clock::now();
    bool due = false;  // sticky until handled: over ranks the stop comes a round later
    const auto should_stop = [&]() {
      if (StopSignals::requested()) return true;
      if (!cadence.enabled) return false;
      due = due || (cadence.every > 0 && sampler.rounds_done() % cadence.every == 0) ||
            (cadence.seconds > 0.0 && seconds_since(last_save) >= cadence.seconds);
      return due;
    };
    MpiJob& job = MpiJob::current();
    const auto sampling_start = clock::now();
    checkpoint_s_ = 0.0;  // the round-0 checkpoint is set-up, not sampling
    {
      FinishOnExit finish{display_};
      while (sampler.rounds_done() < target) {
        due = false;
        sampler.run(target - sampler.rounds_done(), should_stop);
        std::string signal = StopSignals::requested() ? StopSignals::which() : "";
        if (job.distributed()) {
          // Why the ranks stopped (they stopped at the same round): 2 a signal, 1 a save.
          MachineExchange& ranks = *job.exchange();
          const std::int64_t why = ranks.max_over_ranks(!signal.empty() ? 2 : due ? 1 : 0);
          if (why == 2 && signal.empty()) signal = "a signal to another rank";
          due = why >= 1;
        }
        if (!signal.empty()) {
          display_.finish();
          stop(sampler, signal);
        }
        if (due) {
          save(sampler);
          last_save = clock::now();
        }
      }
    }
    if (cadence.enabled) save(sampler);  // the final state: `hamon extend` continues it
    outcome.sampling_s = seconds_since(sampling_start);
    outcome.checkpoint_s = checkpoint_s_;
    return finish(sampler, traces, started, std::move(outcome));
  }

  /// Collective over ranks (the state gathers to rank 0, which writes it).
  void save(SamplerBase& sampler) {
    const auto start = clock::now();
    Checkpoint c;
    c.identity = sampler.identity();  // the fingerprint its DeviceModel already holds
    c.state = sampler.state();
    c.attachments = production_.attachments;
    if (dir_ != nullptr) save_checkpoint(dir_->file(kCheckpointFile), c);
    checkpoint_s_ += seconds_since(start);
  }

 private:
  [[noreturn]] void stop(SamplerBase& sampler, const std::string& signal) {
    const fs::path final_dir = normalised_run_dir(run_.config.output.dir);
    const std::string partial = partial_dir_of(final_dir).string();
    if (!run_.config.output.checkpoint.enabled) {
      // Every rank knows (the config is the same), so the job ends with one status.
      throw RunStopped("stopped by " + signal +
                           "; checkpoints are off (output.checkpoint: false), so the run in " +
                           partial + " cannot be resumed",
                       kExitRunFailed);
    }
    save(sampler);
    throw RunStopped("stopped by " + signal + " after round " +
                     std::to_string(sampler.rounds_done()) + "; the run is saved in " + partial +
                     ". Continue it with: hamon resume " + final_dir.string());
  }

  RunOutcome finish(SamplerBase& sampler, RunTraceFiles* traces, clock::time_point started,
                    RunOutcome outcome) {
    outcome.result = sampler.result();    // collective over ranks
    if (dir_ == nullptr) return outcome;  // not rank 0: rank 0 writes the run directory
    traces->sync();
    RunDirectory& dir = *dir_;
    NrptResult& r = outcome.result;
    // The traces streamed to the files; the diagnostics read back what they use: the
    // energies (log Z, ESS, the energy without moments) and, without moments, the samples
    // (marginal entropy). The index process is not read.
    const auto chains = static_cast<std::int64_t>(r.betas.size());
    const ObserverOptions& recorded = production_.options.observers;
    if (!run_.config.output.moments) {
      r.samples = read_streamed_rows<std::int8_t>(dir.file(kSamplesFile), r.n_samples,
                                                  static_cast<std::int64_t>(r.sample_nodes.size()));
    }
    // One energy row per measured round, when they are recorded.
    r.energies = read_streamed_rows<double>(dir.file(kEnergiesFile),
                                            recorded.energies ? r.n_rounds : 0, chains);
    dir.write(kBetasFile, [&](std::ostream& out) { write_npy(out, r.betas, {r.betas.size()}); });
    outcome.observables = observables_of(r, *run_.model, run_.config.output.moments);
    outcome.diagnostics = diagnose(*run_.model, r);
    outcome.total_s = seconds_since(started);
    const std::string summary = summary_yaml(
        SummaryInputs{run_.config, *run_.model, outcome.decision, outcome.execution_space, r,
                      outcome.explore_sweeps, outcome.observables, outcome.diagnostics,
                      outcome.plan ? &*outcome.plan : nullptr,
                      Timing{outcome.total_s, outcome.sampling_s, outcome.checkpoint_s}});
    dir.write(kSummaryFile, [&](std::ostream& out) { out << summary; });
    dir.commit(run_.output_policy == OutputPolicy::replace_run);
    outcome.directory = dir.final_dir().string();
    return outcome;
  }

  const PreparedRun& run_;
  RunDirectory* dir_;
  Production production_;
  ProgressDisplay display_;
  double checkpoint_s_ = 0.0;
};

/// The sink of the ranks other than 0 (rank 0 writes the traces): they keep nothing.
class NoTraces final : public TraceSink {
 public:
  void append_samples(const std::int8_t*, std::int64_t, std::int64_t) override {}
  void append_energies(const double*, std::int64_t, std::int64_t) override {}
  void append_index_process(const std::int32_t*, std::int64_t, std::int64_t) override {}
};

RunTraceFiles::Shape trace_shape(const NrptOptions& options, const SpinModel& model) {
  RunTraceFiles::Shape shape;
  const ObserverOptions& obs = options.observers;
  if (obs.samples_every > 0) {
    shape.sample_columns = obs.sample_nodes.empty()
                               ? model.n_nodes()
                               : static_cast<std::int64_t>(obs.sample_nodes.size());
  }
  shape.states = model.is_potts();
  shape.chains = static_cast<std::int64_t>(ladder_of(options).size());
  return shape;
}

/// The tuned plan on every rank: every rank runs the tuning flow, each tuning run spread
/// over the ranks (AutotuneOptions::exchange), so every rank makes the one-process plan's
/// decisions (the measured exploration cost is rank 0's). The plan's warm start (the last
/// tuning run's state) is complete on rank 0 only and is sent to the others.
Plan tuned_plan(const PreparedRun& run, MpiJob& job) {
  AutotuneOptions tuning = *run.tuning;
  tuning.exchange = job.exchange();
  Plan plan = autotune(*run.model, tuning, run.decision);
  if (!job.distributed()) return plan;
  std::string warm;
  if (job.is_root() && plan.warm_start) {
    Checkpoint c;
    c.state = *plan.warm_start;
    std::ostringstream bytes;
    write_checkpoint(bytes, c);
    warm = bytes.str();
  }
  warm = job.broadcast_from_root(warm);
  if (!job.is_root()) {
    plan.warm_start = nullptr;
    if (!warm.empty()) {
      std::istringstream bytes(warm);
      plan.warm_start = std::make_shared<const SamplerState>(
          read_checkpoint(bytes, "the tuned warm start").state);
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

}  // namespace

RunOutcome start_run(const PreparedRun& run, bool progress, clock::time_point started,
                     StartIn where) {
  const ExperimentConfig& config = run.config;
  MpiJob& job = MpiJob::current();
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
  RunOutcome outcome;
  outcome.decision =
      job.local_decision(run.device, static_cast<std::int32_t>(ladder_of(run.options).size()),
                         run.model->n_free(), run.decision);
  outcome.explore_sweeps = run.options.n_expl;
  Production production;
  production.options = run.options;
  production.attachments[kOptionsAttachment] = options_record(config);
  if (run.tuning) {
    ProgressDisplay display(progress && job.is_root());
    FinishOnExit finish{display};
    display.note("tuning " + tuned_parts(config.nrpt.tune) + " ...");
    outcome.plan = tuned_plan(run, job);
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
  const auto sampler = outcome.plan ? outcome.plan->production_sampler(driver.options(),
                                                                       sampler_sink, job.exchange())
                                    : make_sampler(outcome.decision, *run.model, driver.options(),
                                                   sampler_sink, nullptr, job.exchange());
  if (config.output.checkpoint.enabled) driver.save(*sampler);  // round 0: resumable at once
  return driver.drive(*sampler, sink, started, std::move(outcome));
}

RunOutcome continue_run(const PreparedRun& run, ContinueHow how, bool progress,
                        clock::time_point started) {
  const ExperimentConfig& config = run.config;
  const fs::path final_dir = normalised_run_dir(config.output.dir);
  const fs::path source = how == ContinueHow::resume ? partial_dir_of(final_dir) : final_dir;
  MpiJob& job = MpiJob::current();
  // Every rank reads the checkpoint (one file, whatever the rank count that wrote it).
  std::optional<LoadedCheckpoint> loaded_here;
  job.agree([&] { loaded_here.emplace(load_checkpoint(source / kCheckpointFile)); });
  LoadedCheckpoint& loaded = *loaded_here;
  for (const std::string& why : loaded.skipped) {
    if (job.is_root()) std::cerr << "hamon: warning: skipped " << why << "\n";
  }
  if (!loaded.skipped.empty() && job.is_root()) {
    std::cerr << "hamon: warning: continuing from the previous good checkpoint "
              << loaded.file.string() << " (round " << loaded.checkpoint.state.rounds_done << ")\n";
  }
  Checkpoint& checkpoint = loaded.checkpoint;

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
    check_options_identity(checkpoint, identity_of(*run.model, production.options), config,
                           loaded.file.string());
    const std::int64_t target = production.options.burn_in + production.options.n_rounds;
    if (checkpoint.state.rounds_done > target) {
      throw CheckpointError(loaded.file.string() + ": the checkpoint is at round " +
                            std::to_string(checkpoint.state.rounds_done) +
                            ", past the configured burn_in + rounds = " + std::to_string(target));
    }
  });

  std::optional<RunDirectory> dir;  // rank 0's
  std::optional<RunTraceFiles> traces;
  job.agree([&] {
    if (!job.is_root()) return;
    dir.emplace(how == ContinueHow::resume ? RunDirectory::open(final_dir)
                                           : RunDirectory::reopen_complete(final_dir));
    if (how == ContinueHow::extend) {
      // The longer run's config; the complete run's summary no longer describes it.
      dir->write(kConfigFile, [&](std::ostream& out) { out << resolved_config(config); });
      std::error_code ignored;
      fs::remove(dir->file(kSummaryFile), ignored);
      fs::remove(dir->file(kBetasFile), ignored);
    }
    traces.emplace(dir->partial_dir(), trace_shape(production.options, *run.model),
                   &checkpoint.state.traces);
  });
  RunTraceFiles* sink = traces ? &*traces : nullptr;
  NoTraces no_traces;
  TraceSink* sampler_sink = sink != nullptr ? static_cast<TraceSink*>(sink) : &no_traces;
  Driver driver(run, dir ? &*dir : nullptr, std::move(production), progress);
  const auto sampler = make_sampler(outcome.decision, *run.model, driver.options(), sampler_sink,
                                    &checkpoint.state, job.exchange());
  return driver.drive(*sampler, sink, started, std::move(outcome));
}

}  // namespace hamon::cli
