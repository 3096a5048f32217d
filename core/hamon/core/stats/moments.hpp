// SPDX-License-Identifier: Apache-2.0
#pragma once
// The cold chain's moments as a run reports them (NrptResult::moments), and the batch sums
// they come from on the host: below the families, because each family completes its own
// part of them (families/family_concept.hpp: node_moments) for the sampler that collects
// them.

#include <cstddef>
#include <cstdint>
#include <functional>
#include <vector>

#include "hamon/core/stats/statistics.hpp"

namespace hamon {

/// The cold chain's moments. For a Potts model (q states): node_means are the marginals
/// P(x_i = s) at [i * q + s], edge_means the agreements <delta(x_i, x_j)>, and
/// abs_magnetization_per_node the Potts order parameter (q max_s n_s / N - 1) / (q - 1)
/// (n_s: nodes in state s, N nodes), averaged over rounds.
struct Moments {
  std::int64_t n_samples = 0;         // measured rounds that were observed
  std::int64_t complete_batches = 0;  // the batches every error is taken over
  std::vector<double> node_means;
  std::vector<double> node_means_stderr;
  std::vector<double> edge_means;  // <s_i s_j> for SpinModel::edges(), in that order
  std::vector<double> edge_means_stderr;
  /// Continuous models: Var(x_i) = <x_i^2> - <x_i>^2, its error the jackknife over batches
  /// (ColumnBatchSums::variance); empty for discrete models, whose node_means say it all.
  std::vector<double> node_variances;
  std::vector<double> node_variances_stderr;
  MeanWithError energy_per_node;
  MeanWithError abs_magnetization_per_node;
};

/// One kind of column sums of the cold chain on the host, summed over ranks: row k holds
/// batch k's sums of every column (the last row the open batch).
struct ColumnBatchSums {
  std::vector<std::int64_t> sums;    // rows x width, row-major
  std::size_t width = 0;             // columns per row
  std::vector<std::int64_t> counts;  // rounds per batch
  std::size_t complete = 0;          // complete batches: the rows the errors use

  std::size_t rows() const { return counts.size(); }
  std::int64_t at(std::size_t row, std::size_t column) const { return sums[row * width + column]; }
  /// Column `column`'s mean per round over every row, its error from the complete ones,
  /// both times `unit`.
  MeanWithError column(std::size_t column, double unit = 1.0) const;
  /// The variance <x^2> - <x>^2 of the quantity whose sums are column `column` and whose
  /// squares' sums are column `squares`, both times `unit`: the value from every row, its
  /// error the delete-one jackknife over the complete ones (batch_jackknife), so that it
  /// carries the mean's own uncertainty (d Var = d<x^2> - 2 <x> d<x>). Centring each batch
  /// on the whole run's mean instead leaves that term out where x^2 hardly moves (a double
  /// well's sites: errors far too small) and counts each batch's mean shift twice where
  /// <x> is large (a Gaussian's: too large).
  MeanWithError variance(std::size_t column, std::size_t squares, double unit = 1.0) const;
  /// Columns [first, first + count) appended to `means` and `errors`, times `unit`.
  void append_columns(std::size_t first, std::size_t count, double unit, std::vector<double>& means,
                      std::vector<double>& errors) const;
};

/// Mean over every measured round; error from the complete batches only (a partial batch
/// would weigh a few rounds like a whole batch).
MeanWithError mean_of_batches(const std::vector<double>& sums,
                              const std::vector<std::int64_t>& counts, std::size_t complete);

/// A function of batched means with its error: `columns[c][k]` is batch k's sum of
/// quantity c over `counts[k]` samples. The value is f of the means over every batch; the
/// error is the delete-one jackknife over the `complete` batches, taken as batch_means of
/// the jackknife pseudo-values n f - (n - 1) f_(k) so that it gets the same correction for
/// correlated batches as a linear mean (statistics.hpp; without it, it is the plain
/// jackknife error). 0 with fewer than 2 complete batches.
MeanWithError batch_jackknife(const std::vector<std::vector<double>>& columns,
                              const std::vector<std::int64_t>& counts, std::size_t complete,
                              const std::function<double(const std::vector<double>&)>& f);

}  // namespace hamon
