// SPDX-License-Identifier: Apache-2.0
#pragma once
// The exact log Z and mean energy of the uniform q-state Potts ferromagnet on a periodic
// rows x cols square torus, E = -sum over its 2 rows cols bonds of delta(x_i, x_j), by a
// dense column transfer matrix. It reads nothing of the library (no SpinModel, no lattice
// builder): a reference for the sampler that shares no code with what it checks.
//
// A column is a ring of `rows` sites, its state a in [0, q^rows) (site i is digit i). The
// symmetric transfer matrix T_ab = exp(-beta e_ab), e_ab = -(ring(a) + ring(b)) / 2 -
// rungs(a, b), counts each column's ring bonds half from either side and the bonds between
// neighbouring columns once, so Z = Tr T^cols. Every step of the trace is alike by
// translation, so <E> = cols Tr(T^(cols-1) (e o T)) / Tr(T^cols) (o: entrywise), which is
// -d log Z / d beta. T is computed shifted by the largest bond count, so its entries are at
// most 1 and log Z adds the shift back. Cost: ~log2(cols) dense products of q^rows x
// q^rows matrices; q^rows <= 1024 keeps it to about a second.

#include <cmath>
#include <cstddef>
#include <stdexcept>
#include <string>
#include <vector>

namespace hamon::test {

struct PottsTorusExact {
  double log_z = 0.0;   // log sum over configurations of exp(-beta E)
  double energy = 0.0;  // <E>
};

namespace potts_torus_detail {

using Matrix = std::vector<double>;  // n x n, row-major

inline Matrix multiply(const Matrix& a, const Matrix& b, std::size_t n) {
  Matrix c(n * n, 0.0);
  for (std::size_t i = 0; i < n; ++i) {
    for (std::size_t k = 0; k < n; ++k) {
      const double aik = a[i * n + k];
      const double* row = &b[k * n];
      double* out = &c[i * n];
      for (std::size_t j = 0; j < n; ++j) out[j] += aik * row[j];
    }
  }
  return c;
}

}  // namespace potts_torus_detail

inline PottsTorusExact potts_torus_exact(int rows, int cols, int q, double beta) {
  using potts_torus_detail::Matrix;
  using potts_torus_detail::multiply;
  // Rings of 3 or more sites: with 2 a periodic neighbour would be the open one again.
  if (rows < 3 || cols < 3 || q < 2) {
    throw std::invalid_argument("potts_torus_exact: needs rows, cols >= 3 and q >= 2");
  }
  std::size_t n = 1;
  for (int i = 0; i < rows; ++i) {
    n *= static_cast<std::size_t>(q);
    if (n > 1024) throw std::invalid_argument("potts_torus_exact: q^rows above 1024");
  }
  const auto r = static_cast<std::size_t>(rows);
  const auto qs = static_cast<std::size_t>(q);
  std::vector<int> digits(n * r);  // site i of column state a at [a r + i]
  for (std::size_t a = 0; a < n; ++a) {
    std::size_t rest = a;
    for (std::size_t i = 0; i < r; ++i, rest /= qs) digits[a * r + i] = static_cast<int>(rest % qs);
  }
  std::vector<double> ring(n, 0.0);
  for (std::size_t a = 0; a < n; ++a) {
    for (std::size_t i = 0; i < r; ++i) ring[a] += digits[a * r + i] == digits[a * r + (i + 1) % r];
  }
  // e_ab and T_ab = exp(-beta (e_ab - e_min)), e_min = -2 rows (all sites agree).
  const double e_min = -2.0 * rows;
  Matrix e(n * n), t(n * n);
  for (std::size_t a = 0; a < n; ++a) {
    for (std::size_t b = 0; b < n; ++b) {
      double rungs = 0.0;
      for (std::size_t i = 0; i < r; ++i) rungs += digits[a * r + i] == digits[b * r + i];
      e[a * n + b] = -0.5 * (ring[a] + ring[b]) - rungs;
      t[a * n + b] = std::exp(-beta * (e[a * n + b] - e_min));
    }
  }
  // power = T^(cols - 1) by repeated squaring (empty: the identity, never multiplied by).
  Matrix power;
  Matrix square = t;
  for (int k = cols - 1; k > 0; k >>= 1) {
    if (k & 1) power = power.empty() ? square : multiply(power, square, n);
    if (k > 1) square = multiply(square, square, n);
  }
  double trace = 0.0, energy_trace = 0.0;  // Tr(T^cols), Tr(T^(cols-1) (e o T))
  for (std::size_t a = 0; a < n; ++a) {
    for (std::size_t b = 0; b < n; ++b) {
      const double v = power[a * n + b] * t[b * n + a];
      trace += v;
      energy_trace += v * e[b * n + a];
    }
  }
  PottsTorusExact out;
  out.log_z = std::log(trace) - beta * e_min * cols;
  out.energy = cols * energy_trace / trace;
  return out;
}

}  // namespace hamon::test
