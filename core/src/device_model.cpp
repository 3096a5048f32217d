#include "hamon/core/device_model.hpp"

#include <algorithm>
#include <cmath>

namespace hamon::detail {

int energy_fraction_bits_for(const SpinModel& model) {
  // |E| <= sum_i |h_i| + sum_edges |J_ij|; keep (bound + one rounding unit per node) * 2^bits
  // below 2^61 so no partial sum of node terms can overflow an int64.
  double bound = static_cast<double>(model.n_nodes());
  for (double h : model.fields()) bound += std::abs(h);
  for (const Edge& e : model.edges()) bound += std::abs(e.coupling);
  const int bits = 61 - static_cast<int>(std::ceil(std::log2(std::max(bound, 1.0))));
  return std::clamp(bits, 0, 40);
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
