// SPDX-License-Identifier: Apache-2.0
// Continuous models (spin_model.hpp): Gaussian fields and phi^4 double wells on a
// SpinModel's graph, their validation, energies and the exact log Z of their reference
// (and of an Ising model's: independent spins in its fields).
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "hamon/core/model/detail/model_validation.hpp"
#include "hamon/core/model/reference_log_z.hpp"
#include "hamon/core/model/spin_model.hpp"

namespace hamon {

const char* to_string(ContinuousKind kind) {
  switch (kind) {
    case ContinuousKind::gaussian:
      return "gaussian";
    case ContinuousKind::double_well:
      return "double_well";
    case ContinuousKind::none:
      break;
  }
  return "none";
}

SpinModel SpinModel::continuous(ContinuousKind kind, std::int64_t n_nodes,
                                const std::vector<Edge>& edges, const std::vector<double>& weights,
                                const std::vector<double>& fields) {
  const char* weight_name = kind == ContinuousKind::gaussian ? "diag" : "barrier";
  if (static_cast<std::int64_t>(weights.size()) != n_nodes) {
    throw ModelError(std::string(weight_name) + ": " + std::to_string(weights.size()) +
                     " values for " + std::to_string(n_nodes) + " nodes");
  }
  for (std::size_t i = 0; i < weights.size(); ++i) {
    if (!(std::isfinite(weights[i]) && weights[i] > 0.0)) {
      throw ModelError(std::string(weight_name) + " of node " + std::to_string(i) + " is " +
                       std::to_string(weights[i]) + ": it must be a finite number > 0");
    }
  }
  SpinModel model = from_edges(n_nodes, edges, fields);
  model.continuous_ = kind;
  model.node_weights_ = weights;
  if (kind == ContinuousKind::gaussian) model.require_positive_definite();
  return model;
}

SpinModel SpinModel::gaussian(std::int64_t n_nodes, const std::vector<Edge>& edges,
                              const std::vector<double>& diag, const std::vector<double>& fields) {
  return continuous(ContinuousKind::gaussian, n_nodes, edges, diag, fields);
}

SpinModel SpinModel::double_well(std::int64_t n_nodes, const std::vector<Edge>& edges,
                                 const std::vector<double>& barrier,
                                 const std::vector<double>& fields) {
  return continuous(ContinuousKind::double_well, n_nodes, edges, barrier, fields);
}

void SpinModel::require_positive_definite() const {
  // Gershgorin: every eigenvalue of P lies in some disc [d_i - r_i, d_i + r_i], r_i the
  // row's sum |J_ij|, so d_i > r_i on every row is enough (and costs one pass).
  const auto n = static_cast<std::size_t>(n_nodes());
  std::int64_t first_failing = -1;
  for (std::size_t i = 0; i < n && first_failing < 0; ++i) {
    double radius = 0.0;
    for (auto e = row_offsets_[i]; e < row_offsets_[i + 1]; ++e) {
      radius += std::abs(couplings_[static_cast<std::size_t>(e)]);
    }
    if (!(node_weights_[i] > radius)) first_failing = static_cast<std::int64_t>(i);
  }
  if (first_failing < 0) return;
  if (n_nodes() > kMaxDenseCheck) {
    throw ModelError(
        "gaussian model: the precision diag(d) - J may not be positive definite: "
        "row " +
        std::to_string(first_failing) +
        " has d = " + std::to_string(node_weights_[static_cast<std::size_t>(first_failing)]) +
        " <= sum |J| of its couplings, and " + std::to_string(n_nodes()) +
        " nodes are too many to factorise (at most " + std::to_string(kMaxDenseCheck) +
        "): raise d or lower the couplings");
  }
  // Cholesky of the dense P, row by row: a non-positive pivot at row k means the leading
  // k x k block is not positive definite.
  std::vector<double> a(n * n, 0.0);
  for (std::size_t i = 0; i < n; ++i) {
    a[i * n + i] = node_weights_[i];
    for (auto e = row_offsets_[i]; e < row_offsets_[i + 1]; ++e) {
      a[i * n + static_cast<std::size_t>(columns_[static_cast<std::size_t>(e)])] =
          -couplings_[static_cast<std::size_t>(e)];
    }
  }
  for (std::size_t k = 0; k < n; ++k) {
    double pivot = a[k * n + k];
    for (std::size_t j = 0; j < k; ++j) pivot -= a[k * n + j] * a[k * n + j];
    if (!(pivot > 0.0)) {
      throw ModelError(
          "gaussian model: the precision diag(d) - J is not positive definite "
          "(the density does not normalise): the Cholesky factorisation fails at "
          "node " +
          std::to_string(k) + ": raise d or lower the couplings");
    }
    const double root = std::sqrt(pivot);
    a[k * n + k] = root;
    for (std::size_t i = k + 1; i < n; ++i) {
      double v = a[i * n + k];
      for (std::size_t j = 0; j < k; ++j) v -= a[i * n + j] * a[k * n + j];
      a[i * n + k] = v / root;
    }
  }
}

double SpinModel::reference_energy(const std::vector<double>& x) const {
  if (!is_continuous()) throw ModelError("reference_energy: not a continuous model");
  if (static_cast<std::int64_t>(x.size()) != n_nodes()) {
    throw ModelError("energy: " + std::to_string(x.size()) + " values for " +
                     std::to_string(n_nodes()) + " nodes");
  }
  double sum = 0.0;
  for (std::size_t i = 0; i < x.size(); ++i) {
    const double w = node_weights_[i];
    const double square = x[i] * x[i];
    sum += (continuous_ == ContinuousKind::gaussian ? 0.5 * w * square
                                                    : w * (square - 1.0) * (square - 1.0)) -
           fields_[i] * x[i];
  }
  return sum;
}

double SpinModel::continuous_energy(const std::vector<double>& x) const {
  double sum = reference_energy(x);
  for (const Edge& e : edges_) {
    sum -= e.coupling * x[static_cast<std::size_t>(e.i)] * x[static_cast<std::size_t>(e.j)];
  }
  return sum;
}

double reference_log_z(const SpinModel& model, double beta) {
  return reference_log_z_with_error(model, beta).value;
}

}  // namespace hamon
