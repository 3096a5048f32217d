// SPDX-License-Identifier: Apache-2.0
#pragma once
// A training run's state in a checkpoint file (checkpoint.hpp: atomic writes, the previous
// file kept, every section checksummed). The state travels as the attachment
// kTrainingStateAttachment; the identity's fingerprints are those of the training data
// (with the RBM's shape) and of the options, so a state continues only the run it belongs to.

#include <cstdint>
#include <string>

#include "hamon/core/sampler/checkpoint.hpp"
#include "hamon/core/train/rbm_trainer.hpp"

namespace hamon {

inline constexpr const char* kTrainingStateAttachment = "training.state";

/// Every option that shapes the bits of a run (all of TrainingOptions; epochs too, since
/// the learning-rate schedule spans the planned length).
std::uint64_t training_options_fingerprint(const TrainingOptions& options);

/// The training rows and labels, and the hidden layer's size.
std::uint64_t training_data_fingerprint(const TrainingData& train, std::int64_t n_hidden);

CheckpointIdentity training_identity(const TrainingData& train, std::int64_t n_hidden,
                                     const TrainingOptions& options);

std::string training_state_bytes(const RbmTrainingState& state);
/// Throws CheckpointError naming `where` for bytes that are not a training state.
RbmTrainingState read_training_state(const std::string& bytes, const std::string& where);

}  // namespace hamon
