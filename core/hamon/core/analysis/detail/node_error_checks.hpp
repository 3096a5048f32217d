// SPDX-License-Identifier: Apache-2.0
#pragma once
// Whether the node means' batch-means error bars can be trusted (diagnostics.hpp's
// error_bars check): an error of exactly 0 on a free variable (it never changed in the
// run) says nothing about the error, so it is counted and named, never passed.
//
// The other clock: the round trips. Between two replicas' arrivals from the hot end the
// cold chain holds states of one replica's lineage, which share its basin (an ordered phase,
// a glass valley); batches shorter than the time between arrivals look independent while
// they are not, and no statistic of the cold chain alone sees it (a run that never left one
// phase has uncorrelated-looking batches). So the round trips per batch judge the node
// means' errors: over 200 seeds each of 4 x 4 ferromagnets (beta 0.4, 0.6) and Gaussian
// glasses (beta 1, 1.5), 3 to 6 chains, 1000 and 10000 rounds, node-mean var z was 0.76-1.04
// where every run had >= 2 round trips per batch, 1.02-1.59 at 1-2, and 1.46-3.38 below 1.
// Below 2 the check warns; below a quarter (a run of 32..64 batches with fewer than ~16
// round trips in all) it fails. A Gaussian has one basin, so its own moves decorrelate it
// and the rule does not apply; nor to a single chain, which has no round trips.
//
// Not judged by an implied effective sample size Var(x) / error^2 against a floor: on
// 1000-round runs of an ordered 4x4 ferromagnet that floor failed 190 of 200 runs, and the
// 10 it passed were those whose errors happened to be smallest (var z 3.3): the implied ESS
// grows as the error is underestimated, so it selects the wrong runs; nor by the magnetisation's
// integrated autocorrelation time, which is short inside one phase. Host side.

#include <cstdint>
#include <string>

#include "hamon/core/analysis/health.hpp"
#include "hamon/core/model/spin_model.hpp"
#include "hamon/core/sampler/nrpt.hpp"
#include "hamon/core/stats/moments.hpp"

namespace hamon::node_errors {

struct NodeErrorVerdict {
  std::int64_t columns = 0;           // free (node, column) means judged
  std::int64_t zero_errors = 0;       // of them with error 0 (never changed)
  std::int64_t first_zero_node = -1;  // a node to name in the message
};

NodeErrorVerdict judge_node_errors(const SpinModel& model, const Moments& moments);

/// One sentence for the health message; empty when nothing failed.
std::string describe(const NodeErrorVerdict& verdict);

/// Round trips per complete moment batch below which node-mean errors are too small where a
/// replica's states share a basin (warn), and below which they cannot be trusted (fail).
inline constexpr double kWarnRoundTripsPerBatch = 2.0;
inline constexpr double kFailRoundTripsPerBatch = 0.25;

struct RoundTripVerdict {
  HealthStatus status = HealthStatus::skipped;  // skipped where the rule does not apply
  double per_batch = 0.0;  // one replica's round trips per complete moment batch
  std::string message;     // empty when it passed or was skipped
};

RoundTripVerdict judge_round_trips(const SpinModel& model, const NrptResult& result);

}  // namespace hamon::node_errors
