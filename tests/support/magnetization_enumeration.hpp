// SPDX-License-Identifier: Apache-2.0
#pragma once
// Exact magnetisation moments of small models (docs/magnetization.md) by enumerating every
// configuration (exact_enumeration.hpp): m = sum_i s_i / N for Ising spins (state 1 is
// spin +1), the Potts order parameter m = (q max_s n_s / N - 1) / (q - 1) for a Potts
// model, and from their moments the Binder cumulant and both susceptibilities.

#include <algorithm>
#include <cmath>
#include <vector>

#include "exact_enumeration.hpp"
#include "hamon/core/model/spin_model.hpp"

namespace hamon::test {

struct ExactMagnetization {
  double m = 0.0, abs_m = 0.0, m2 = 0.0, m4 = 0.0;
  double binder = 0.0;  // 1 - <m^4> / (3 <m^2>^2)
  double chi = 0.0;     // beta N (<m^2> - <|m|>^2)
  double chi_m2 = 0.0;  // beta N <m^2>
};

inline ExactMagnetization exact_magnetization(const SpinModel& model, double beta) {
  const StateModel sm = state_model(model);
  const Enumeration e = enumerate(sm, beta, 0x1.0p20, "exact_magnetization");
  const bool potts = model.is_potts();
  const double n = static_cast<double>(sm.n);
  const auto q = static_cast<std::size_t>(sm.q);
  ExactMagnetization out;
  std::vector<double> counts(q);
  for_each_configuration(sm, sm.free_nodes(), [&](std::size_t s, const std::vector<int>& x) {
    double m = 0.0;
    if (potts) {
      std::fill(counts.begin(), counts.end(), 0.0);
      for (int v : x) counts[static_cast<std::size_t>(v)] += 1.0;
      const double largest = *std::max_element(counts.begin(), counts.end());
      m = (static_cast<double>(q) * largest / n - 1.0) / static_cast<double>(q - 1);
    } else {
      for (int v : x) m += v == 1 ? 1.0 : -1.0;
      m /= n;
    }
    const double p = e.probabilities[s];
    out.m += p * m;
    out.abs_m += p * std::abs(m);
    out.m2 += p * m * m;
    out.m4 += p * m * m * m * m;
  });
  out.binder = 1.0 - out.m4 / (3.0 * out.m2 * out.m2);
  out.chi = beta * n * (out.m2 - out.abs_m * out.abs_m);
  out.chi_m2 = beta * n * out.m2;
  return out;
}

}  // namespace hamon::test
