// SPDX-License-Identifier: Apache-2.0
#include "hamon/core/model/normalising_range.hpp"

#include <algorithm>
#include <cmath>

namespace hamon {

namespace {

// Lanczos steps: the extreme Ritz values of a sparse lattice's spectrum settle to ~1e-6
// well before this, and each step costs one pass over the couplings.
constexpr std::size_t kLanczosSteps = 120;

// Eigenvalues of the symmetric tridiagonal (a, b) below x: Sturm count.
std::size_t below(const std::vector<double>& a, const std::vector<double>& b, double x) {
  std::size_t count = 0;
  double d = 1.0;
  for (std::size_t k = 0; k < a.size(); ++k) {
    d = a[k] - x - (k > 0 ? b[k - 1] * b[k - 1] / d : 0.0);
    if (d == 0.0) d = 1e-300;
    if (d < 0.0) ++count;
  }
  return count;
}

// The `index`-th smallest eigenvalue of the tridiagonal by bisection inside [lo, hi].
double tridiagonal_eigenvalue(const std::vector<double>& a, const std::vector<double>& b,
                              std::size_t index, double lo, double hi) {
  for (int it = 0; it < 200 && hi - lo > 1e-14 * std::max(1.0, std::abs(hi)); ++it) {
    const double mid = 0.5 * (lo + hi);
    (below(a, b, mid) > index ? hi : lo) = mid;
  }
  return 0.5 * (lo + hi);
}

}  // namespace

std::vector<double> scaled_coupling_extremes(const SpinModel& model) {
  const auto n = static_cast<std::size_t>(model.n_nodes());
  const auto& offsets = model.row_offsets();
  const auto& columns = model.columns();
  const auto& couplings = model.couplings();
  const auto& clamped = model.clamped();
  std::vector<double> scale(n, 0.0);  // d^-1/2 on free nodes, 0 on clamped ones
  double radius = 0.0;                // Gershgorin: brackets the spectrum
  for (std::size_t i = 0; i < n; ++i) {
    if (clamped[i] == 0) scale[i] = 1.0 / std::sqrt(model.node_weights()[i]);
  }
  for (std::size_t i = 0; i < n; ++i) {
    double row = 0.0;
    for (auto e = offsets[i]; e < offsets[i + 1]; ++e) {
      const auto j = static_cast<std::size_t>(columns[static_cast<std::size_t>(e)]);
      row += std::abs(couplings[static_cast<std::size_t>(e)]) * scale[i] * scale[j];
    }
    radius = std::max(radius, row);
  }
  if (radius == 0.0) return {0.0, 0.0};
  auto multiply = [&](const std::vector<double>& v, std::vector<double>& out) {
    for (std::size_t i = 0; i < n; ++i) {
      double sum = 0.0;
      for (auto e = offsets[i]; e < offsets[i + 1]; ++e) {
        const auto j = static_cast<std::size_t>(columns[static_cast<std::size_t>(e)]);
        sum += couplings[static_cast<std::size_t>(e)] * scale[j] * v[j];
      }
      out[i] = scale[i] * sum;
    }
  };
  // Start from a fixed vector with every free component non-zero (deterministic).
  std::vector<std::vector<double>> basis;
  std::vector<double> v(n, 0.0), w(n);
  double norm = 0.0;
  for (std::size_t i = 0; i < n; ++i) {
    v[i] = scale[i] > 0.0 ? 1.0 + 0.37 * std::sin(1.0 + static_cast<double>(i)) : 0.0;
    norm += v[i] * v[i];
  }
  for (double& x : v) x /= std::sqrt(norm);
  std::vector<double> a, b;
  const std::size_t steps = std::min(n, kLanczosSteps);
  for (std::size_t k = 0; k < steps; ++k) {
    basis.push_back(v);
    multiply(v, w);
    double alpha = 0.0;
    for (std::size_t i = 0; i < n; ++i) alpha += w[i] * v[i];
    a.push_back(alpha);
    // Full reorthogonalisation (twice is enough): keeps the Ritz values free of ghosts.
    for (int pass = 0; pass < 2; ++pass) {
      for (const auto& q : basis) {
        double dot = 0.0;
        for (std::size_t i = 0; i < n; ++i) dot += w[i] * q[i];
        for (std::size_t i = 0; i < n; ++i) w[i] -= dot * q[i];
      }
    }
    double beta = 0.0;
    for (double x : w) beta += x * x;
    beta = std::sqrt(beta);
    if (beta <= 1e-12 * radius) break;  // an invariant subspace: its Ritz values are exact
    b.push_back(beta);
    for (std::size_t i = 0; i < n; ++i) v[i] = w[i] / beta;
  }
  b.resize(a.size() > 0 ? a.size() - 1 : 0);
  const double lo = tridiagonal_eigenvalue(a, b, 0, -radius - 1e-12, radius + 1e-12);
  const double hi = tridiagonal_eigenvalue(a, b, a.size() - 1, -radius - 1e-12, radius + 1e-12);
  return {lo, hi};
}

NormalisingRange normalising_range(const SpinModel& model, bool annealed, double beta_top) {
  NormalisingRange range;
  if (model.continuous_kind() != ContinuousKind::gaussian) return range;
  if (!annealed) {
    range.lower = 0.0;  // exp(-beta E) with E positive definite: every beta > 0
    return range;
  }
  const std::vector<double> mu = scaled_coupling_extremes(model);
  if (mu[1] > 0.0) range.upper = beta_top / mu[1];
  if (mu[0] < 0.0) range.lower = beta_top / mu[0];
  return range;
}

}  // namespace hamon
