// SPDX-License-Identifier: Apache-2.0
#include "run/nrpt_options.hpp"

#include <algorithm>

#include "hamon/core/tempering/schedule.hpp"

namespace hamon::cli {

std::vector<double> initial_ladder(const NrptSpec& spec) {
  if (!spec.betas.empty()) return spec.betas;
  if (spec.tune.chains) return linear_ladder(spec.beta_min, spec.beta_max, spec.tune.max_chains);
  if (spec.spacing == NrptSpec::Spacing::geometric) {
    return geometric_ladder(spec.beta_min, spec.beta_max, spec.chains);
  }
  return linear_ladder(spec.beta_min, spec.beta_max, spec.chains);
}

NrptOptions make_nrpt_options(const ExperimentConfig& config) {
  const NrptSpec& spec = config.nrpt;
  NrptOptions options;
  options.betas = initial_ladder(spec);
  options.n_chains = static_cast<std::int32_t>(options.betas.size());
  options.beta_min = options.betas.front();
  options.beta_max = options.betas.back();
  options.n_rounds = spec.rounds;
  options.burn_in = spec.burn_in;
  options.n_expl = spec.tune.explore_sweeps ? 1 : spec.explore_sweeps;
  options.seed = config.seed;
  options.n_replicas = config.replicas;
  options.cluster_moves = spec.cluster_moves;
  options.reference = spec.reference;
  options.adapt_schedule = spec.adapt_schedule;
  options.observers.samples_every = config.output.samples_every;
  options.observers.sample_nodes = config.output.sample_nodes;
  options.observers.energies = config.output.energies;
  options.observers.index_process = config.output.index_process;
  options.observers.moments = config.output.moments;
  options.observers.magnetization = config.output.magnetization;
  options.observers.edge_moments = false;  // the summary reports node means, not edges
  return options;
}

AutotuneOptions make_autotune_options(const ExperimentConfig& config) {
  const NrptSpec& spec = config.nrpt;
  const TuneSpec& tune = spec.tune;
  AutotuneOptions o;
  o.beta_min = spec.beta_min;
  o.beta_max = spec.beta_max;
  o.tune_chains = tune.chains;
  o.tune_betas = tune.betas;
  o.tune_exploration = tune.explore_sweeps;
  if (!tune.chains && !tune.betas) {
    o.betas = initial_ladder(spec);  // explicit, linear or geometric: kept as it is
  } else if (!tune.chains) {
    o.n_chains = spec.chains;
  }
  o.n_expl = tune.explore_sweeps ? 1 : spec.explore_sweeps;
  o.chains.max_chains = tune.max_chains;
  o.chains.target_acceptance = tune.target_acceptance;

  const std::int64_t r = tune.rounds;
  o.schedule.rounds_per_tune = r;
  o.schedule.burn_in = r / 2;
  o.schedule.max_rounds_per_tune = 5 * r;
  o.schedule.batch_rounds = std::min<std::int64_t>(50, r);
  o.exploration.rounds = 5 * r / 2;
  o.exploration.burn_in = r / 2;

  o.seed = config.seed;
  o.reference = spec.reference;
  o.n_replicas = config.replicas;
  o.cluster_moves = spec.cluster_moves;
  o.use_cache = true;  // the cache decides itself whether it is on (HAMON_CACHE_DIR)
  return o;
}

}  // namespace hamon::cli
