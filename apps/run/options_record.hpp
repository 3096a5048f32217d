// SPDX-License-Identifier: Apache-2.0
#pragma once
// What of an experiment shapes a run's bits besides its model — the seed, nrpt but its
// length, output's observers — kept as text in the run's checkpoints (the attachment
// kOptionsAttachment): a checkpoint's identity holds only a fingerprint of the options,
// which can say that config.yaml no longer fits it but not where.

#include <string>
#include <vector>

#include "config/experiment_config.hpp"
#include "hamon/core/sampler/checkpoint.hpp"

namespace hamon::cli {

inline constexpr const char* kOptionsAttachment = "options";

/// "KEY: VALUE" lines, one per key path of the resolved experiment (config.yaml's shape)
/// in seed, nrpt and output, but those a run may change between checkpoints without
/// changing a bit: nrpt.rounds (extend), output.dir (a moved run), output.checkpoint.
std::string options_record(const ExperimentConfig& config);

/// "KEY (the checkpoint has A, config.yaml has B)" for each key whose value differs
/// between `record` (options_record of the run that wrote the checkpoint) and `config`,
/// in the record's order; a key only one of them has counts too.
std::vector<std::string> differing_options(const std::string& record,
                                           const ExperimentConfig& config);

/// A checkpoint written by another hamon version continues a run when its format and
/// random-stream version are this build's (read_checkpoint and check_identity check
/// those): the hamon version is kept for the record. Returns the note that says so,
/// "NAME was written by hamon X (this is hamon Y); ...", or "" for this version's own.
std::string other_version_note(const CheckpointIdentity& saved, const std::string& name);

/// check_identity(checkpoint.identity, expected, name), but when only the options differ
/// and the checkpoint holds a record, the CheckpointError names the keys that differ.
void check_options_identity(const CheckpointIdentity& saved,
                            const std::map<std::string, std::string>& attachments,
                            const CheckpointIdentity& expected, const ExperimentConfig& config,
                            const std::string& name);

}  // namespace hamon::cli
