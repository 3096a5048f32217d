// SPDX-License-Identifier: Apache-2.0
#pragma once
// Instance k of an ensemble (`instances: K`): the experiment with its disorder and its
// sampler seeded for k. The rule (stable: an ensemble's instance k is the same model and
// the same run in every hamon version with this rule):
//   - every drawn model seed s (coupling, field, model.random) becomes
//     derive_seed(s, SeedStream::instance_disorder, k);
//   - the run's seed becomes derive_seed(seed, SeedStream::instance_sampler, k);
//   - with instances.files, the model's graph file becomes file k (the model is the
//     file's, nothing drawn);
//   - everything else is the ensemble's, with `instances` 1, run in `dir` (inside
//     DIR.partial while the ensemble runs).
// Its config.yaml and summary.yaml record output.dir as DIR-instance-k (DIR the ensemble's
// directory as the command named it), never a path inside DIR.partial, which is gone once
// the ensemble completes: `hamon run DIR/instances/k/config.yaml` repeats instance k (the
// same bytes) beside the ensemble, not in it (or where --out says).
// A model without drawn values (a graph, a lattice of constant couplings and fields or read
// from a file, explicit weights) would be the same in every instance, its instances differing
// only in their sampler streams, and the ensemble's jackknife would call thermal noise
// disorder: `instances: K` refuses it (undrawn_model_reason); instances.files gives such
// models their instances.

#include <cstdint>
#include <string>

#include "config/experiment_config.hpp"

namespace hamon::cli {

ExperimentConfig instance_config(const ExperimentConfig& ensemble, std::int64_t k,
                                 const std::string& dir);

/// Why `instances: K` would run K copies of one model (what of `model` is not drawn), or ""
/// where its instances differ: a lattice with a drawn coupling or field, a random RBM.
std::string undrawn_model_reason(const ModelSpec& model);

/// The key of instance k's file in instances.files (a list's entry; a pattern's is
/// reported at instances.files).
std::string instance_file_key(std::int64_t k);

/// With instances.files: every instance's model built and checked (as its run would) before
/// the ensemble writes anything, so a bad file k fails the command at its start, not after
/// k instances. A ConfigError at the file's entry in instances.files otherwise.
void check_instance_models(const ExperimentConfig& ensemble);

/// Where a re-run of instance k of the ensemble in `ensemble_dir` writes: DIR-instance-k.
std::string instance_rerun_dir(const std::string& ensemble_dir, std::int64_t k);

}  // namespace hamon::cli
