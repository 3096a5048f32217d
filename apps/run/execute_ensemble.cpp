// SPDX-License-Identifier: Apache-2.0
#include "run/execute_ensemble.hpp"

#include <algorithm>
#include <exception>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>

#include "config/config_error.hpp"
#include "config/emit_experiment.hpp"
#include "output/run_directory.hpp"
#include "output/run_files.hpp"
#include "run/ensemble_summary.hpp"
#include "run/execute_run.hpp"
#include "run/exit_status.hpp"
#include "run/instance_config.hpp"
#include "run/kokkos_session.hpp"
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

/// The group root's view of the instance, on every rank of the group.
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
  fit_to_machine(prepared->decision);
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

/// This group's instances (k = group, group + groups, ...), in the current job (the group).
void run_group(const PreparedRun& ensemble, const fs::path& final_dir, int group, int groups,
               bool progress, std::chrono::steady_clock::time_point started) {
  const ExperimentConfig& config = ensemble.config;
  const fs::path instances = partial_dir_of(final_dir) / "instances";
  const std::string of = " of " + std::to_string(config.instances);
  const std::string resume_hint = "; `hamon resume " + final_dir.string() +
                                  "` continues the ensemble (finished instances are kept)";
  MpiJob& job = MpiJob::current();
  for (std::int64_t k = group; k < config.instances; k += groups) {
    const fs::path instance = instances / std::to_string(k);
    const InstanceState state = agreed_state(instance);
    if (state == InstanceState::done) continue;
    // Every rank of the group stops before the instance, or none does.
    job.agree([&] {
      if (StopSignals::requested()) {
        throw RunStopped(std::string("stopped on ") + StopSignals::which() + " before instance " +
                         std::to_string(k) + of + resume_hint);
      }
    });
    try {
      run_instance(ensemble, k, instance, state, progress, started);
    } catch (const RunStopped& e) {
      throw RunStopped("instance " + std::to_string(k) + of + ": " + e.what() +
                           (e.status() == kExitStopped ? resume_hint : ""),
                       e.status());
    }
  }
}

/// Whether every rank of the failing group knows of `failure` (so it can be reported
/// after the groups meet again).
bool agreed_in_group(const std::exception_ptr& failure, const MpiJob& group) {
  if (!group.distributed() || group.failure_agreed()) return true;
  try {
    std::rethrow_exception(failure);
  } catch (const RunStopped&) {
    return true;  // every rank of the group stops at the same round
  } catch (...) {
    return false;
  }
}

std::string message_of(const std::exception_ptr& failure) {
  try {
    std::rethrow_exception(failure);
  } catch (const std::exception& e) {
    return e.what();
  } catch (...) {
    return "an unknown exception";
  }
}

}  // namespace

EnsembleOutcome run_ensemble(const PreparedRun& ensemble, bool resume, bool progress,
                             std::chrono::steady_clock::time_point started) {
  const ExperimentConfig& config = ensemble.config;
  const fs::path final_dir = normalised_run_dir(config.output.dir);
  MpiJob& world = MpiJob::current();
  std::optional<RunDirectory> dir;  // rank 0's
  EnsembleOutcome outcome;
  outcome.directory = final_dir.string();
  outcome.instances = config.instances;
  world.agree([&] {
    check_instance_models(config);  // nothing written yet
    if (!world.is_root()) return;
    if (resume) {
      dir.emplace(RunDirectory::open(final_dir));
    } else {
      dir.emplace(
          RunDirectory::create(final_dir, ensemble.output_policy == OutputPolicy::replace_run));
      dir->write(kConfigFile, [&](std::ostream& out) { out << resolved_config(config); });
    }
    const fs::path instances = dir->file("instances");
    fs::create_directories(instances);
    for (std::int64_t k = 0; k < config.instances; ++k) {
      if (state_of(instances / std::to_string(k)) == InstanceState::done) ++outcome.already_done;
    }
  });
  // Rank groups: instance k runs on group k mod G, G = min(ranks, K); a group of one rank
  // runs the one-process path, a larger one spreads each of its instances over its ranks.
  // Replica overlaps and Houdayer moves need all replicas of a ladder in one process, so
  // there every group is one rank and the ranks beyond the K-th wait (idle_ranks).
  const int groups = static_cast<int>(std::min<std::int64_t>(world.size(), config.instances));
  const bool whole_ladders = config.replicas >= 2;
  const bool idle = whole_ladders && world.rank() >= groups;
  const std::unique_ptr<MpiJob> group_job = world.split(idle ? groups : world.rank() % groups);
  MpiJob& group = group_job ? *group_job : world;
  outcome.idle_ranks = whole_ladders ? world.size() - groups : 0;
  std::exception_ptr failure;
  if (!idle) {
    const MpiJob::Scope scope(group);
    try {
      run_group(ensemble, final_dir, world.rank() % groups, groups, progress && world.is_root(),
                started);
    } catch (...) {
      failure = std::current_exception();
      // A failure on one rank of a group while the others wait for it: end the job.
      if (!agreed_in_group(failure, group)) {
        group.abort_job(error_line(message_of(failure)), kExitRunFailed);
      }
    }
  }
  // The groups meet again: the first real failure (its group's reporting rank) is the job's.
  world.agree([&] {
    if (!failure) return;
    try {
      std::rethrow_exception(failure);
    } catch (const FailedOnAnotherRank&) {
      // Its group's reporting rank carries the failure into this agreement.
    }
  });
  world.agree([&] {
    if (!dir) return;
    outcome.health = write_ensemble_outputs(dir->partial_dir(), config);
    dir->commit(ensemble.output_policy == OutputPolicy::replace_run);
  });
  return outcome;
}

}  // namespace hamon::cli
