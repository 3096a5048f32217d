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

void ColumnBatchSums::append_columns(std::size_t first, std::size_t count, double unit,
                                     std::vector<double>& means,
                                     std::vector<double>& errors) const {
  for (std::size_t i = first; i < first + count; ++i) {
    const MeanWithError m = column(i, unit);
    means.push_back(m.mean);
    errors.push_back(m.standard_error);
  }
}

}  // namespace hamon
