// SPDX-License-Identifier: Apache-2.0
#pragma once
// The graph text format, the one file format for a model (graph_file.cpp).

#include <string>

#include "hamon/core/model/spin_model.hpp"

namespace hamon {

/// Reads a graph from a text file (format documented in examples/README.md):
///   # comments and blank lines are ignored
///   nodes N                 (first non-comment line)
///   potts Q                 (optional, right after nodes: Q-state Potts variables,
///                            2 <= Q <= 256; without it the nodes are +-1 spins)
///   edge I J COUPLING       (any number; with potts, the Potts J of J delta(x_i, x_j))
///   field I H               (optional; unspecified fields are 0; with potts:
///   field I S H              the field h_i(S) of node I in state S, 0 <= S < Q)
///   clamp I VALUE           (optional; VALUE is +1 or -1; with potts: clamp I S, the
///                            node's state S, 0 <= S < Q)
/// Errors (ModelError) name the file and line: missing file, unknown directive, bad
/// numbers, and everything SpinModel::from_edges (SpinModel::potts) rejects.
SpinModel read_graph_file(const std::string& path);

}  // namespace hamon
