#include "run/nrpt_options.hpp"

#include "hamon/core/schedule.hpp"

namespace hamon::cli {

std::vector<double> initial_ladder(const NrptSpec& spec) {
  if (!spec.betas.empty()) return spec.betas;
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
  options.n_expl = spec.explore_sweeps;
  options.seed = config.seed;
  options.adapt_schedule = spec.adapt_schedule;
  options.observers.samples_every = config.output.samples_every;
  options.observers.sample_nodes = config.output.sample_nodes;
  options.observers.energies = config.output.energies;
  options.observers.index_process = config.output.index_process;
  options.observers.moments = config.output.moments;
  return options;
}

}  // namespace hamon::cli
