// SPDX-License-Identifier: Apache-2.0
#pragma once
// The files an ensemble (`instances: K`) writes beside instances/0 ... instances/K-1, read
// from the instances' summary.yaml alone (each instance is a black box of per-temperature
// numbers):
//   - energy_per_node.npy: K x 1 (the summary's observables.energy_per_node.mean);
//   - overlap_<key>.npy: K x T for each per-temperature list of the instances' `overlap:`
//     section (q2, q2_stderr, q4, q4_stderr, abs_q, abs_q_stderr, binder, binder_stderr,
//     chi_sg, link_overlap, xi) that every instance has, T its `betas`;
//   - summary.yaml: the hamon block, the resolved config and `ensemble:`: the instances'
//     health (ensemble_health.hpp; with `averages_flag` when an instance failed), the disorder
//     averages with jackknife errors over the instances (hamon/core/stats/jackknife.hpp). The
//     Binder ratio is g of the averages [q2], [q4] (the ratio of averages, not the average
//     of the instances' g); every other quantity is a plain average.

#include <filesystem>
#include <string>

#include "config/experiment_config.hpp"
#include "run/ensemble_health.hpp"

namespace hamon::cli {

/// Reads partial/instances/k/summary.yaml for every k and writes the files above into
/// `partial` (summary.yaml last, atomically). Throws std::runtime_error naming the file
/// when an instance summary cannot be read or the instances' overlap ladders differ. Returns
/// the instances' health, as written.
EnsembleHealth write_ensemble_outputs(const std::filesystem::path& partial,
                                      const ExperimentConfig& config);

}  // namespace hamon::cli
