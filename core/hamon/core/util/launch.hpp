// SPDX-License-Identifier: Apache-2.0
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

/// Below this much work (node updates, counted in register lanes) a host kernel runs on the
/// calling thread: an OpenMP fork/join plus the launch costs ~3 us on the 2-core reference
/// machine, which is what ~8000 updates save when split over two threads
/// (perf/results/device_crossover/2026-11-30-host.md).
inline constexpr std::int64_t kInlineHostWork = 8192;

/// Host register lanes a node of `machines` machines occupies (multiples of 16).
inline std::int64_t host_lane_slots(std::int32_t machines) {
  return (static_cast<std::int64_t>(machines) + 15) / 16 * 16;
}

/// Runs f(i) for every i < n. On a host space, when `work` is below kInlineHostWork, as a
/// plain loop on the calling thread marked as a Kokkos Tools region; otherwise as the
/// kernel `label`. Either way every f(i) runs once, so results do not depend on the choice.
template <class ExecutionSpace, class F>
void launch(const ExecutionSpace& space, const char* label, std::int64_t n, std::int64_t work,
            const F& f) {
  if constexpr (host_style<ExecutionSpace>) {
    if (work < kInlineHostWork) {
      Kokkos::Profiling::pushRegion(label);
      for (std::int64_t i = 0; i < n; ++i) f(i);
      Kokkos::Profiling::popRegion();
      return;
    }
  }
  Kokkos::parallel_for(
      label, Kokkos::RangePolicy<ExecutionSpace, Kokkos::IndexType<std::int64_t>>(space, 0, n), f);
}

/// Bookkeeping over chains or machines (a few dozen items, once per round): on a host
/// space always on the calling thread, elsewhere a kernel.
template <class ExecutionSpace, class F>
void small_for(const ExecutionSpace& space, const char* label, std::int64_t n, const F& f) {
  launch(space, label, n, 0, f);
}

}  // namespace hamon::detail
