#include "run/execute_run.hpp"

#include <cstdio>

#include "hamon/policies/dispatch.hpp"
#include "output/npy.hpp"
#include "output/progress_display.hpp"
#include "output/run_directory.hpp"
#include "output/summary.hpp"

namespace hamon::cli {

namespace {

using clock = std::chrono::steady_clock;

double seconds_since(clock::time_point start) {
  return std::chrono::duration<double>(clock::now() - start).count();
}

/// Ends the progress line however the run ends.
struct FinishOnExit {
  ProgressDisplay& display;
  ~FinishOnExit() { display.finish(); }
};

/// The production run of `options` where `decision` says, with the progress display.
NrptResult sample(const DeviceDecision& decision, const SpinModel& model, NrptOptions options,
                  ProgressDisplay& display) {
  if (display.enabled()) {
    options.progress_every = ProgressDisplay::report_every(options.burn_in + options.n_rounds);
    options.on_progress = [&display](const Progress& p) { display.update(p); };
  }
  return nrpt_with(decision, model, options);
}

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

void write_arrays(const StagedDirectory& dir, const NrptResult& r) {
  dir.write("betas.npy", [&](std::ostream& out) { write_npy(out, r.betas, {r.betas.size()}); });
  const std::size_t chains = r.betas.size();
  dir.write("energies.npy", [&](std::ostream& out) {
    write_npy(out, r.energies, {r.energies.size() / chains, chains});
  });
  dir.write("index_process.npy", [&](std::ostream& out) {
    write_npy(out, r.index_process, {r.index_process.size() / chains, chains});
  });
  const std::size_t observed = r.sample_nodes.size();  // 0 when samples are off
  dir.write("samples.npy", [&](std::ostream& out) {
    write_npy(out, r.samples, {static_cast<std::size_t>(r.n_samples), observed});
  });
}

}  // namespace

RunOutcome execute_run(const PreparedRun& run, bool progress, clock::time_point started) {
  const ExperimentConfig& config = run.config;
  StagedDirectory dir(config.output.dir);
  RunOutcome outcome;
  outcome.decision = run.decision;
  outcome.explore_sweeps = run.options.n_expl;
  NrptOptions options = run.options;
  if (run.tuning) {
    ProgressDisplay display(progress);
    FinishOnExit finish{display};
    display.note("tuning " + tuned_parts(config.nrpt.tune) + " ...");
    outcome.plan = autotune(*run.model, *run.tuning, run.device);
    const Plan& plan = *outcome.plan;
    display.note(tuned_line(plan));
    // autotune resolved the device itself, by the rule prepare_run used for run.decision;
    // the summary records the decision that every run of the flow used.
    if (plan.decision.placement != run.decision.placement) {
      std::fprintf(stderr, "hamon: warning: tuning ran on %s, not %s as resolved before\n",
                   to_string(plan.decision.placement).c_str(),
                   to_string(run.decision.placement).c_str());
    }
    outcome.decision = plan.decision;
    outcome.explore_sweeps = plan.n_expl;
    options = plan.options_for(config.nrpt.rounds, options);
  }
  outcome.execution_space = execution_space_of(outcome.decision);
  {
    ProgressDisplay display(progress);
    FinishOnExit finish{display};
    const auto sampling_start = clock::now();
    outcome.result = sample(outcome.decision, *run.model, options, display);
    outcome.sampling_s = seconds_since(sampling_start);
  }

  write_arrays(dir, outcome.result);
  outcome.observables = observables_of(outcome.result, run.model->n_nodes(), config.output.moments);
  outcome.diagnostics = diagnose(*run.model, outcome.result);
  outcome.total_s = seconds_since(started);
  const std::string summary = summary_yaml(SummaryInputs{
      config, *run.model, outcome.decision, outcome.execution_space, outcome.result,
      outcome.explore_sweeps, outcome.observables, outcome.diagnostics,
      outcome.plan ? &*outcome.plan : nullptr, Timing{outcome.total_s, outcome.sampling_s}});
  dir.write("summary.yaml", [&](std::ostream& out) { out << summary; });
  dir.commit(run.output_policy == OutputPolicy::replace_run);
  outcome.directory = dir.final_dir().string();
  return outcome;
}

}  // namespace hamon::cli
