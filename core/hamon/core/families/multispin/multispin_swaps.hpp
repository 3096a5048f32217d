// SPDX-License-Identifier: Apache-2.0
#pragma once
// Replica-exchange swaps of a multispin state, per system: every instance has its own ladder
// state. The slots of a state are (replica, rung, group): slot = (replica * n_rungs + rung)
// * n_groups + group, so rung k and k + 1 of one replica and group are n_groups slots apart.
//
// One deterministic even-odd (DEO) pass swaps the pairs (k, k + 1) with k of the round's
// parity. System b of a pair exchanges its two configurations with probability
// min(1, exp((beta_k - beta_k+1) (E_k - E_k+1))), decided from its own 32-bit draw (Philox
// in the swap stream: system, pair and replica in the counter), so no two systems, replicas or
// pairs share a decision. The accepted systems' bits are exchanged node by node with a mask,
// (a ^ b) & mask flipped in both words, and their unsatisfied-bond counts with them.
// Integers and host-made thresholds only: the same bits on every backend.

#include <Kokkos_Core.hpp>
#include <cstdint>
#include <vector>

#include "hamon/core/families/multispin/multispin_sweep.hpp"
#include "hamon/core/util/counter_rng.hpp"
#include "hamon/core/util/deterministic_math.hpp"

namespace hamon {

/// How a multispin state's slots are laid out.
struct MultispinLadder {
  std::int64_t n_rungs = 1, n_replicas = 1, n_groups = 1;

  KOKKOS_INLINE_FUNCTION std::int64_t slot(std::int64_t rung, std::int64_t replica,
                                           std::int64_t group) const {
    return (replica * n_rungs + rung) * n_groups + group;
  }
  KOKKOS_INLINE_FUNCTION std::int64_t n_slots() const { return n_rungs * n_replicas * n_groups; }
};

namespace detail {

/// Decides the systems of one lane of one pair: item t = ((pair, replica, group), lane).
template <class MemorySpace>
struct MultispinSwapDecisions {
  MultispinLadder ladder;
  Kokkos::View<const double*, MemorySpace> betas;        // per rung
  Kokkos::View<std::int64_t*, MemorySpace> unsatisfied;  // [slot * 512 + system]
  Kokkos::View<std::uint64_t*, MemorySpace> masks;       // [item]: the accepted systems
  double coupling = 1.0;
  std::int64_t first_rung = 0, n_pairs = 0;
  std::uint64_t seed = 0;
  std::uint32_t round = 0;

  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t t) const {
    const int lane = static_cast<int>(t % kMultispinLanes);
    const std::int64_t block = t / kMultispinLanes;
    const std::int64_t group = block % ladder.n_groups;
    const std::int64_t replica = (block / ladder.n_groups) % ladder.n_replicas;
    const std::int64_t pair = block / (ladder.n_groups * ladder.n_replicas);
    const std::int64_t rung = first_rung + 2 * pair;
    const std::int64_t low = ladder.slot(rung, replica, group) * kMultispinSystems + 64 * lane;
    const std::int64_t high = ladder.slot(rung + 1, replica, group) * kMultispinSystems + 64 * lane;
    const double scale = 2.0 * coupling * (betas(rung) - betas(rung + 1));
    std::uint64_t mask = 0;
    for (int q = 0; q < 16; ++q) {  // four systems per Philox call
      const Philox4 draw = philox4(
          seed, static_cast<std::uint32_t>(Stream::swap),
          static_cast<std::uint32_t>(rung * ladder.n_replicas + replica),
          static_cast<std::uint32_t>((group * kMultispinSystems + 64 * lane) / 4 + q), round);
      for (int r = 0; r < 4; ++r) {
        const int b = 4 * q + r;
        // E = J0 (2 U - present): E_low - E_high = 2 J0 (U_low - U_high).
        const double log_ratio =
            scale * static_cast<double>(unsatisfied(low + b) - unsatisfied(high + b));
        const bool accept = log_ratio >= 0.0 || static_cast<double>(draw.w[r]) <
                                                    deterministic_exp(log_ratio) * 4294967296.0;
        if (accept) {
          mask |= std::uint64_t{1} << b;
          const std::int64_t u = unsatisfied(low + b);
          unsatisfied(low + b) = unsatisfied(high + b);
          unsatisfied(high + b) = u;
        }
      }
    }
    masks(t) = mask;
  }
};

/// Exchanges the accepted systems' bits: item t = ((pair, replica, group), node).
template <class MemorySpace>
struct MultispinSwapExchange {
  MultispinLadder ladder;
  Kokkos::View<std::uint64_t*, MemorySpace> spins;
  Kokkos::View<const std::uint64_t*, MemorySpace> masks;
  std::int64_t n_nodes = 0, first_rung = 0;

  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t t) const {
    const std::int64_t node = t % n_nodes, block = t / n_nodes;
    const std::int64_t group = block % ladder.n_groups;
    const std::int64_t replica = (block / ladder.n_groups) % ladder.n_replicas;
    const std::int64_t rung = first_rung + 2 * (block / (ladder.n_groups * ladder.n_replicas));
    std::uint64_t* a =
        &spins((ladder.slot(rung, replica, group) * n_nodes + node) * kMultispinLanes);
    std::uint64_t* b =
        &spins((ladder.slot(rung + 1, replica, group) * n_nodes + node) * kMultispinLanes);
    for (int l = 0; l < kMultispinLanes; ++l) {
      const std::uint64_t flip = (a[l] ^ b[l]) & masks(block * kMultispinLanes + l);
      a[l] ^= flip;
      b[l] ^= flip;
    }
  }
};

}  // namespace detail

/// One DEO pass of round `round` over every replica and group. `unsatisfied` must hold the
/// state's per-system unsatisfied bonds (multispin_unsatisfied) and is kept in step;
/// `masks` (at least n_rungs / 2 * n_replicas * n_groups * 8 words) receives, per pair,
/// replica, group and lane, the systems that swapped. Returns the number of pairs passed.
template <class Space>
std::int64_t multispin_swap_pass(
    const Space& space, const MultispinLadder& ladder, double coupling,
    const Kokkos::View<const double*, typename Space::memory_space>& betas,
    const Kokkos::View<std::uint64_t*, typename Space::memory_space>& spins,
    const Kokkos::View<std::int64_t*, typename Space::memory_space>& unsatisfied,
    const Kokkos::View<std::uint64_t*, typename Space::memory_space>& masks, std::uint64_t seed,
    std::uint32_t round) {
  using M = typename Space::memory_space;
  const std::int64_t first_rung = round % 2;
  const std::int64_t n_pairs = (ladder.n_rungs - first_rung) / 2;
  if (n_pairs <= 0) return 0;
  const std::int64_t blocks = n_pairs * ladder.n_replicas * ladder.n_groups;
  Kokkos::parallel_for(
      "hamon::multispin_swap_decisions",
      Kokkos::RangePolicy<Space>(space, 0, blocks * kMultispinLanes),
      detail::MultispinSwapDecisions<M>{ladder, betas, unsatisfied, masks, coupling, first_rung,
                                        n_pairs, seed, round});
  const auto n_nodes =
      static_cast<std::int64_t>(spins.extent(0)) / (ladder.n_slots() * kMultispinLanes);
  Kokkos::parallel_for("hamon::multispin_swap_exchange",
                       Kokkos::RangePolicy<Space>(space, 0, blocks * n_nodes),
                       detail::MultispinSwapExchange<M>{ladder, spins, masks, n_nodes, first_rung});
  return n_pairs;
}

}  // namespace hamon
