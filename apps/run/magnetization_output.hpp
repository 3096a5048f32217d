// SPDX-License-Identifier: Apache-2.0
#pragma once
// The magnetisation per temperature in a run's outputs (docs/magnetization.md):
// summary.yaml's `magnetization:` section, in ladder order, for spin and Potts models with
// output.moments on.

#include <yaml-cpp/yaml.h>

#include "hamon/core/stats/magnetization_statistics.hpp"

namespace hamon::cli {

/// The `magnetization:` section (nothing when `s` was not accumulated: moments off, a
/// continuous model, or a run over ranks). `potts`: the magnetisation is the Potts order
/// parameter.
void emit_magnetization(YAML::Emitter& out, const MagnetizationStatistics& s, bool potts);

}  // namespace hamon::cli
