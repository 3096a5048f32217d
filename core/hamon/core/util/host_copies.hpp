// SPDX-License-Identifier: Apache-2.0
#pragma once
// Copies between views and host vectors, for bookkeeping outside the kernels. Each copy is
// enqueued on the caller's execution-space instance and waits for that instance only:
// Kokkos's two-argument deep_copy (and create_mirror_view_and_copy) fence every instance
// of every space, which would stall an application's own work on its other instances.

#include <Kokkos_Core.hpp>
#include <cstddef>
#include <type_traits>
#include <vector>

namespace hamon::detail {

/// The view's contents on the host: a host mirror filled on `space`, once `space` has
/// finished the work enqueued before (and so the kernels that wrote `view`).
template <class ExecutionSpace, class View>
auto host_copy(const ExecutionSpace& space, const View& view) {
  auto mirror = Kokkos::create_mirror_view(Kokkos::HostSpace(), view);
  // In host memory the mirror is the view itself (possibly of const values): nothing to copy.
  if constexpr (!std::is_same_v<decltype(mirror), View>) Kokkos::deep_copy(space, mirror, view);
  space.fence();
  return mirror;
}

template <class T, class ExecutionSpace, class View>
std::vector<T> to_host_vector(const ExecutionSpace& space, const View& view) {
  const auto mirror = host_copy(space, view);
  return std::vector<T>(mirror.data(), mirror.data() + mirror.size());
}

/// `host` (a host mirror of `view`, e.g. from host_copy) into `view`, enqueued on `space`;
/// waits for the copy, which reads `host`, so the caller may free or change it after.
template <class ExecutionSpace, class View, class Mirror>
void copy_to_view(const ExecutionSpace& space, const View& view, const Mirror& host) {
  Kokkos::deep_copy(space, view, host);
  space.fence();
}

/// A host mirror of `view` to fill and hand to copy_to_view. In host memory it is the view
/// itself: then the work enqueued on `space` is waited for first, as it may use the view.
template <class ExecutionSpace, class View>
auto writable_mirror(const ExecutionSpace& space, const View& view) {
  auto mirror = Kokkos::create_mirror_view(Kokkos::HostSpace(), view);
  if (mirror.data() == view.data()) space.fence();
  return mirror;
}

/// Copies `values` into the 1-D view `view` (same length), through a host mirror.
template <class ExecutionSpace, class View, class T>
void copy_from_host(const ExecutionSpace& space, const View& view, const std::vector<T>& values) {
  auto mirror = writable_mirror(space, view);
  for (std::size_t k = 0; k < values.size(); ++k) mirror(k) = values[k];
  copy_to_view(space, view, mirror);
}
}  // namespace hamon::detail
