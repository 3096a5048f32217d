// SPDX-License-Identifier: Apache-2.0
#pragma once
// Whether the node means' batch-means error bars can be trusted (diagnostics.hpp's
// error_bars check): an error of exactly 0 on a free variable (it never changed in the
// run) says nothing about the error, so it is counted and named, never passed.
//
// Not judged by an implied effective sample size Var(x) / error^2 against a floor: on
// 1000-round runs of an ordered 4x4 ferromagnet that floor failed 190 of 200 runs, and the
// 10 it passed were those whose errors happened to be smallest (var z 3.3): the implied ESS
// grows as the error is underestimated, so it selects the wrong runs. Host side.

#include <cstdint>
#include <string>

#include "hamon/core/model/spin_model.hpp"
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

}  // namespace hamon::node_errors
