// SPDX-License-Identifier: Apache-2.0
#pragma once
// The replica overlaps in a run's outputs (docs/overlaps.md): summary.yaml's `overlap:`
// section, per temperature in ladder order, and overlap_histograms.npy (n_chains x
// (n_free + 1) counts; bin n: n free nodes agree, q = (q_states n - N_free) /
// (N_free (q_states - 1))).

#include <yaml-cpp/yaml.h>

#include <ostream>

#include "hamon/core/stats/overlap_statistics.hpp"

namespace hamon::cli {

/// The `overlap:` section (nothing when `s` is empty: one replica, or over ranks).
void emit_overlap(YAML::Emitter& out, const OverlapStatistics& s);

/// overlap_histograms.npy.
void write_overlap_histograms(std::ostream& out, const OverlapStatistics& s);

}  // namespace hamon::cli
