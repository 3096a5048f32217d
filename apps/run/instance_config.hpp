// SPDX-License-Identifier: Apache-2.0
#pragma once
// Instance k of an ensemble (`instances: K`): the experiment with its disorder and its
// sampler seeded for k. The rule (stable: an ensemble's instance k is the same model and
// the same run in every hamon version with this rule):
//   - every drawn model seed s (coupling, field, model.random) becomes
//     derive_seed(s, SeedStream::instance_disorder, k);
//   - the run's seed becomes derive_seed(seed, SeedStream::instance_sampler, k);
//   - everything else is the ensemble's, with `instances` 1 and output.dir `dir`.
// A model without drawn values (a graph, explicit weights) is the same in every instance;
// its instances differ only in their sampler streams.

#include <cstdint>
#include <string>

#include "config/experiment_config.hpp"

namespace hamon::cli {

ExperimentConfig instance_config(const ExperimentConfig& ensemble, std::int64_t k,
                                 const std::string& dir);

}  // namespace hamon::cli
