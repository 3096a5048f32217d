// SPDX-License-Identifier: Apache-2.0
#pragma once
// Per-system energies of a multispin state (multispin_sweep.hpp's layout), in bit logic:
// bond e of system b is unsatisfied where (s_i bit) ^ (s_j bit) ^ (negative bit) is 1 (and
// the edge is present); a vertical counter per 64-bit lane adds those bits over the edges
// for 64 systems at once, and E_b = J0 (2 unsatisfied_b - present_edges_b). Integers only:
// the same on every backend.

#include <Kokkos_Core.hpp>
#include <cstdint>

#include "hamon/core/families/multispin/multispin_sweep.hpp"

namespace hamon {

namespace detail {

/// A vertical counter of one 64-bit lane: 64 counts side by side, bit p of count b in bit b
/// of plane p; enough planes for 2^31 - 1 inputs.
struct MultispinCounter {
  static constexpr int kPlanes = 31;
  std::uint64_t planes[kPlanes] = {};
  int used = 0;

  /// Adds one to the counts of the bits set in `bits` (the carries ripple up).
  KOKKOS_INLINE_FUNCTION void add(std::uint64_t bits) {
    for (int p = 0; bits != 0; ++p) {
      const std::uint64_t carry = planes[p] & bits;
      planes[p] ^= bits;
      bits = carry;
      used = p + 1 > used ? p + 1 : used;
    }
  }

  /// Count b.
  KOKKOS_INLINE_FUNCTION std::int64_t count(int b) const {
    std::int64_t out = 0;
    for (int p = 0; p < used; ++p) out |= static_cast<std::int64_t>((planes[p] >> b) & 1u) << p;
    return out;
  }
};

template <class MemorySpace>
struct MultispinUnsatisfied {
  MultispinViews<MemorySpace> m;
  Kokkos::View<const std::uint64_t*, MemorySpace> spins;
  Kokkos::View<std::int64_t*, MemorySpace> out;  // [slot * 512 + system]

  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t t) const {
    const std::int64_t slot = t / kMultispinLanes;
    const int lane = static_cast<int>(t % kMultispinLanes);
    const std::int64_t group = slot % m.n_groups, base = slot * m.n_nodes;
    MultispinCounter unsatisfied;
    for (std::int64_t e = 0; e < m.n_edges(); ++e) {
      const std::int64_t word = (e * m.n_groups + group) * kMultispinLanes + lane;
      std::uint64_t bits = spins((base + m.edge_first(e)) * kMultispinLanes + lane) ^
                           spins((base + m.edge_second(e)) * kMultispinLanes + lane) ^
                           m.negative(word);
      if (m.present.extent(0) != 0) bits &= m.present(word);
      unsatisfied.add(bits);
    }
    for (int b = 0; b < 64; ++b)
      out(slot * kMultispinSystems + lane * 64 + b) = unsatisfied.count(b);
  }
};

}  // namespace detail

/// Every system's number of unsatisfied bonds, out[slot * 512 + system] (out sized n_slots
/// * 512).
template <class Space>
void multispin_unsatisfied(
    const Space& space, const MultispinDevice<typename Space::memory_space>& m,
    const Kokkos::View<const std::uint64_t*, typename Space::memory_space>& spins,
    const Kokkos::View<std::int64_t*, typename Space::memory_space>& out) {
  const auto n_slots =
      static_cast<std::int64_t>(spins.extent(0)) / (m.views.n_nodes * kMultispinLanes);
  Kokkos::parallel_for(
      "hamon::multispin_energies", Kokkos::RangePolicy<Space>(space, 0, n_slots * kMultispinLanes),
      detail::MultispinUnsatisfied<typename Space::memory_space>{m.views, spins, out});
}

}  // namespace hamon
