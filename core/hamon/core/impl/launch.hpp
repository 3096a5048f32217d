#pragma once
// How core launches work on an execution space.

#include <Kokkos_Core.hpp>
#include <cstdint>
#include <type_traits>

namespace hamon::detail {

/// Host execution spaces (LayoutRight by default) take the per-node, vectorised paths.
template <class ExecutionSpace>
inline constexpr bool host_style =
    std::is_same<typename ExecutionSpace::array_layout, Kokkos::LayoutRight>::value;

/// Bookkeeping over chains or machines (a few dozen items, once per round). On a host
/// space it is a plain loop on the calling thread, marked as a Kokkos Tools region: an
/// OpenMP fork/join costs more than the work. Elsewhere it is a kernel named `label`.
/// Either way f(i) runs once for every i < n, so results do not depend on the choice.
template <class ExecutionSpace, class F>
void small_for(const ExecutionSpace& space, const char* label, std::int64_t n, const F& f) {
  if constexpr (host_style<ExecutionSpace>) {
    (void)space;
    Kokkos::Profiling::pushRegion(label);
    for (std::int64_t i = 0; i < n; ++i) f(i);
    Kokkos::Profiling::popRegion();
  } else {
    Kokkos::parallel_for(
        label, Kokkos::RangePolicy<ExecutionSpace, Kokkos::IndexType<std::int64_t>>(space, 0, n),
        f);
  }
}

}  // namespace hamon::detail
