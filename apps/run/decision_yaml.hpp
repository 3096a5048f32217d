// SPDX-License-Identifier: Apache-2.0
#pragma once
// A routing decision as YAML mapping entries (spec, placement, reason, score, threshold,
// threshold_source, and host_tier when the host tier chose): shared by `hamon resolve`
// and the run summary's `device` section.

#include <yaml-cpp/yaml.h>

#include "hamon/policies/placement.hpp"

namespace hamon::cli {

/// Emits the entries into an open mapping.
void emit_decision_entries(YAML::Emitter& out, const DeviceDecision& decision);

}  // namespace hamon::cli
