// SPDX-License-Identifier: Apache-2.0
#pragma once
// A training file's data (train.data): one .npy array per class, split per class into the
// first rows (training) and the last heldout_fraction (held out), with one-hot label units
// appended when the file asks for labels.

#include <cstdint>
#include <string>
#include <vector>

#include "config/training_config.hpp"
#include "hamon/core/train/training_data.hpp"

namespace hamon::cli {

struct TrainingSplit {
  TrainingData train;
  TrainingData heldout;
  std::int64_t n_pixels = 0;                  // units per row in the files
  std::vector<std::int64_t> train_per_class;  // rows of each file that train
  std::vector<std::int64_t> heldout_per_class;
};

/// Reads and splits the data. A file that cannot be read, is not an array of units, or has
/// another row width than the first is a ConfigError at train.data.files[k].
TrainingSplit load_training_data(const TrainingConfig& config);

}  // namespace hamon::cli
