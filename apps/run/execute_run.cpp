#include "run/execute_run.hpp"

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

NrptResult sample(const PreparedRun& run, bool progress) {
  ProgressDisplay display(progress);
  FinishOnExit finish{display};
  NrptOptions options = run.options;
  if (display.enabled()) {
    options.progress_every = ProgressDisplay::report_every(options.burn_in + options.n_rounds);
    options.on_progress = [&display](const Progress& p) { display.update(p); };
  }
  return nrpt_with(run.decision, *run.model, options);
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
  outcome.execution_space = execution_space_of(run.decision);

  const auto sampling_start = clock::now();
  outcome.result = sample(run, progress);
  outcome.sampling_s = seconds_since(sampling_start);

  write_arrays(dir, outcome.result);
  outcome.observables = observables_of(outcome.result, run.model->n_nodes(), config.output.moments);
  outcome.total_s = seconds_since(started);
  const std::string summary = summary_yaml(
      SummaryInputs{config, *run.model, run.decision, outcome.execution_space, outcome.result,
                    outcome.observables, Timing{outcome.total_s, outcome.sampling_s}});
  dir.write("summary.yaml", [&](std::ostream& out) { out << summary; });
  dir.commit(run.output_policy == OutputPolicy::replace_run);
  outcome.directory = dir.final_dir().string();
  return outcome;
}

}  // namespace hamon::cli
