// SPDX-License-Identifier: Apache-2.0
#include "run/execute_ensemble.hpp"

#include <filesystem>
#include <optional>
#include <string>

#include "config/emit_experiment.hpp"
#include "output/run_directory.hpp"
#include "output/run_files.hpp"
#include "run/ensemble_summary.hpp"
#include "run/execute_run.hpp"
#include "run/instance_config.hpp"
#include "run/mpi_job.hpp"
#include "run/stop_signals.hpp"

namespace hamon::cli {

namespace {

namespace fs = std::filesystem;

/// Where instance k stands: complete, interrupted (resumable, or stopped before
/// sampling), or not begun.
enum class InstanceState { done, resumable, unstarted, absent };

InstanceState state_of(const fs::path& instance) {
  std::error_code ec;
  if (fs::is_regular_file(instance / kSummaryFile, ec)) return InstanceState::done;
  const fs::path partial = partial_dir_of(instance);
  if (!fs::is_directory(partial, ec)) return InstanceState::absent;
  return is_unstarted_run(partial) ? InstanceState::unstarted : InstanceState::resumable;
}

/// Rank 0's view of the instance, on every rank.
InstanceState agreed_state(const fs::path& instance) {
  MpiJob& job = MpiJob::current();
  std::string state(1, '\0');
  job.agree([&] {
    if (job.is_root()) state[0] = static_cast<char>(state_of(instance));
  });
  return static_cast<InstanceState>(job.broadcast_from_root(state).at(0));
}

/// Runs instance k from wherever it stands.
void run_instance(const PreparedRun& ensemble, std::int64_t k, const fs::path& instance,
                  InstanceState state, bool progress,
                  std::chrono::steady_clock::time_point started) {
  MpiJob& job = MpiJob::current();
  std::optional<PreparedRun> prepared;
  job.agree([&] {
    prepared.emplace(prepare_run_from_config(instance_config(ensemble.config, k, instance.string()),
                                             state == InstanceState::absent
                                                 ? OutputPolicy::refuse_non_empty
                                                 : OutputPolicy::continue_run));
  });
  switch (state) {
    case InstanceState::absent:
      start_run(*prepared, progress, started);
      break;
    case InstanceState::unstarted:
      start_run(*prepared, progress, started, StartIn::interrupted_directory);
      break;
    case InstanceState::resumable:
      continue_run(*prepared, ContinueHow::resume, progress, started);
      break;
    case InstanceState::done:
      break;
  }
}

}  // namespace

EnsembleOutcome run_ensemble(const PreparedRun& ensemble, bool resume, bool progress,
                             std::chrono::steady_clock::time_point started) {
  const ExperimentConfig& config = ensemble.config;
  const fs::path final_dir = normalised_run_dir(config.output.dir);
  const fs::path instances = partial_dir_of(final_dir) / "instances";
  MpiJob& job = MpiJob::current();
  std::optional<RunDirectory> dir;  // rank 0's
  job.agree([&] {
    if (!job.is_root()) return;
    if (resume) {
      dir.emplace(RunDirectory::open(final_dir));
    } else {
      dir.emplace(
          RunDirectory::create(final_dir, ensemble.output_policy == OutputPolicy::replace_run));
      dir->write(kConfigFile, [&](std::ostream& out) { out << resolved_config(config); });
    }
    fs::create_directories(instances);
  });
  EnsembleOutcome outcome;
  outcome.directory = final_dir.string();
  outcome.instances = config.instances;
  const std::string resume_hint = "; `hamon resume " + final_dir.string() +
                                  "` continues the ensemble (finished instances are kept)";
  for (std::int64_t k = 0; k < config.instances; ++k) {
    const fs::path instance = instances / std::to_string(k);
    const InstanceState state = agreed_state(instance);
    if (state == InstanceState::done) {
      ++outcome.already_done;
      continue;
    }
    if (StopSignals::requested()) {
      throw RunStopped(std::string("stopped on ") + StopSignals::which() + " before instance " +
                       std::to_string(k) + " of " + std::to_string(config.instances) + resume_hint);
    }
    try {
      run_instance(ensemble, k, instance, state, progress, started);
    } catch (const RunStopped& e) {
      throw RunStopped("instance " + std::to_string(k) + " of " + std::to_string(config.instances) +
                           ": " + e.what() + (e.status() == kExitStopped ? resume_hint : ""),
                       e.status());
    }
  }
  job.agree([&] {
    if (!dir) return;
    write_ensemble_outputs(dir->partial_dir(), config);
    dir->commit(ensemble.output_policy == OutputPolicy::replace_run);
  });
  return outcome;
}

}  // namespace hamon::cli
