// SPDX-License-Identifier: Apache-2.0
#include "hamon/core/analysis/detail/node_error_checks.hpp"

#include <algorithm>

#include "hamon/core/families/family_facts.hpp"

namespace hamon::node_errors {

NodeErrorVerdict judge_node_errors(const SpinModel& model, const Moments& moments) {
  NodeErrorVerdict v;
  const FamilyFacts family = family_facts(model);
  const auto columns = static_cast<std::size_t>(std::max(family.mean_columns, 1));
  const auto& clamped = model.clamped();
  if (moments.node_means.size() != columns * clamped.size() ||
      moments.node_means_stderr.size() != moments.node_means.size()) {
    return v;
  }
  for (std::size_t k = 0; k < moments.node_means.size(); ++k) {
    const std::size_t node = k / columns;
    if (clamped[node] != 0) continue;
    ++v.columns;
    if (moments.node_means_stderr[k] > 0.0) continue;
    ++v.zero_errors;
    if (v.first_zero_node < 0) v.first_zero_node = static_cast<std::int64_t>(node);
  }
  return v;
}

std::string describe(const NodeErrorVerdict& v) {
  if (v.zero_errors == 0) return "";
  return std::to_string(v.zero_errors) + " free node mean(s) (first node " +
         std::to_string(v.first_zero_node) +
         ") never changed in the run, so their error (reported as 0) is unknown";
}

}  // namespace hamon::node_errors
