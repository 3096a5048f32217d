// SPDX-License-Identifier: Apache-2.0
#pragma once
// Disorder averages over independent instances with delete-one jackknife errors (Efron
// 1982; Young, "Everything you wanted to know about data analysis and fitting", 2015).
// A linear average's jackknife error is the standard error of the mean. A non-linear
// function of averages (the Binder ratio g = (3 - [q4]/[q2]^2)/2 of the disorder averages
// [q2], [q4]) is estimated as the function of the averages, not as the average of the
// per-instance functions, which is biased for few samples per instance; its error comes
// from the function evaluated on the K leave-one-out averages.

#include <cmath>
#include <cstddef>
#include <functional>
#include <stdexcept>
#include <vector>

namespace hamon {

struct JackknifeEstimate {
  double value = 0.0;  // f of the averages over every instance
  double error = 0.0;  // sqrt((K-1)/K sum_i (f_(i) - mean_i f_(i))^2); NaN when K < 2
};

/// f(averages of columns), with the jackknife error over the rows. `columns[c][i]`: the
/// value of quantity c in instance i; every column has the same length K >= 1.
inline JackknifeEstimate jackknife(const std::vector<std::vector<double>>& columns,
                                   const std::function<double(const std::vector<double>&)>& f) {
  if (columns.empty() || columns[0].empty()) {
    throw std::invalid_argument("jackknife: no instances");
  }
  const std::size_t k = columns[0].size();
  std::vector<double> sums(columns.size(), 0.0);
  for (std::size_t c = 0; c < columns.size(); ++c) {
    if (columns[c].size() != k) throw std::invalid_argument("jackknife: ragged columns");
    for (double x : columns[c]) sums[c] += x;
  }
  std::vector<double> averages(columns.size());
  for (std::size_t c = 0; c < columns.size(); ++c) averages[c] = sums[c] / static_cast<double>(k);
  JackknifeEstimate estimate;
  estimate.value = f(averages);
  if (k < 2) {
    estimate.error = std::nan("");
    return estimate;
  }
  std::vector<double> left_out(k);
  std::vector<double> partial(columns.size());
  double mean = 0.0;
  for (std::size_t i = 0; i < k; ++i) {
    for (std::size_t c = 0; c < columns.size(); ++c) {
      partial[c] = (sums[c] - columns[c][i]) / static_cast<double>(k - 1);
    }
    left_out[i] = f(partial);
    mean += left_out[i];
  }
  mean /= static_cast<double>(k);
  double sum_sq = 0.0;
  for (double v : left_out) sum_sq += (v - mean) * (v - mean);
  estimate.error = std::sqrt(static_cast<double>(k - 1) / static_cast<double>(k) * sum_sq);
  return estimate;
}

/// The average of one column with its jackknife error (the standard error of the mean).
inline JackknifeEstimate jackknife_mean(const std::vector<double>& column) {
  return jackknife({column}, [](const std::vector<double>& a) { return a[0]; });
}

/// The Binder ratio g = (3 - [q4]/[q2]^2) / 2 of the disorder averages, jackknifed.
inline JackknifeEstimate jackknife_binder(const std::vector<double>& q2,
                                          const std::vector<double>& q4) {
  return jackknife({q2, q4},
                   [](const std::vector<double>& a) { return 0.5 * (3.0 - a[1] / (a[0] * a[0])); });
}

}  // namespace hamon
