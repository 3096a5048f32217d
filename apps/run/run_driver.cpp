// SPDX-License-Identifier: Apache-2.0
#include "run/run_driver.hpp"

#include <algorithm>
#include <filesystem>
#include <type_traits>
#include <utility>
#include <variant>

#include "hamon/core/sampler/checkpoint.hpp"
#include "output/npy.hpp"
#include "output/restore_point.hpp"
#include "run/best_state_output.hpp"
#include "run/mpi_job.hpp"
#include "run/objective_model.hpp"
#include "run/overlap_output.hpp"
#include "run/search_evidence.hpp"
#include "run/search_summary.hpp"
#include "run/stop_signals.hpp"
#include "run/summary.hpp"

namespace hamon::cli {

namespace fs = std::filesystem;

double seconds_since(RunClock::time_point start) {
  return std::chrono::duration<double>(RunClock::now() - start).count();
}

Driver::Driver(const PreparedRun& run, RunDirectory* dir, Production production, bool progress)
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

template <class Value>
RunOutcome Driver::drive(SamplerBaseOf<Value>& sampler, RunTraceFiles* traces,
                         RunClock::time_point started, RunOutcome outcome) {
  const CheckpointSpec& cadence = run_.config.output.checkpoint;
  std::int64_t target = first_target(sampler.rounds_done());
  auto last_save = RunClock::now();
  bool due = false;  // sticky until handled: over ranks the stop comes a round later
  const auto should_stop = [&]() {
    if (StopSignals::requested()) return true;
    if (!cadence.enabled) return false;
    due = due || (cadence.every > 0 && sampler.rounds_done() % cadence.every == 0) ||
          (cadence.seconds > 0.0 && seconds_since(last_save) >= cadence.seconds);
    return due;
  };
  MpiJob& job = MpiJob::current();
  const auto sampling_start = RunClock::now();
  checkpoint_s_ = 0.0;  // the round-0 checkpoint is set-up, not sampling
  {
    FinishOnExit finish{display_};
    for (;;) {
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
          last_save = RunClock::now();
        }
      }
      if (!run_.config.nrpt.until.enabled) break;
      outcome.ended_by = until_verdict(sampler);
      if (!outcome.ended_by.empty()) break;
      target = std::min(target + production_.options.n_rounds,
                        production_.options.burn_in + run_.config.nrpt.until.max_rounds);
    }
  }
  // The final state, which `hamon extend` continues, unless a due save just wrote it.
  if (cadence.enabled && saved_round_ != sampler.rounds_done()) save(sampler);
  outcome.sampling_s = seconds_since(sampling_start);
  outcome.checkpoint_s = checkpoint_s_;
  return finish(sampler, traces, started, std::move(outcome));
}

std::int64_t Driver::first_target(std::int64_t rounds_done) const {
  const std::int64_t burn_in = production_.options.burn_in;
  const std::int64_t chunk = production_.options.n_rounds;
  const UntilSpec& until = run_.config.nrpt.until;
  if (!until.enabled) return burn_in + chunk;
  // The chunk boundary at or after the round a resumed run starts from: the verdict of a
  // boundary depends on the state there only, so one taken again after a resume (a run
  // stopped right at it) is the same, and the run ends at the same round with the same bits.
  const std::int64_t measured = std::max<std::int64_t>(0, rounds_done - burn_in);
  const std::int64_t chunks = std::max<std::int64_t>(1, (measured + chunk - 1) / chunk);
  return burn_in + std::min(chunks * chunk, until.max_rounds);
}

template <class Value>
std::string Driver::until_verdict(SamplerBaseOf<Value>& sampler) const {
  const UntilSpec& until = run_.config.nrpt.until;
  // Collective over ranks; the best states' records and the round trips are every rank's,
  // so every rank reaches the same verdict.
  const NrptResult r = sampler.result();
  if (r.best_round >= 0 && r.round_trips_since_best >= until.stable_round_trips) {
    const auto to_best = static_cast<double>(r.best_round + 1);
    const auto since_best = static_cast<double>(sampler.rounds_done()) - to_best;
    if (since_best >= until.stable_ratio * to_best) return "stable";
  }
  if (r.n_rounds >= until.max_rounds) return "max_rounds";
  return "";
}

