// SPDX-License-Identifier: Apache-2.0
#pragma once
// Text files of numbers (RBM weights and biases): whitespace-separated numbers, any
// number per line, '#' starts a comment. Weights are visible-major (one line per visible
// node is the natural layout). A file named *.npy is read as a float64 NumPy array in C
// order instead (the weights.npy, visible_bias.npy and hidden_bias.npy of `hamon train`).

#include <string>
#include <vector>

namespace hamon::cli {

/// Reads every number of `path`. Throws std::runtime_error "path:line: ..." for a token
/// that is not a finite number, and "path: ..." when the file cannot be read.
std::vector<double> read_numbers_file(const std::string& path);

}  // namespace hamon::cli
