// SPDX-License-Identifier: Apache-2.0
#include "hamon/core/stats/overlap_statistics.hpp"

#include <cmath>
#include <limits>
#include <stdexcept>

#include "hamon/core/stats/statistics.hpp"

namespace hamon {

namespace {

/// Batch-means mean and error of column `chain` of rows x width sums (each row `counts[k]`
/// rounds of `pairs` samples), scaled by `scale`; the error from the complete batches.
MeanWithError column_mean(const std::vector<double>& sums, const std::vector<std::int64_t>& counts,
                          std::size_t complete, std::size_t width, std::size_t chain,
                          double scale) {
  const std::size_t rows = counts.size();
  std::vector<double> s(rows);
  for (std::size_t k = 0; k < rows; ++k) s[k] = sums[k * width + chain] * scale;
  MeanWithError all = batch_means(s, counts);
  if (complete < rows) {
    const std::vector<double> full(s.begin(), s.begin() + static_cast<std::ptrdiff_t>(complete));
    const std::vector<std::int64_t> full_counts(
        counts.begin(), counts.begin() + static_cast<std::ptrdiff_t>(complete));
    all.standard_error = batch_means(full, full_counts).standard_error;
  }
  return all;
}

std::vector<double> as_doubles(const std::vector<std::int64_t>& v) {
  return std::vector<double>(v.begin(), v.end());
}

double binder_of(double q2, double q4) {
  return 0.5 * (3.0 - q4 / (q2 * q2));
}

}  // namespace

double second_moment_xi(double chi_0, double chi_kmin, std::int64_t extent) {
  const double k_min = 8.0 * std::atan(1.0) / static_cast<double>(extent);
  return chi_kmin > 0.0 && chi_0 > chi_kmin
             ? std::sqrt(chi_0 / chi_kmin - 1.0) / (2.0 * std::sin(0.5 * k_min))
             : std::numeric_limits<double>::quiet_NaN();
}

OverlapStatistics overlap_statistics(const OverlapBatchesState& b, const OverlapShape& shape,
                                     const std::vector<double>& betas) {
  OverlapStatistics out;
  out.betas = betas;
  out.n_pairs = shape.n_pairs;
  const auto width = static_cast<std::size_t>(shape.n_chains);
  const std::size_t rows = b.counts.size();
  if (b.q2_sums.size() != rows * width || b.q4_sums.size() != rows * width ||
      b.abs_q_sums.size() != rows * width || b.link_sums.size() != rows * width ||
      b.fourier_sums.size() != rows * width ||
      b.histograms.size() != width * static_cast<std::size_t>(shape.n_free + 1)) {
    throw std::invalid_argument("overlap_statistics: batches of another shape");
  }
  out.histogram_bins = shape.n_free + 1;
  out.histograms = b.histograms;
  // A partial last batch weighs its rounds in the means, not in the errors.
  std::size_t used = rows;
  while (used > 0 && b.counts[used - 1] == 0) --used;
  if (used == 0) return out;
  const std::vector<std::int64_t> counts_rounds(
      b.counts.begin(), b.counts.begin() + static_cast<std::ptrdiff_t>(used));
  std::vector<std::int64_t> counts;
  for (auto c : counts_rounds) {
    counts.push_back(c * shape.n_pairs);
    out.n_rounds += c;
  }
  const auto complete = std::min<std::size_t>(used, static_cast<std::size_t>(b.n_batches));
  const double c = static_cast<double>(shape.n_states - 1);
  const double site = 1.0 / (static_cast<double>(shape.n_free) * c);
  const double link = shape.n_edges > 0 ? 1.0 / (static_cast<double>(shape.n_edges) * c * c) : 0.0;
  const auto abs_sums = as_doubles(b.abs_q_sums);
  const auto link_sums = as_doubles(b.link_sums);
  const double nan = std::numeric_limits<double>::quiet_NaN();
  for (std::size_t chain = 0; chain < width; ++chain) {
    const auto q2 = column_mean(b.q2_sums, counts, complete, width, chain, site * site);
    const auto q4 =
        column_mean(b.q4_sums, counts, complete, width, chain, site * site * site * site);
    const auto a = column_mean(abs_sums, counts, complete, width, chain, site);
    out.q2.push_back(q2.mean);
    out.q2_stderr.push_back(q2.standard_error);
    out.q4.push_back(q4.mean);
    out.q4_stderr.push_back(q4.standard_error);
    out.abs_q.push_back(a.mean);
    out.abs_q_stderr.push_back(a.standard_error);
    out.binder.push_back(q2.mean > 0.0 ? binder_of(q2.mean, q4.mean) : nan);
    out.chi_sg.push_back(static_cast<double>(shape.n_free) * q2.mean);
    const auto l = column_mean(link_sums, counts, complete, width, chain, link);
    out.link_overlap.push_back(shape.n_edges > 0 ? l.mean : nan);
    out.link_overlap_stderr.push_back(shape.n_edges > 0 ? l.standard_error : nan);
    // Jackknife over the complete batches: leave one batch out, recompute g.
    double jack = 0.0;
    if (complete >= 2) {
      double s2 = 0.0, s4 = 0.0;
      std::int64_t n = 0;
      for (std::size_t k = 0; k < complete; ++k) {
        s2 += b.q2_sums[k * width + chain];
        s4 += b.q4_sums[k * width + chain];
        n += counts[k];
      }
      std::vector<double> g(complete);
      double mean_g = 0.0;
      for (std::size_t k = 0; k < complete; ++k) {
        const auto m = static_cast<double>(n - counts[k]);
        const double a2 = (s2 - b.q2_sums[k * width + chain]) / m * site * site;
        const double a4 = (s4 - b.q4_sums[k * width + chain]) / m * site * site * site * site;
        g[k] = binder_of(a2, a4);
        mean_g += g[k];
      }
      mean_g /= static_cast<double>(complete);
      for (double v : g) jack += (v - mean_g) * (v - mean_g);
      jack = std::sqrt(jack * static_cast<double>(complete - 1) / static_cast<double>(complete));
    }
    out.binder_stderr.push_back(jack);
    if (shape.lattice_dims > 0) {
      // chi(k) = N_free <|F(k) / (N_free (q - 1))|^2>, the sums holding every direction's.
      const double per_direction = 1.0 / static_cast<double>(shape.lattice_dims);
      const auto chi_k =
          column_mean(b.fourier_sums, counts, complete, width, chain,
                      site * site * static_cast<double>(shape.n_free) * per_direction);
      out.chi_k.push_back(chi_k.mean);
      out.chi_k_stderr.push_back(chi_k.standard_error);
      out.xi.push_back(second_moment_xi(out.chi_sg.back(), chi_k.mean, shape.lattice_extent));
    }
  }
  return out;
}

}  // namespace hamon
