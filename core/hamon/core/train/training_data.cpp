// SPDX-License-Identifier: Apache-2.0
#include "hamon/core/train/training_data.hpp"

#include <stdexcept>
#include <string>

namespace hamon {

void check_training_data(const TrainingData& data, const char* what) {
  const std::string name(what);
  if (data.n_visible < 1) throw std::invalid_argument(name + ": rows need at least one unit");
  if (data.rows.size() % static_cast<std::size_t>(data.n_visible) != 0) {
    throw std::invalid_argument(name + ": " + std::to_string(data.rows.size()) +
                                " values are not whole rows of " + std::to_string(data.n_visible));
  }
  for (std::size_t k = 0; k < data.rows.size(); ++k) {
    if (data.rows[k] != 1 && data.rows[k] != -1) {
      throw std::invalid_argument(name + ": value " + std::to_string(k) + " is " +
                                  std::to_string(data.rows[k]) + ", not +1 or -1");
    }
  }
  if (data.n_labels < 0 || data.n_labels > data.n_visible) {
    throw std::invalid_argument(name + ": " + std::to_string(data.n_labels) +
                                " label units for rows of " + std::to_string(data.n_visible));
  }
  if (data.n_labels == 0) return;
  if (data.labels.size() != static_cast<std::size_t>(data.n_rows())) {
    throw std::invalid_argument(name + ": " + std::to_string(data.labels.size()) + " labels for " +
                                std::to_string(data.n_rows()) + " rows");
  }
  const std::int64_t first = data.n_visible - data.n_labels;
  for (std::int64_t r = 0; r < data.n_rows(); ++r) {
    const std::int32_t label = data.labels[static_cast<std::size_t>(r)];
    if (label < 0 || label >= data.n_labels) {
      throw std::invalid_argument(name + ": row " + std::to_string(r) + " has label " +
                                  std::to_string(label) + ", outside [0, " +
                                  std::to_string(data.n_labels) + ")");
    }
    for (std::int32_t l = 0; l < data.n_labels; ++l) {
      const std::int8_t expected = l == label ? 1 : -1;
      if (data.rows[static_cast<std::size_t>(r * data.n_visible + first + l)] != expected) {
        throw std::invalid_argument(name + ": row " + std::to_string(r) +
                                    "'s label units are not the one-hot code of its label");
      }
    }
  }
}

TrainingData with_label_units(const std::vector<std::int8_t>& pixels, std::int64_t n_pixels,
                              const std::vector<std::int32_t>& labels, std::int32_t n_classes) {
  TrainingData data;
  data.n_visible = n_pixels + n_classes;
  data.n_labels = n_classes;
  const std::size_t n_rows = n_pixels > 0 ? pixels.size() / static_cast<std::size_t>(n_pixels) : 0;
  data.rows.reserve(n_rows * static_cast<std::size_t>(data.n_visible));
  for (std::size_t r = 0; r < n_rows; ++r) {
    const auto begin = pixels.begin() + static_cast<std::ptrdiff_t>(r * n_pixels);
    data.rows.insert(data.rows.end(), begin, begin + n_pixels);
    for (std::int32_t l = 0; l < n_classes; ++l) {
      data.rows.push_back(l == labels.at(r) ? std::int8_t{1} : std::int8_t{-1});
    }
  }
  if (n_classes > 0) data.labels = labels;
  return data;
}

}  // namespace hamon