template <class Value>
void Driver::save(SamplerBaseOf<Value>& sampler) {
  const auto start = RunClock::now();
  CheckpointOf<Value> c;
  c.identity = sampler.identity();  // the fingerprint its DeviceModel already holds
  c.state = sampler.state();
  c.attachments = production_.attachments;
  if (dir_ != nullptr) save_checkpoint(dir_->file(kCheckpointFile), c);
  saved_round_ = c.state.rounds_done;
  checkpoint_s_ += seconds_since(start);
}

template <class Value>
void Driver::stop(SamplerBaseOf<Value>& sampler, const std::string& signal) {
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
  const std::string stopped =
      "stopped by " + signal + " after round " + std::to_string(sampler.rounds_done());
  if (is_interrupted_extension(partial)) {
    throw RunStopped(stopped + "; the extension is saved in " + partial +
                     ", beside the complete run it extends. Continue it with: hamon resume " +
                     final_dir.string() + "; or drop it, putting the complete run back in " +
                     final_dir.string() + " as it was: hamon extend " + final_dir.string() +
                     " --abandon");
  }
  throw RunStopped(stopped + "; the run is saved in " + partial +
                   ". Continue it with: hamon resume " + final_dir.string());
}

template <class Value>
RunOutcome Driver::finish(SamplerBaseOf<Value>& sampler, RunTraceFiles* traces,
                          RunClock::time_point started, RunOutcome outcome) {
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
    auto rows = read_streamed_rows<Value>(dir.file(kSamplesFile), r.n_samples,
                                          static_cast<std::int64_t>(r.sample_nodes.size()));
    if constexpr (std::is_same_v<Value, double>) {
      r.real_samples = std::move(rows);
    } else {
      r.samples = std::move(rows);
    }
  }
  // One energy row per measured round, when they are recorded.
  r.energies = read_streamed_rows<double>(dir.file(kEnergiesFile),
                                          recorded.energies ? r.n_rounds : 0, chains);
  dir.write(kBetasFile, [&](std::ostream& out) { write_npy(out, r.betas, {r.betas.size()}); });
  dir.write(kBestStateFile, [&](std::ostream& out) { write_best_state(out, r, *run_.model); });
  if (std::holds_alternative<ObjectiveSpec>(run_.config.model) &&
      static_cast<std::int64_t>(r.best_state.size()) == run_.model->n_nodes()) {
    dir.write(kBestAssignmentFile,
              [&](std::ostream& out) { write_best_assignment(out, r.best_state); });
  }
  if (!r.overlaps.empty()) {
    dir.write(kOverlapHistogramsFile,
              [&](std::ostream& out) { write_overlap_histograms(out, r.overlaps); });
  }
  outcome.observables = observables_of(r, *run_.model, run_.config.output.moments);
  outcome.diagnostics = diagnose(*run_.model, r);
  outcome.search = reported_diagnosis(
      diagnose_search(search_evidence(r, options().burn_in, outcome.explore_sweeps,
                                      outcome.diagnostics, run_.beta_max)),
      asked_for_search(run_.config.nrpt), run_.model->is_continuous());
  outcome.total_s = seconds_since(started);
  const std::string summary = summary_yaml(SummaryInputs{
      run_.config, *run_.model, outcome.decision, outcome.execution_space, r,
      outcome.explore_sweeps, outcome.observables, outcome.diagnostics,
      outcome.plan ? &*outcome.plan : nullptr, run_.beta_max, outcome.search,
      Timing{outcome.total_s, outcome.sampling_s, outcome.checkpoint_s}, outcome.ended_by});
  dir.write(kSummaryFile, [&](std::ostream& out) { out << summary; });
  dir.commit(run_.output_policy == OutputPolicy::replace_run);
  outcome.directory = dir.final_dir().string();
  return outcome;
}

// The sampler's two kinds of variables: bytes (spins, Potts states) and doubles.
template RunOutcome Driver::drive(SamplerBaseOf<std::int8_t>&, RunTraceFiles*, RunClock::time_point,
                                  RunOutcome);
template RunOutcome Driver::drive(SamplerBaseOf<double>&, RunTraceFiles*, RunClock::time_point,
                                  RunOutcome);
template void Driver::save(SamplerBaseOf<std::int8_t>&);
template void Driver::save(SamplerBaseOf<double>&);

}  // namespace hamon::cli
