// SPDX-License-Identifier: Apache-2.0
#pragma once
// Where `hamon demo` writes. The demo is meant to be run again and again (the README does),
// so it replaces its own earlier run; but the directory at its place may hold a user's own
// run (an edited copy of the example, say), which must never be replaced. The demo's own
// run is told by what makes replacing it harmless: its config.yaml is byte for byte the
// one this demo writes, so the same seed gives the same samples again and nothing is lost.

#include <ostream>

#include "run/prepare_run.hpp"

namespace hamon::cli {

/// Points `run` (prepared with OutputPolicy::continue_run: its output directory is not
/// checked yet) at where the demo writes, and gives it OutputPolicy::replace_run: its
/// output.dir when that is free or holds the demo's own earlier run (complete, or
/// interrupted as DIR.partial); otherwise, when `may_move` (no --out was given), the first
/// such of DIR-2, DIR-3, ..., saying so on `note`. Fails with a ConfigError on output.dir
/// when there is no such directory.
void choose_demo_directory(PreparedRun& run, bool may_move, std::ostream& note);

}  // namespace hamon::cli
