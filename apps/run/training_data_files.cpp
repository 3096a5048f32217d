// SPDX-License-Identifier: Apache-2.0
#include "run/training_data_files.hpp"

#include <cmath>
#include <stdexcept>

#include "run/npy_file.hpp"

namespace hamon::cli {

TrainingSplit load_training_data(const TrainingConfig& config) {
  const TrainingDataSpec& spec = config.data;
  TrainingSplit split;
  std::vector<std::int8_t> train_pixels, heldout_pixels;
  std::vector<std::int32_t> train_labels, heldout_labels;
  for (std::size_t k = 0; k < spec.files.size(); ++k) {
    const std::string key = "train.data.files[" + std::to_string(k) + "]";
    std::vector<std::int8_t> spins;
    std::int64_t rows = 0, width = 0;
    try {
      const NpyArray array = read_npy(spec.files[k]);
      if (array.shape.size() != 2) {
        throw std::runtime_error(spec.files[k] + ": expected rows x units (2 dimensions)");
      }
      spins = npy_spins(array, spec.files[k]);
      rows = static_cast<std::int64_t>(array.rows());
      width = static_cast<std::int64_t>(array.columns());
    } catch (const std::runtime_error& e) {
      config.fail(key, e.what());
    }
    if (width < 1) config.fail(key, spec.files[k] + ": rows have no units");
    if (k == 0) split.n_pixels = width;
    if (width != split.n_pixels) {
      config.fail(key, spec.files[k] + ": rows of " + std::to_string(width) + " units, but " +
                           spec.files[0] + " has " + std::to_string(split.n_pixels));
    }
    if (spec.rows_per_file > 0 && rows > spec.rows_per_file) rows = spec.rows_per_file;
    // The first floor((1 - f) n) rows train (a hair of slack so 0.8 x 980 is 784, not 783).
    const auto train = static_cast<std::int64_t>(
        std::floor((1.0 - spec.heldout_fraction) * static_cast<double>(rows) + 1e-9));
    const std::int64_t heldout = rows - train;
    if (train < 1) config.fail(key, spec.files[k] + ": no rows left to train on");
    split.train_per_class.push_back(train);
    split.heldout_per_class.push_back(heldout);
    const auto begin = spins.begin();
    train_pixels.insert(train_pixels.end(), begin, begin + train * width);
    heldout_pixels.insert(heldout_pixels.end(), begin + train * width, begin + rows * width);
    train_labels.insert(train_labels.end(), static_cast<std::size_t>(train),
                        static_cast<std::int32_t>(k));
    heldout_labels.insert(heldout_labels.end(), static_cast<std::size_t>(heldout),
                          static_cast<std::int32_t>(k));
  }
  const auto classes = spec.labels ? static_cast<std::int32_t>(spec.files.size()) : 0;
  split.train = with_label_units(train_pixels, split.n_pixels, train_labels, classes);
  split.heldout = with_label_units(heldout_pixels, split.n_pixels, heldout_labels, classes);
  return split;
}

}  // namespace hamon::cli
