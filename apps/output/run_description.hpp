// SPDX-License-Identifier: Apache-2.0
#pragma once
// What a complete run holds, in a few words for a message that is about to put it at
// risk (--overwrite) or that says where it is kept (an interrupted extension): read from
// its summary.yaml, which records what ran; the date is the summary's, as no run records
// the wall-clock time it ended.

#include <filesystem>
#include <string>

namespace hamon::cli {

/// "2000 rounds (+50 burn-in) of a lattice model of 64 nodes, finished 2025-05-01 12:34"
/// for the complete run whose summary.yaml is in `dir` (an ensemble's instances, a
/// training run's epochs); what cannot be read is left out, and "a complete run" when
/// nothing can.
std::string describe_complete_run(const std::filesystem::path& dir);

}  // namespace hamon::cli
