// SPDX-License-Identifier: Apache-2.0
#include "hamon/core/device_model.hpp"

#include <algorithm>
#include <cmath>

namespace hamon::detail {

int energy_fraction_bits_for(const SpinModel& model) {
  // Every node term -s_i (h_i + sum_{j>i} J_ij s_j) is rounded to a multiple of 2^-bits and
  // the integers are summed in int64, so |E| <= magnitude = sum_i |h_i| + sum_edges |J_ij|
  // and magnitude * 2^bits + n_nodes (one rounding unit per node) must stay <= 2^61 (so
  // that partial sums and energy differences fit). bits is the largest that allows: the
  // resolution is relative to the model's magnitude (2^-61 of it per node), whatever its
  // scale, and is negative for magnitudes beyond 2^61.
  const double magnitude = model.magnitude();
  if (magnitude == 0.0) return 0;  // every energy is exactly 0
  const double room = std::ldexp(1.0, 61) - static_cast<double>(model.n_nodes());
  int bits = static_cast<int>(std::floor(std::log2(room / magnitude)));
  while (std::ldexp(magnitude, bits) > room) --bits;  // log2 rounding at the edge
  return bits;
}

std::int32_t integer_field_bound_for(const SpinModel& model) {
  constexpr double kLargestTabulated = 64.0;
  auto is_integer = [](double v) { return std::floor(v) == v; };
  double bound = 0.0;
  for (std::int64_t i = 0; i < model.n_nodes(); ++i) {
    const double h = model.fields()[static_cast<std::size_t>(i)];
    if (!is_integer(h)) return -1;
    double reach = std::abs(h);
    for (auto e = model.row_offsets()[static_cast<std::size_t>(i)];
         e < model.row_offsets()[static_cast<std::size_t>(i) + 1]; ++e) {
      const double j = model.couplings()[static_cast<std::size_t>(e)];
      if (!is_integer(j)) return -1;
      reach += std::abs(j);
    }
    bound = std::max(bound, reach);
    if (bound > kLargestTabulated) return -1;
  }
  return static_cast<std::int32_t>(bound);
}

}  // namespace hamon::detail
