// SPDX-License-Identifier: Apache-2.0
#include "hamon/core/model/device_model_tables.hpp"

#include <algorithm>
#include <cmath>

namespace hamon::detail {

int energy_fraction_bits_for(const SpinModel& model) {
  if (model.is_continuous()) return kContinuousFractionBits;
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

namespace {

bool is_integer(double v) {
  return std::floor(v) == v;
}

/// max_s - min_s of a node's local field over states, bounded by its terms' ranges.
std::int32_t potts_weight_bound(const SpinModel& model) {
  const auto q = static_cast<std::size_t>(model.n_states());
  const bool matrices = !model.csr_matrices().empty();
  double bound = 0.0;
  for (std::size_t i = 0; i < static_cast<std::size_t>(model.n_nodes()); ++i) {
    if (model.clamped()[i] != 0) continue;
    const double* h = &model.state_fields()[i * q];
    double low = h[0], high = h[0];
    for (std::size_t s = 0; s < q; ++s) {
      if (!is_integer(h[s])) return -1;
      low = std::min(low, h[s]);
      high = std::max(high, h[s]);
    }
    double reach = high - low;
    for (auto e = model.row_offsets()[i]; e < model.row_offsets()[i + 1]; ++e) {
      const auto entry = static_cast<std::size_t>(e);
      if (!matrices) {
        const double j = model.couplings()[entry];
        if (!is_integer(j)) return -1;
        reach += std::abs(j);
        continue;
      }
      const double* w = &model.csr_matrices()[entry * q * q];
      double w_low = w[0], w_high = w[0];
      for (std::size_t k = 0; k < q * q; ++k) {
        if (!is_integer(w[k])) return -1;
        w_low = std::min(w_low, w[k]);
        w_high = std::max(w_high, w[k]);
      }
      reach += w_high - w_low;
    }
    bound = std::max(bound, reach);
    if (bound > kLargestPottsWeightIndex) return -1;
  }
  return static_cast<std::int32_t>(bound);
}

}  // namespace

std::int32_t integer_field_bound_for(const SpinModel& model) {
  if (model.is_continuous()) return -1;  // real local fields: no tables
  if (model.is_potts()) return potts_weight_bound(model);
  constexpr double kLargestTabulated = 64.0;
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
