// SPDX-License-Identifier: Apache-2.0
#include "run/prepare_run.hpp"

#include <filesystem>
#include <stdexcept>
#include <utility>

#include "config/parse_experiment.hpp"
#include "hamon/core/families/family_facts.hpp"
#include "hamon/policies/device_spec.hpp"
#include "hamon/policies/dispatch.hpp"
#include "hamon/policies/resolve_device.hpp"
#include "output/run_directory.hpp"
#include "run/build_model.hpp"
#include "run/exit_status.hpp"
#include "run/instance_config.hpp"
#include "run/mpi_job.hpp"
#include "run/nrpt_options.hpp"
#include "run/search_goal.hpp"

namespace hamon::cli {

namespace {

/// Checks that need the model: sampled nodes in range, recorded array sizes.
void check_against_model(const ExperimentConfig& config, const SpinModel& model) {
  if (config.nrpt.cluster_moves == ClusterMoves::houdayer && model.is_potts()) {
    config.fail("nrpt.cluster_moves",
                "houdayer cluster moves flip Ising spins; a Potts model has no such move "
                "(drop cluster_moves)");
  }
  if (model.is_continuous()) {
    const std::string kind = to_string(model.continuous_kind());
    // What the discrete machinery alone offers so far: each needs its own counterpart.
    if (config.nrpt.cluster_moves == ClusterMoves::houdayer) {
      config.fail("nrpt.cluster_moves",
                  "houdayer cluster moves flip Ising spins; kind " + kind + " has real values");
    }
    if (config.nrpt.beta_max_auto) {
      config.fail("nrpt.beta_max", "beta_max: auto estimates from spin excitations; kind " + kind +
                                       " needs a number");
    }
    // Drawn values are not yet re-seeded per instance for real variables; graph files
    // (nothing drawn) make an ensemble as they do for spins.
    if (config.instances > 1 && config.instance_files.empty()) {
      config.fail("instances", "ensembles of disorder instances are for discrete models; kind " +
                                   kind +
                                   " runs one instance, or one graph file per instance "
                                   "(instances: {files: [...]})");
    }
  }
  if (config.instances > 1 && config.instance_files.empty() && !model.is_continuous()) {
    // K copies of one model: the ensemble's jackknife would report thermal noise as
    // disorder.
    const std::string reason = undrawn_model_reason(config.model);
    if (!reason.empty()) {
      config.fail("instances",
                  std::to_string(config.instances) + " instances would be copies of one model (" +
                      reason +
                      "): draw the disorder (lattice coupling or field {distribution: ..., "
                      "seed: ...}, rbm random) or give one graph file per instance "
                      "(instances: {files: [...]})");
    }
  }
  const OutputSpec& out = config.output;
  for (std::size_t k = 0; k < out.sample_nodes.size(); ++k) {
    if (out.sample_nodes[k] >= model.n_nodes()) {
      config.fail("output.samples.nodes[" + std::to_string(k) + "]",
                  "node " + std::to_string(out.sample_nodes[k]) + " is out of range [0, " +
                      std::to_string(model.n_nodes()) + ")");
    }
  }
  if (out.samples_every > 0) {
    const double observed = out.sample_nodes.empty() ? static_cast<double>(model.n_nodes())
                                                     : static_cast<double>(out.sample_nodes.size());
    const double bytes = static_cast<double>(config.nrpt.rounds / out.samples_every) * observed *
                         (model.is_continuous() ? 8.0 : 1.0);
    if (bytes > 16.0 * 1024 * 1024 * 1024) {
      config.fail("output.samples.every",
                  "samples.npy would hold more than 16 GiB (" +
                      std::to_string(config.nrpt.rounds / out.samples_every) + " samples x " +
                      std::to_string(static_cast<std::int64_t>(observed)) +
                      " nodes); sample less often or fewer nodes");
    }
  }
}

PreparedRun prepare(ExperimentConfig config, const Overrides& overrides, OutputPolicy policy) {
  apply_overrides(config, overrides);
  PreparedRun run;
  run.output_policy = policy;
  run.model = build_model(config);
  // An ensemble runs each instance with replicas in one rank (run/execute_ensemble.hpp).
  const MpiJob& job = MpiJob::current();
  choose_cluster_moves(config, *run.model, job.distributed());
  check_against_model(config, *run.model);
  if (config.nrpt.cluster_moves == ClusterMoves::houdayer && job.distributed() &&
      config.instances == 1) {
    config.fail("nrpt.cluster_moves",
                "houdayer cluster moves run in one process: the two replicas of a rung may lie "
                "on different ranks (run without mpirun, or drop cluster_moves, or run an "
                "ensemble: instances: K runs each instance in one rank)");
  }
  run.beta_max = resolve_beta_max(config, *run.model);
  check_consistency(config);  // again, with the chain count the estimate chose
  run.options = make_nrpt_options(config);
  try {
    const FamilyFacts family = family_facts(*run.model);
    anneals(run.options, family.abilities.annealing, family.name);
  } catch (const std::invalid_argument& e) {
    config.fail(config.locations.count("nrpt.reference") != 0 ? "nrpt.reference" : "nrpt",
                e.what());
  }
  try {
    validate_options(run.options, run.model->n_nodes(), family_facts(*run.model).value_bytes);
  } catch (const std::invalid_argument& e) {
    // Everything validate_options checks is checked above with a location; a safety net.
    config.fail("nrpt", e.what());
  }
  std::optional<std::int64_t> tuning_score;
  if (config.nrpt.tune.any()) {
    run.tuning = make_autotune_options(config);
    try {
      tuning_score = autotune_work_score(*run.model, *run.tuning);
    } catch (const std::invalid_argument& e) {
      // The parser checks every tuning key with a location; a safety net.
      config.fail("nrpt", e.what());
    }
  }
  try {
    run.device = parse_device_spec(config.device);
    // With tuning: resolve_device(spec, autotune_work_score) is what autotune resolves.
    run.decision = tuning_score ? resolve_device(run.device, *tuning_score)
                                : resolve_for(*run.model, run.options, run.device);
  } catch (const DeviceUnavailable& e) {
    // HAMON_DEVICE's choice is not the file's: no place in it to point at.
    if (device_forced_by_env(run.device)) {
      throw UsageError(e.what());
    }
    config.fail("device", e.what());
  } catch (const std::invalid_argument& e) {
    config.fail("device", e.what());
  }
  if (policy != OutputPolicy::continue_run) {
    const auto problem =
        output_directory_problem(config.output.dir, policy == OutputPolicy::replace_run);
    if (problem) config.fail("output.dir", *problem);
  }
  run.config = std::move(config);
  return run;
}

}  // namespace

PreparedRun prepare_run(const std::string& config_path, const Overrides& overrides,
                        OutputPolicy policy) {
  return prepare(parse_experiment_file(config_path), overrides, policy);
}

PreparedRun prepare_run_from_config(ExperimentConfig config, OutputPolicy policy) {
  return prepare(std::move(config), Overrides{}, policy);
}

PreparedRun prepare_run_from_text(const std::string& text, const std::string& name,
                                  const Overrides& overrides, OutputPolicy policy) {
  return prepare(parse_experiment_text(text, name, "."), overrides, policy);
}

}  // namespace hamon::cli
