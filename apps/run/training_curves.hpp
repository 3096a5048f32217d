// SPDX-License-Identifier: Apache-2.0
#pragma once
// What a training run's monitoring measures at the end of an epoch, and its row of
// curves.csv. The data rows it is measured on are the held-out ones; a run without any
// (train.data.heldout_fraction 0) measures the training rows and names its numbers train_*
// rather than heldout_*, in curves.csv and summary.yaml alike, so a training-set number is
// never read as a held-out one.

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "hamon/core/train/rbm_trainer.hpp"

namespace hamon::cli {

/// What an epoch's monitoring found (NaN where not measured).
struct EpochRecord {
  std::int64_t epoch = 0;
  std::int64_t updates = 0;
  double seconds = 0.0;
  RbmEvaluation evaluation;  // on the monitored rows (monitored_prefix)
  double log_likelihood = std::nan("");
  double log_likelihood_error = std::nan("");
  RbmLogPartition log_z;
  bool has_log_z = false;
};

/// "heldout_" when there are held-out rows, else "train_": the prefix of the monitored
/// rows' numbers.
std::string monitored_prefix(bool has_heldout_rows);

/// curves.csv's header line.
std::string curves_header(bool has_heldout_rows);

/// x in a CSV cell: empty for NaN (not measured).
std::string csv_number(double x);

/// An epoch's line of curves.csv (`acceptance`: the trainer's swap acceptance per rung pair).
std::string curve_row(const EpochRecord& r, const std::vector<double>& acceptance);

/// The epoch of the last row of curves.csv's text (0 when it has only the header).
std::int64_t last_curve_epoch(const std::string& curves);

}  // namespace hamon::cli
