// SPDX-License-Identifier: Apache-2.0
#include "hamon/core/stats/rhat.hpp"

#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

namespace hamon {

double split_rhat(const std::vector<std::vector<double>>& chains) {
  if (chains.empty()) throw std::invalid_argument("split_rhat: no chains");
  const std::size_t length = chains.front().size();
  for (const auto& chain : chains) {
    if (chain.size() != length) {
      throw std::invalid_argument("split_rhat: chains differ in length (" +
                                  std::to_string(chain.size()) + " vs " + std::to_string(length) +
                                  ")");
    }
  }
  if (length < 4) {
    throw std::invalid_argument("split_rhat: chains need at least 4 draws, got " +
                                std::to_string(length));
  }
  const std::size_t half = length / 2;
  std::vector<double> means;
  std::vector<double> variances;
  for (const auto& chain : chains) {
    for (std::size_t start : {std::size_t{0}, length - half}) {  // odd length: skip the middle
      double mean = 0.0;
      for (std::size_t t = start; t < start + half; ++t) mean += chain[t];
      mean /= static_cast<double>(half);
      double ss = 0.0;
      for (std::size_t t = start; t < start + half; ++t)
        ss += (chain[t] - mean) * (chain[t] - mean);
      means.push_back(mean);
      variances.push_back(ss / static_cast<double>(half - 1));
    }
  }
  const double m = static_cast<double>(means.size());
  const double n = static_cast<double>(half);
  double grand = 0.0;
  for (double v : means) grand += v;
  grand /= m;
  double between = 0.0;
  for (double v : means) between += (v - grand) * (v - grand);
  between *= n / (m - 1.0);
  double within = 0.0;
  for (double v : variances) within += v;
  within /= m;
  if (!(within > 0.0)) {
    return between > 0.0 ? std::numeric_limits<double>::infinity() : 1.0;
  }
  const double var_plus = (n - 1.0) / n * within + between / n;
  return std::sqrt(var_plus / within);
}

}  // namespace hamon
