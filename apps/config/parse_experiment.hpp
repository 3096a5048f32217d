// SPDX-License-Identifier: Apache-2.0
#pragma once
// YAML experiment file -> ExperimentConfig, with every check that needs only the file:
// types, ranges, unknown keys, the ladder, the device word, sizes. Checks that need the
// model (sample nodes in range, model files) happen when the run is prepared
// (apps/run/prepare_run.hpp), still before anything is created.

#include <string>

#include "config/experiment_config.hpp"
#include "hamon/core/model/spin_model.hpp"

namespace hamon::cli {

/// Limits on sizes ("absurd" values are rejected with the limit named).
using hamon::kMaxNodes;  // the engine's int32 node index
inline constexpr std::int32_t kMaxChains = 4096;
inline constexpr std::int32_t kMaxInstances = 1 << 20;
inline constexpr std::int32_t kMaxExploreSweeps = 100000;
inline constexpr std::int64_t kMaxRecordedBytes = std::int64_t{16} << 30;  // per output array

/// Reads and checks `path`. Throws ConfigError (file:line:column, key).
ExperimentConfig parse_experiment_file(const std::string& path);

/// The same from text already in memory; `name` is what errors call the file and
/// `base_dir` is where relative model files are looked up.
ExperimentConfig parse_experiment_text(const std::string& text, const std::string& name,
                                       const std::string& base_dir);

/// Applies command-line overrides and re-checks what they touch. Throws ConfigError
/// (located at kCommandLine and the option name).
void apply_overrides(ExperimentConfig& config, const Overrides& overrides);

/// Checks between keys (run again after overrides): the ladder, rounds + burn_in below
/// 2^32, output array sizes.
void check_consistency(const ExperimentConfig& config);

}  // namespace hamon::cli
