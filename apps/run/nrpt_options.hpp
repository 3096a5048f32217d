// SPDX-License-Identifier: Apache-2.0
#pragma once
// ExperimentConfig -> hamon::NrptOptions: the ladder (explicit, linear or geometric),
// rounds, exploration, adaptation, seed, and the observers the run directory needs
// (energies for energies.npy, samples for samples.npy, moments for the summary).
// With tuning (nrpt.tune) also the hamon::AutotuneOptions of the flow.

#include "config/experiment_config.hpp"
#include "hamon/core/sampler/nrpt.hpp"
#include "hamon/policies/autotune.hpp"

namespace hamon::cli {

/// The ladder the config describes, before any adaptation. With chains: auto, the tuning
/// pilot's: a linear ladder of max_chains betas.
std::vector<double> initial_ladder(const NrptSpec& spec);

/// With tuning, the ladder and explore_sweeps are provisional (the pilot's ladder, one
/// sweep): the plan replaces them (hamon::Plan::options_for) before the production run.
NrptOptions make_nrpt_options(const ExperimentConfig& config);

/// The autotune options nrpt.tune asks for (meaningful only when nrpt.tune.any()):
/// the flags, the fixed parts (chain count, or the whole ladder when neither chains nor
/// betas are tuned; explore_sweeps), max_chains and target_acceptance, and the budget
/// tune_rounds = R: every tuning run measures R rounds after R/2 burn-in rounds, pooled
/// up to 5 R per schedule phase in batches of min(50, R); every exploration probe
/// measures 5R/2 rounds after R/2. R = 200 gives the library's defaults.
AutotuneOptions make_autotune_options(const ExperimentConfig& config);

}  // namespace hamon::cli
