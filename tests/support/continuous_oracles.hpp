// SPDX-License-Identifier: Apache-2.0
#pragma once
// Exact answers for continuous models (spin_model.hpp), computed here independently of the
// library's kernels: the Gaussian's closed forms by a dense Cholesky factorisation, and a
// double-well ring's moments and log Z by a numerical transfer operator.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "hamon/core/model/spin_model.hpp"

namespace hamon_test {

/// The Gaussian model at inverse temperature beta: x ~ N(P^-1 h, (beta P)^-1).
struct GaussianExact {
  std::vector<double> means;      // P^-1 h
  std::vector<double> variances;  // diag (beta P)^-1
  double log_z = 0.0;             // n/2 log(2 pi / beta) - 1/2 log det P + beta/2 h' P^-1 h
  double energy = 0.0;            // <E> = n / (2 beta) - 1/2 h' P^-1 h
};

inline GaussianExact gaussian_exact(const hamon::SpinModel& model, double beta) {
  const auto n = static_cast<std::size_t>(model.n_nodes());
  std::vector<double> l(n * n, 0.0);  // P, then its Cholesky factor in the lower triangle
  for (std::size_t i = 0; i < n; ++i) l[i * n + i] = model.node_weights()[i];
  for (const hamon::Edge& e : model.edges()) {
    const auto i = static_cast<std::size_t>(e.i);
    const auto j = static_cast<std::size_t>(e.j);
    l[i * n + j] = l[j * n + i] = -e.coupling;
  }
  for (std::size_t k = 0; k < n; ++k) {
    double pivot = l[k * n + k];
    for (std::size_t j = 0; j < k; ++j) pivot -= l[k * n + j] * l[k * n + j];
    l[k * n + k] = std::sqrt(pivot);
    for (std::size_t i = k + 1; i < n; ++i) {
      double v = l[i * n + k];
      for (std::size_t j = 0; j < k; ++j) v -= l[i * n + j] * l[k * n + j];
      l[i * n + k] = v / l[k * n + k];
    }
  }
  // Solves P y = b with the factor (forward, then backward substitution).
  auto solve = [&](std::vector<double> b) {
    for (std::size_t i = 0; i < n; ++i) {
      for (std::size_t j = 0; j < i; ++j) b[i] -= l[i * n + j] * b[j];
      b[i] /= l[i * n + i];
    }
    for (std::size_t i = n; i-- > 0;) {
      for (std::size_t j = i + 1; j < n; ++j) b[i] -= l[j * n + i] * b[j];
      b[i] /= l[i * n + i];
    }
    return b;
  };
  GaussianExact out;
  out.means = solve(model.fields());
  double log_det = 0.0;
  for (std::size_t i = 0; i < n; ++i) log_det += 2.0 * std::log(l[i * n + i]);
  double h_mu = 0.0;
  for (std::size_t i = 0; i < n; ++i) {
    std::vector<double> unit(n, 0.0);
    unit[i] = 1.0;
    out.variances.push_back(solve(unit)[i] / beta);
    h_mu += model.fields()[i] * out.means[i];
  }
  constexpr double kTwoPi = 6.283185307179586476925;
  const double dn = static_cast<double>(n);
  out.log_z = 0.5 * dn * std::log(kTwoPi / beta) - 0.5 * log_det + 0.5 * beta * h_mu;
  out.energy = dn / (2.0 * beta) - 0.5 * h_mu;
  return out;
}

/// A ring of `n` double-well sites, lambda (x^2 - 1)^2 - h x each, neighbours coupled by J
/// (E includes -J x_i x_{i+1} for every i, the last with the first), at inverse
/// temperature beta, by the transfer operator T(x, y) = w exp(-beta (u(x) / 2 + u(y) / 2 -
/// J x y)) on a grid of `points` over [-reach, reach] (w the trapezoid weight: the
/// integrand vanishes at the ends, so the rule converges geometrically).
struct RingExact {
  double mean = 0.0;    // <x_i>
  double second = 0.0;  // <x_i^2>
  double energy = 0.0;  // <E> / n
  double log_z = 0.0;   // log Z
};

inline RingExact double_well_ring_exact(int n, double lambda, double h, double coupling,
                                        double beta, int points = 801, double reach = 3.5) {
  const auto k = static_cast<std::size_t>(points);
  const double step = 2.0 * reach / (points - 1);
  std::vector<double> x(k), u(k);
  for (std::size_t a = 0; a < k; ++a) {
    x[a] = -reach + step * static_cast<double>(a);
    const double s = x[a] * x[a] - 1.0;
    u[a] = lambda * s * s - h * x[a];
  }
  std::vector<double> t(k * k);
  for (std::size_t a = 0; a < k; ++a) {
    for (std::size_t b = 0; b < k; ++b) {
      t[a * k + b] = step * std::exp(-beta * (0.5 * u[a] + 0.5 * u[b] - coupling * x[a] * x[b]));
    }
  }
  // T^(n-1), scaled each step to keep it in range (the scale goes into log Z).
  std::vector<double> power = t;
  double log_scale = 0.0;
  for (int p = 1; p < n - 1; ++p) {
    std::vector<double> next(k * k, 0.0);
    for (std::size_t a = 0; a < k; ++a) {
      for (std::size_t c = 0; c < k; ++c) {
        const double tac = power[a * k + c];
        for (std::size_t b = 0; b < k; ++b) next[a * k + b] += tac * t[c * k + b];
      }
    }
    double largest = 0.0;
    for (double v : next) largest = std::max(largest, v);
    for (double& v : next) v /= largest;
    log_scale += std::log(largest);
    power = std::move(next);
  }
  // tr(D T^n) = sum_a,b D_a T^(n-1)(a, b) T(b, a), and <x_0 x_1 ...> similarly.
  double z = 0.0, sx = 0.0, sx2 = 0.0, su = 0.0, sxy = 0.0;
  for (std::size_t a = 0; a < k; ++a) {
    for (std::size_t b = 0; b < k; ++b) {
      const double w = power[a * k + b] * t[b * k + a];
      z += w;
      sx += x[a] * w;
      sx2 += x[a] * x[a] * w;
      su += u[a] * w;
      sxy += x[a] * x[b] * w;  // x_0 x_{n-1}: neighbours on the ring
    }
  }
  RingExact out;
  out.mean = sx / z;
  out.second = sx2 / z;
  out.energy = su / z - coupling * sxy / z;
  out.log_z = std::log(z) + log_scale;
  return out;
}

}  // namespace hamon_test
