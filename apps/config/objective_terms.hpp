// SPDX-License-Identifier: Apache-2.0
#pragma once
// An optimisation problem read from a file in its own variables (model.kind qubo or maxcut):
// the terms as the file gives them, before they become an Ising model (run/objective_model).
// Kept with the experiment so the run can judge its best state in the file's own objective.

#include <cstdint>
#include <vector>

namespace hamon::cli {

/// qubo: minimise x^T Q x over x in {0,1}^n (upper triangle, i <= j; the diagonal is the
/// linear part since x_i^2 = x_i). maxcut: maximise sum w_ij (1 - s_i s_j) / 2 over
/// s in {-1,+1}^n, one term per edge.
enum class ObjectiveFormat { qubo, maxcut };

/// One line of the file, indices 0-based (a G-set file's 1-based ones less one).
struct ObjectiveTerm {
  std::int64_t i = 0;
  std::int64_t j = 0;
  double value = 0.0;  // Q_ij, or the edge's weight w_ij
};

struct ObjectiveTerms {
  ObjectiveFormat format = ObjectiveFormat::qubo;
  std::int64_t n = 0;  // variables (nodes)
  std::vector<ObjectiveTerm> terms;
};

/// "qubo" or "maxcut" (the model.kind that reads the format).
inline const char* kind_name(ObjectiveFormat format) {
  return format == ObjectiveFormat::qubo ? "qubo" : "maxcut";
}

}  // namespace hamon::cli
