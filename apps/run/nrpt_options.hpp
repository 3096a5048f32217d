#pragma once
// ExperimentConfig -> hamon::NrptOptions: the ladder (explicit, linear or geometric),
// rounds, exploration, adaptation, seed, and the observers the run directory needs
// (energies for energies.npy, samples for samples.npy, moments for the summary).

#include "config/experiment_config.hpp"
#include "hamon/core/nrpt.hpp"

namespace hamon::cli {

/// The ladder the config describes, before any adaptation.
std::vector<double> initial_ladder(const NrptSpec& spec);

NrptOptions make_nrpt_options(const ExperimentConfig& config);

}  // namespace hamon::cli
