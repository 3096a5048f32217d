// SPDX-License-Identifier: Apache-2.0
#pragma once
// The two problem files of model.kind qubo and maxcut (formats in examples/README.md):
//
//   QUBO (0-based):   # comments; an optional first line 'variables N'; then lines 'i j Q',
//                     0 <= i <= j, each pair once (the diagonal is the linear part).
//   MAX-CUT (G-set):  first line 'n m', then m lines 'i j w', 1 <= i, j <= n, i != j,
//                     each edge once (in either orientation).
//
// Every error names the file, line and column (a ConfigError at key model.file), so the
// command prints one line the user can jump to.

#include <string>

#include "config/objective_terms.hpp"

namespace hamon::cli {

/// The terms of the problem in `path` (already known to be a regular file).
ObjectiveTerms read_objective_file(const std::string& path, ObjectiveFormat format);

}  // namespace hamon::cli
