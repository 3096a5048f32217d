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

}  // namespace hamon::detail
