// SPDX-License-Identifier: Apache-2.0
#pragma once
// Per-system energies of a multispin state (multispin_sweep.hpp's layout), in bit logic:
// bond e of system b is unsatisfied where (s_i bit) ^ (s_j bit) ^ (negative bit) is 1 (and
// the edge is present); vertical counters add those bits over the edges for the 512 systems
// of a word at once, and E_b = J0 (2 unsatisfied_b - present_edges_b). Integers only:
// the same on every backend.

#include <Kokkos_Core.hpp>
#include <cstdint>

#include "hamon/core/families/multispin/multispin_sweep.hpp"

namespace hamon {

namespace detail {

/// Vertical counters of one word: 512 counts side by side, in two stages so that adding is
/// a fixed, branch-free run of bit operations on whole words (which a host compiler keeps
/// in vector registers): `low` counts up to 15 in 4 planes, and every 15 adds it is added
/// into `high` (bit p of count b of lane l in bit b of high[p][l]), enough for 2^31 - 1.
struct MultispinCounter {
  static constexpr int kLow = 4, kFlushEvery = 15, kHigh = 31;
  std::uint64_t low[kLow][kMultispinLanes] = {};
  std::uint64_t high[kHigh][kMultispinLanes] = {};
  int pending = 0, used = 0;

  /// Adds one to the counts of the bits set in `bits`.
  KOKKOS_INLINE_FUNCTION void add(const std::uint64_t (&bits)[kMultispinLanes]) {
    std::uint64_t carry[kMultispinLanes];
    for (int l = 0; l < kMultispinLanes; ++l) carry[l] = bits[l];
    for (int p = 0; p < kLow; ++p) {
      for (int l = 0; l < kMultispinLanes; ++l) {
        const std::uint64_t next = low[p][l] & carry[l];
        low[p][l] ^= carry[l];
        carry[l] = next;
      }
    }
    if (++pending == kFlushEvery) flush();
  }

  /// Adds `low` into `high` (a bit-sliced addition with carries) and clears it.
  KOKKOS_INLINE_FUNCTION void flush() {
    std::uint64_t carry[kMultispinLanes] = {};
    for (int p = 0; p < kHigh; ++p) {
      std::uint64_t any = 0;
      for (int l = 0; l < kMultispinLanes; ++l) {
        const std::uint64_t a = high[p][l], b = p < kLow ? low[p][l] : 0;
        high[p][l] = a ^ b ^ carry[l];
        carry[l] = (a & b) | (carry[l] & (a ^ b));
        any |= high[p][l] | carry[l];
      }
      if (any != 0 && p + 1 > used) used = p + 1;
      if (p >= kLow - 1 && (carry[0] | carry[1] | carry[2] | carry[3] | carry[4] | carry[5] |
                            carry[6] | carry[7]) == 0) {
        break;
      }
    }
    for (int p = 0; p < kLow; ++p) {
      for (int l = 0; l < kMultispinLanes; ++l) low[p][l] = 0;
    }
    pending = 0;
  }

  /// Count b of lane `lane` (after flush()).
  KOKKOS_INLINE_FUNCTION std::int64_t count(int lane, int b) const {
    std::int64_t out = 0;
    for (int p = 0; p < used; ++p) {
      out |= static_cast<std::int64_t>((high[p][lane] >> b) & 1u) << p;
    }
    return out;
  }
};

/// Item t: slot t's word.
template <class MemorySpace>
struct MultispinUnsatisfied {
  MultispinViews<MemorySpace> m;
  Kokkos::View<const std::uint64_t*, MemorySpace> spins;
  Kokkos::View<std::int64_t*, MemorySpace> out;  // [slot * 512 + system]

  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t slot) const {
    const std::int64_t group = slot % m.n_groups, base = slot * m.n_nodes;
    const bool diluted = m.present.extent(0) != 0;
    MultispinCounter unsatisfied;
    for (std::int64_t e = 0; e < m.n_edges(); ++e) {
      const std::int64_t word = (e * m.n_groups + group) * kMultispinLanes;
      const std::uint64_t* a = &spins((base + m.edge_first(e)) * kMultispinLanes);
      const std::uint64_t* b = &spins((base + m.edge_second(e)) * kMultispinLanes);
      const std::uint64_t* negative = &m.negative(word);
      std::uint64_t bits[kMultispinLanes];
      for (int l = 0; l < kMultispinLanes; ++l) bits[l] = a[l] ^ b[l] ^ negative[l];
      if (diluted) {
        const std::uint64_t* present = &m.present(word);
        for (int l = 0; l < kMultispinLanes; ++l) bits[l] &= present[l];
      }
      unsatisfied.add(bits);
    }
    unsatisfied.flush();
    for (int l = 0; l < kMultispinLanes; ++l) {
      for (int b = 0; b < 64; ++b)
        out(slot * kMultispinSystems + l * 64 + b) = unsatisfied.count(l, b);
    }
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
      "hamon::multispin_energies", Kokkos::RangePolicy<Space>(space, 0, n_slots),
      detail::MultispinUnsatisfied<typename Space::memory_space>{m.views, spins, out});
}

}  // namespace hamon
