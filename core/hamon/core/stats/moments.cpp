// SPDX-License-Identifier: Apache-2.0
#include "hamon/core/stats/moments.hpp"

namespace hamon {

MeanWithError mean_of_batches(const std::vector<double>& sums,
                              const std::vector<std::int64_t>& counts, std::size_t complete) {
  MeanWithError all = batch_means(sums, counts);
  const std::vector<double> full_sums(sums.begin(),
                                      sums.begin() + static_cast<std::ptrdiff_t>(complete));
  const std::vector<std::int64_t> full_counts(
      counts.begin(), counts.begin() + static_cast<std::ptrdiff_t>(complete));
  all.standard_error = batch_means(full_sums, full_counts).standard_error;
  return all;
}

MeanWithError ColumnBatchSums::column(std::size_t column, double unit) const {
  std::vector<double> s(rows());
  for (std::size_t k = 0; k < rows(); ++k) s[k] = static_cast<double>(at(k, column));
  MeanWithError m = mean_of_batches(s, counts, complete);
  m.mean *= unit;
  m.standard_error *= unit;
  return m;
}

MeanWithError ColumnBatchSums::variance(std::size_t column, std::size_t squares,
                                        double unit) const {
  const double mean = this->column(column, unit).mean;
  std::vector<double> centred(rows());
  std::vector<std::vector<double>> columns(2, std::vector<double>(rows()));
  for (std::size_t k = 0; k < rows(); ++k) {
    columns[0][k] = static_cast<double>(at(k, column)) * unit;
    columns[1][k] = static_cast<double>(at(k, squares)) * unit;
    // The value as it always was (sum of x^2 less count <x>^2 per row), to the bit.
    centred[k] = columns[1][k] - static_cast<double>(counts[k]) * mean * mean;
  }
  MeanWithError out;
  out.mean = mean_of_batches(centred, counts, complete).mean;
  out.standard_error = batch_jackknife(columns, counts, complete, [](const std::vector<double>& m) {
                         return m[1] - m[0] * m[0];
                       }).standard_error;
  return out;
}

void ColumnBatchSums::append_columns(std::size_t first, std::size_t count, double unit,
                                     std::vector<double>& means,
                                     std::vector<double>& errors) const {
  for (std::size_t i = first; i < first + count; ++i) {
    const MeanWithError m = column(i, unit);
    means.push_back(m.mean);
    errors.push_back(m.standard_error);
  }
}

MeanWithError batch_jackknife(const std::vector<std::vector<double>>& columns,
                              const std::vector<std::int64_t>& counts, std::size_t complete,
                              const std::function<double(const std::vector<double>&)>& f) {
  const std::size_t width = columns.size();
  // Sums over every batch (the value) and over the complete ones (the leave-one-out means).
  std::vector<double> all(width, 0.0), full(width, 0.0), means(width);
  std::int64_t n_all = 0, n_full = 0;
  for (std::size_t k = 0; k < counts.size(); ++k) {
    for (std::size_t c = 0; c < width; ++c) {
      all[c] += columns[c][k];
      if (k < complete) full[c] += columns[c][k];
    }
    n_all += counts[k];
    if (k < complete) n_full += counts[k];
  }
  MeanWithError out;
  if (n_all == 0) return out;
  for (std::size_t c = 0; c < width; ++c) means[c] = all[c] / static_cast<double>(n_all);
  out.mean = f(means);
  if (complete < 2) return out;
  for (std::size_t c = 0; c < width; ++c) means[c] = full[c] / static_cast<double>(n_full);
  const double whole = f(means);
  const auto n = static_cast<double>(complete);
  std::vector<double> pseudo(complete);
  for (std::size_t k = 0; k < complete; ++k) {
    const auto rest = static_cast<double>(n_full - counts[k]);
    for (std::size_t c = 0; c < width; ++c) means[c] = (full[c] - columns[c][k]) / rest;
    pseudo[k] = n * whole - (n - 1.0) * f(means);
  }
  out.standard_error = batch_means(pseudo, std::vector<std::int64_t>(complete, 1)).standard_error;
  return out;
}

}  // namespace hamon
