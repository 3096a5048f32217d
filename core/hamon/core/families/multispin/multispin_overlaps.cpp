// SPDX-License-Identifier: Apache-2.0
#include "hamon/core/families/multispin/multispin_overlaps.hpp"

#include <cmath>

namespace hamon {

std::vector<std::int32_t> multispin_plane_nodes(const MultispinEnsemble& ensemble) {
  const auto& extents = ensemble.extents;
  const auto dims = static_cast<std::int64_t>(extents.size());
  std::vector<std::vector<std::int32_t>> planes(static_cast<std::size_t>(dims) *
                                                (extents.empty() ? 0 : extents[0]));
  for (std::int64_t i = 0; i < ensemble.n_nodes; ++i) {
    std::int64_t rest = i;
    for (std::int64_t d = dims - 1; d >= 0; --d) {  // row-major: the last extent fastest
      const int side = extents[static_cast<std::size_t>(d)];
      planes[static_cast<std::size_t>(d * side + rest % side)].push_back(
          static_cast<std::int32_t>(i));
      rest /= side;
    }
  }
  std::vector<std::int32_t> out;
  for (const auto& plane : planes) out.insert(out.end(), plane.begin(), plane.end());
  return out;
}

double multispin_fourier_overlap(const std::int64_t* counts, std::int64_t stride, std::int64_t dims,
                                 std::int64_t side) {
  const double k = 2.0 * M_PI / static_cast<double>(side);
  double per_node = 1.0;
  for (std::int64_t d = 0; d < dims; ++d) per_node *= static_cast<double>(side);
  const double in_plane = per_node / static_cast<double>(side);
  double sum = 0.0;
  for (std::int64_t d = 0; d < dims; ++d) {
    double re = 0.0, im = 0.0;
    for (std::int64_t x = 0; x < side; ++x) {
      const double s = in_plane - 2.0 * static_cast<double>(counts[(d * side + x) * stride]);
      re += s * std::cos(k * static_cast<double>(x));
      im += s * std::sin(k * static_cast<double>(x));
    }
    sum += (re * re + im * im) / (per_node * per_node);
  }
  return sum / static_cast<double>(dims);
}

}  // namespace hamon
