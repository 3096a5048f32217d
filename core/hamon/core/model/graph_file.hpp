// SPDX-License-Identifier: Apache-2.0
#pragma once
// The graph text format, the one file format for a model (graph_file.cpp).

#include <ostream>
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

/// Writes `model` in that format, every number with 17 significant digits (%.17g), so that
/// read_graph_file gives back the same numbers bit for bit: its edges (i < j, sorted), the
/// fields and the clamps (a field that is +0 is left out: 0 is the default), and for a
/// continuous model every node's 'diag' or 'barrier'. A graph has no lattice shape: a
/// lattice read back from it keeps its colouring only through lattice_from_graph
/// (model_builders.hpp). Throws ModelError for a Potts model with general coupling matrices
/// (the format has no line for them); a failed `out` is the caller's to check (it knows the
/// file).
void write_graph_file(std::ostream& out, const SpinModel& model);

}  // namespace hamon
