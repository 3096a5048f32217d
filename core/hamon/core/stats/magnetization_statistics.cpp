// SPDX-License-Identifier: Apache-2.0
#include "hamon/core/stats/magnetization_statistics.hpp"

#include <algorithm>
#include <limits>
#include <stdexcept>

#include "hamon/core/stats/moments.hpp"
#include "hamon/core/stats/statistics.hpp"

namespace hamon {

namespace {

/// Column `chain` of rows x width sums, times `scale`.
std::vector<double> column(const std::vector<double>& sums, std::size_t rows, std::size_t width,
                           std::size_t chain, double scale) {
  std::vector<double> out(rows);
  for (std::size_t k = 0; k < rows; ++k) out[k] = sums[k * width + chain] * scale;
  return out;
}

std::vector<double> as_doubles(const std::vector<std::int64_t>& v) {
  return std::vector<double>(v.begin(), v.end());
}

}  // namespace

MagnetizationStatistics magnetization_statistics(const MagnetizationBatchesState& b,
                                                 const MagnetizationShape& shape,
                                                 const std::vector<double>& betas) {
  MagnetizationStatistics out;
  out.betas = betas;
  out.replicas = shape.replicas;
  const auto width = static_cast<std::size_t>(shape.n_chains);
  const std::size_t rows = b.counts.size();
  if (betas.size() != width || b.m_sums.size() != rows * width ||
      b.abs_m_sums.size() != rows * width || b.m2_sums.size() != rows * width ||
      b.m4_sums.size() != rows * width) {
    throw std::invalid_argument("magnetization_statistics: batches of another shape");
  }
  // A partial last batch weighs its rounds in the means, not in the errors.
  std::size_t used = rows;
  while (used > 0 && b.counts[used - 1] == 0) --used;
  if (used == 0) return out;
  std::vector<std::int64_t> counts;
  for (std::size_t k = 0; k < used; ++k) {
    counts.push_back(b.counts[k] * shape.replicas);
    out.n_rounds += b.counts[k];
  }
  const auto complete = std::min<std::size_t>(used, static_cast<std::size_t>(b.n_batches));
  const double n = static_cast<double>(shape.n_nodes);
  const double unit = 1.0 / (n * static_cast<double>(shape.n_states - 1));
  const auto m_sums = as_doubles(b.m_sums);
  const auto abs_sums = as_doubles(b.abs_m_sums);
  const double nan = std::numeric_limits<double>::quiet_NaN();
  auto push = [](std::vector<double>& values, std::vector<double>& errors, MeanWithError e) {
    values.push_back(e.mean);
    errors.push_back(e.standard_error);
  };
  for (std::size_t chain = 0; chain < width; ++chain) {
    const auto m1 = column(m_sums, used, width, chain, unit);
    const auto a = column(abs_sums, used, width, chain, unit);
    const auto m2 = column(b.m2_sums, used, width, chain, unit * unit);
    const auto m4 = column(b.m4_sums, used, width, chain, unit * unit * unit * unit);
    push(out.m, out.m_stderr, mean_of_batches(m1, counts, complete));
    push(out.abs_m, out.abs_m_stderr, mean_of_batches(a, counts, complete));
    const MeanWithError second = mean_of_batches(m2, counts, complete);
    push(out.m2, out.m2_stderr, second);
    push(out.m4, out.m4_stderr, mean_of_batches(m4, counts, complete));
    const double beta_n = betas[chain] * n;
    push(out.binder, out.binder_stderr,
         batch_jackknife({m2, m4}, counts, complete, [&](const std::vector<double>& x) {
           return x[0] > 0.0 ? 1.0 - x[1] / (3.0 * x[0] * x[0]) : nan;
         }));
    push(out.chi, out.chi_stderr,
         batch_jackknife({m2, a}, counts, complete, [&](const std::vector<double>& x) {
           return beta_n * (x[0] - x[1] * x[1]);
         }));
    out.chi_m2.push_back(beta_n * second.mean);
    out.chi_m2_stderr.push_back(beta_n * second.standard_error);
  }
  return out;
}

}  // namespace hamon
