// SPDX-License-Identifier: Apache-2.0
#pragma once
// Training and held-out data of an RBM: rows of +-1 visible units, optionally ending in
// one-hot label units (+1 for the row's class, -1 for the others).

#include <cstdint>
#include <vector>

namespace hamon {

struct TrainingData {
  std::int64_t n_visible = 0;        // label units included
  std::int32_t n_labels = 0;         // the last n_labels visible units are the one-hot label
  std::vector<std::int8_t> rows;     // n_rows x n_visible, row-major, +-1
  std::vector<std::int32_t> labels;  // per row, the class 0 .. n_labels-1 (empty: none)

  std::int64_t n_rows() const {
    return n_visible > 0 ? static_cast<std::int64_t>(rows.size()) / n_visible : 0;
  }
};

/// Throws std::invalid_argument naming the problem unless `data` is consistent: n_visible
/// >= 1, a whole number of rows, every value +-1, labels (when n_labels > 0) one per row in
/// range and matching the row's one-hot units.
void check_training_data(const TrainingData& data, const char* what);

/// `pixels` (n_rows x n_pixels, +-1) with n_classes one-hot label units appended per row
/// (n_classes = 0: unchanged, no labels).
TrainingData with_label_units(const std::vector<std::int8_t>& pixels, std::int64_t n_pixels,
                              const std::vector<std::int32_t>& labels, std::int32_t n_classes);

}  // namespace hamon
