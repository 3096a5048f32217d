// SPDX-License-Identifier: Apache-2.0
#pragma once
// Copies between views and host vectors, for bookkeeping outside the kernels.

#include <Kokkos_Core.hpp>
#include <cstddef>
#include <vector>

namespace hamon::detail {

template <class T, class View>
std::vector<T> to_host_vector(const View& view) {
  auto mirror = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), view);
  return std::vector<T>(mirror.data(), mirror.data() + mirror.size());
}

/// Copies `values` into the 1-D view `view` (same length), through a host mirror that
/// outlives the copy.
template <class View, class T>
void copy_from_host(const View& view, const std::vector<T>& values) {
  auto mirror = Kokkos::create_mirror_view(view);
  for (std::size_t k = 0; k < values.size(); ++k) mirror(k) = values[k];
  Kokkos::deep_copy(view, mirror);
}
}  // namespace hamon::detail
