// SPDX-License-Identifier: Apache-2.0
#include "run/training_curves.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <iomanip>
#include <sstream>

namespace hamon::cli {

std::string monitored_prefix(bool has_heldout_rows) {
  return has_heldout_rows ? "heldout_" : "train_";
}

std::string curves_header(bool has_heldout_rows) {
  const std::string p = monitored_prefix(has_heldout_rows);
  return "epoch,updates,seconds," + p + "free_energy," + p + "accuracy,reconstruction_error," + p +
         "log_likelihood,log_likelihood_error,log_z,log_z_error,min_swap_acceptance\n";
}

std::string csv_number(double x) {
  if (std::isnan(x)) return "";
  std::ostringstream s;
  s << std::setprecision(10) << x;
  return s.str();
}

std::string curve_row(const EpochRecord& r, const std::vector<double>& acceptance) {
  double min_acceptance = std::nan("");
  for (double a : acceptance)
    min_acceptance = std::isnan(min_acceptance) ? a : std::min(min_acceptance, a);
  const LogZEstimate& z = r.log_z.estimate.stepping_stone;
  const RbmEvaluation& e = r.evaluation;
  std::ostringstream s;
  s << r.epoch << ',' << r.updates << ',' << csv_number(r.seconds) << ','
    << csv_number(e.mean_free_energy) << ',' << csv_number(e.accuracy ? *e.accuracy : std::nan(""))
    << ',' << csv_number(e.reconstruction_error) << ',' << csv_number(r.log_likelihood) << ','
    << csv_number(r.log_likelihood_error) << ',' << csv_number(r.has_log_z ? z.value : std::nan(""))
    << ',' << csv_number(r.has_log_z ? z.error() : std::nan("")) << ','
    << csv_number(min_acceptance) << '\n';
  return s.str();
}

std::int64_t last_curve_epoch(const std::string& curves) {
  const std::size_t end = curves.find_last_not_of('\n');
  if (end == std::string::npos) return 0;
  const std::size_t start = curves.rfind('\n', end);
  const std::string row = curves.substr(start == std::string::npos ? 0 : start + 1);
  // The header starts with a letter, every row with its epoch.
  if (row.empty() || std::isdigit(static_cast<unsigned char>(row[0])) == 0) return 0;
  return std::stoll(row);
}

}  // namespace hamon::cli
