// SPDX-License-Identifier: Apache-2.0
#pragma once
// A QUBO or MAX-CUT problem (config/objective_terms.hpp) as the Ising model the run samples,
// and the run's best state back in the problem's own variables and objective.
//
// The project's energy is E(s) = -(sum_i h_i s_i + sum_(i,j) J_ij s_i s_j). With s = 2x - 1:
//
//   QUBO     f(x) = sum_(i<=j) Q_ij x_i x_j = E(s) + C:   J_ij = -Q_ij / 4 (i < j),
//            h_i = -(Q_ii / 2 + sum_(j != i) Q_ij / 4),   C = sum_i Q_ii / 2 + sum_(i<j) Q_ij / 4
//            (scale 1: an energy difference is a QUBO difference);
//   MAX-CUT  cut(s) = sum w_ij (1 - s_i s_j) / 2 = -E(s) / 2 + W / 2:  J_ij = -w_ij (the
//            antiferromagnet of the weights), no field, W = sum w_ij (scale -1/2).
//
// So objective = scale * E(s) + offset for every state. The divisions by 2 and 4 are exact in
// binary floating point; with data whose sums do not round (integers, or multiples of a power
// of two well inside double's precision) the identity holds bit for bit.

#include <yaml-cpp/yaml.h>

#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include "config/objective_terms.hpp"
#include "hamon/core/model/spin_model.hpp"

namespace hamon::cli {

struct IsingForm {
  std::vector<Edge> edges;     // zero terms are left out (they couple nothing)
  std::vector<double> fields;  // one per variable
  double scale = 1.0;
  double offset = 0.0;
};

/// The Ising form of `problem`, sums taken in the file's order.
IsingForm ising_form(const ObjectiveTerms& problem);

/// The model a run samples for `problem` (ModelError as SpinModel::from_edges).
SpinModel objective_model(const ObjectiveTerms& problem);

/// The problem's objective at the spins `s` (x = (s + 1) / 2), evaluated term by term from the
/// file's numbers (not through the Ising form).
double objective_value(const ObjectiveTerms& problem, const std::vector<std::int8_t>& spins);

/// The entries of summary.yaml's `search` that judge the best state in the problem's terms:
/// best_objective, and objective: {name, goal, scale, offset, assignment}.
void emit_objective_entries(YAML::Emitter& out, const ObjectiveTerms& problem,
                            const std::vector<std::int8_t>& best_spins);

/// "cut     12.0 (cut_value, maximised; cut_value = -0.5 x energy + 6.0; best_assignment.npy)",
/// the run report's line after "best ".
std::string objective_line(const ObjectiveTerms& problem,
                           const std::vector<std::int8_t>& best_spins);

/// best_assignment.npy: the best state in the problem's variables, uint8 of shape (n,): x_i
/// in {0,1} for a QUBO, the side 0/1 of each node for a MAX-CUT (side 1: spin +1).
void write_best_assignment(std::ostream& out, const std::vector<std::int8_t>& best_spins);

}  // namespace hamon::cli
