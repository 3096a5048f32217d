// SPDX-License-Identifier: Apache-2.0
#pragma once
// What the continuous family's kernels read of a model (real_family.hpp): the node terms,
// the couplings and the energies in node order, and the fixed point they are summed in.

#include <Kokkos_Core.hpp>
#include <cstdint>

#include "hamon/core/model/device_model.hpp"
#include "hamon/core/model/device_model_tables.hpp"
#include "hamon/core/model/spin_model.hpp"
#include "hamon/core/util/fixed_point.hpp"

namespace hamon::detail {

/// The largest |value| in fixed point (2^38 x 2^24 = 2^62): an energy or a moment term
/// beyond it (or not a number) becomes kFixedOutOfRange, which the sums keep (add_fixed) and
/// the sampler reports as an error; it was once clamped here, silently changing swaps and
/// log Z.
inline constexpr double kLargestFixedReal = 274877906944.0;  // 2^38

KOKKOS_INLINE_FUNCTION std::int64_t real_to_fixed(double value) {
  constexpr double scale = static_cast<double>(std::int64_t{1} << kContinuousFractionBits);
  if (!(value <= kLargestFixedReal && value >= -kLargestFixedReal)) return kFixedOutOfRange;
  return to_fixed_point(value, scale);
}

/// The model's views the continuous kernels read, copied into each kernel.
template <class MemorySpace>
struct RealModelViews {
  Kokkos::View<std::int64_t*, MemorySpace> row_offsets;
  Kokkos::View<std::int32_t*, MemorySpace> columns;
  Kokkos::View<double*, MemorySpace> couplings;
  Kokkos::View<double*, MemorySpace> fields;
  Kokkos::View<double*, MemorySpace> weights;
  bool gaussian = true;

  explicit RealModelViews(const DeviceModel<MemorySpace>& m)
      : row_offsets(m.row_offsets),
        columns(m.columns),
        couplings(m.couplings),
        fields(m.fields),
        weights(m.node_weights),
        gaussian(m.continuous_kind == static_cast<std::int32_t>(ContinuousKind::gaussian)) {}

  /// The node term of E_ref at value x.
  KOKKOS_INLINE_FUNCTION double node_energy(std::int64_t i, double x) const {
    const double square = x * x;
    const double w = weights(i);
    return (gaussian ? 0.5 * w * square : w * (square - 1.0) * (square - 1.0)) - fields(i) * x;
  }

  /// sum_j J_ij x_j over node i's neighbours in CRS order, for machine row m.
  template <class Values>
  KOKKOS_INLINE_FUNCTION double coupled_sum(std::int64_t i, const Values& x, std::int64_t m) const {
    double phi = 0.0;
    for (std::int64_t e = row_offsets(i); e < row_offsets(i + 1); ++e) {
      phi += couplings(e) * x(m, columns(e));
    }
    return phi;
  }

  /// The swap energy of machine row m (E - E_ref, or E with the node terms), in node order.
  template <class Values>
  KOKKOS_INLINE_FUNCTION double machine_energy(const Values& x, std::int64_t m,
                                               std::int64_t n_nodes, bool with_nodes) const {
    double sum = 0.0;
    for (std::int64_t i = 0; i < n_nodes; ++i) {
      const double xi = x(m, i);
      if (with_nodes) sum += node_energy(i, xi);
      for (std::int64_t e = row_offsets(i); e < row_offsets(i + 1); ++e) {
        if (columns(e) > i) sum -= couplings(e) * xi * x(m, columns(e));
      }
    }
    return sum;
  }
};

}  // namespace hamon::detail
