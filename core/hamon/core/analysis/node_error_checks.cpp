// SPDX-License-Identifier: Apache-2.0
#include "hamon/core/analysis/detail/node_error_checks.hpp"

#include <algorithm>

#include "hamon/core/families/family_facts.hpp"
#include "hamon/core/util/text.hpp"

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

RoundTripVerdict judge_round_trips(const SpinModel& model, const NrptResult& result) {
  RoundTripVerdict v;
  const std::size_t n_chains = result.betas.size();
  const std::int64_t batches = result.moments.complete_batches;
  if (n_chains < 2 || batches < 2 || result.round_trips.empty() || family_facts(model).one_basin) {
    return v;
  }
  // round_trips holds every machine of every replica; the moments are one replica's cold chain.
  const double replicas =
      static_cast<double>(result.round_trips.size()) / static_cast<double>(n_chains);
  v.per_batch =
      static_cast<double>(result.total_round_trips) / replicas / static_cast<double>(batches);
  if (v.per_batch >= kWarnRoundTripsPerBatch) {
    v.status = HealthStatus::pass;
    return v;
  }
  v.status = v.per_batch < kFailRoundTripsPerBatch ? HealthStatus::fail : HealthStatus::warn;
  v.message = "node means' errors rest on " + format_significant(v.per_batch, 3) +
              " round trips per batch (" + std::to_string(batches) + " batches), fewer than " +
              format_significant(kWarnRoundTripsPerBatch, 3) +
              ": where a replica's states share a basin (an ordered phase, a glass valley) these "
              "errors are too small; run longer or use more chains";
  return v;
}

std::string describe(const NodeErrorVerdict& v) {
  if (v.zero_errors == 0) return "";
  return std::to_string(v.zero_errors) + " free node mean(s) (first node " +
         std::to_string(v.first_zero_node) +
         ") never changed in the run, so their error (reported as 0) is unknown";
}

}  // namespace hamon::node_errors
