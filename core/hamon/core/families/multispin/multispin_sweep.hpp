// SPDX-License-Identifier: Apache-2.0
#pragma once
// The multispin heat-bath sweep and the per-system energies, in bit logic
// (multispin_ensemble.hpp says what a word is).
//
// The state is `n_slots` words per node: slot s holds group s % n_groups of the instances at
// one temperature (a rung of one replica's ladder); spins[(s * n_nodes + i) * 8 + lane].
//
// Sweep: the colours in turn; within a colour, every (node, slot) is independent. For node i
// of slot s, neighbour j through edge e contributes +1 to J_ij s_j / J0 where
// (s_j bit) ^ (negative bit) is 1 and -1 where it is 0 (and 0 where the edge is absent).
// The local field h = sum_j J_ij s_j / J0 of every system of the word is held in a
// bit-sliced counter (plane p: bit p of the count, one plane per 64-bit lane):
//   without dilution  count = #(+1 contributions) in 0 .. z,      h = 2 count - z;
//   diluted           count = sum_j (2 [+1] + [absent]) in 0 .. 2z, h = count - z.
// Heat bath: up with probability 1 / (1 + exp(-2 beta J0 h)), decided by one uniform 32-bit
// draw u shared by the word's systems: up iff u < T(h) = floor(2^32 P_up(h)). T rises with
// h, so "u < T(h)" is "count >= k(u)" with k(u) the number of counts whose threshold is
// <= u: k is found once per word (a few scalar compares), and the comparison of the counter
// with k is a handful of bit operations per plane for all 512 systems at once.
//
// Draws: one Philox4x32-10 call per (node, four consecutive slots, sweep, round), one word
// each; so every slot, and so every replica, draws its own numbers, and the systems of one
// word (different instances at one temperature) share theirs. Sharing is the multispin
// coding of the spin-glass literature (e.g. Bhanot, Duke & Salvador 1986; the Janus
// collaboration's codes): each instance's chain is still an exact heat-bath chain, and the
// instances' different couplings decorrelate their trajectories; what is shared makes the
// instances' errors slightly correlated, which the ensemble statistics over instances
// (jackknife over instances) absorb. Replicas of one instance never share a draw: they are
// in different slots.
//
// Every operation is integer (the thresholds are made on the host with deterministic_exp),
// so every backend and thread count gives the same bits.

#include <Kokkos_Core.hpp>
#include <cstdint>
#include <string>
#include <vector>

#include "hamon/core/families/multispin/detail/multispin_registers.hpp"
#include "hamon/core/families/multispin/multispin_ensemble.hpp"
#include "hamon/core/util/counter_rng.hpp"
#include "hamon/core/util/deterministic_math.hpp"
#include "hamon/core/util/host_kernel.hpp"
#include "hamon/core/util/launch.hpp"

namespace hamon {

/// What a kernel reads of the packed ensemble, in the memory of `MemorySpace` (views and
/// numbers only, so a Cuda kernel can hold it).
template <class MemorySpace>
struct MultispinViews {
  template <class T>
  using view = Kokkos::View<T*, MemorySpace>;

  std::int64_t n_nodes = 0, n_groups = 0;
  std::int32_t max_degree = 0;
  view<const std::int64_t> row_offsets;
  view<const std::int32_t> neighbour, edge_of_entry, edge_first, edge_second, colour_nodes;
  view<const std::uint64_t> negative, present;

  KOKKOS_INLINE_FUNCTION std::int64_t n_edges() const {
    return static_cast<std::int64_t>(edge_first.extent(0));
  }
};

/// The packed ensemble in the memory of `MemorySpace`, with what the host launches need.
template <class MemorySpace>
struct MultispinDevice {
  MultispinViews<MemorySpace> views;
  std::int32_t counter_planes = 0;
  bool diluted = false;
  std::vector<std::int64_t> colour_offsets;  // the launches' ranges
};

namespace detail {

template <class MemorySpace, class T>
Kokkos::View<const T*, MemorySpace> multispin_copy(const char* label, const std::vector<T>& host) {
  Kokkos::View<T*, MemorySpace> out(
      Kokkos::view_alloc(Kokkos::WithoutInitializing, std::string(label)), host.size());
  Kokkos::deep_copy(out, Kokkos::View<const T*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>(
                             host.data(), host.size()));
  return out;
}

/// The count a word's systems must reach to turn up, for draw u (see the file's comment).
template <bool Diluted>
KOKKOS_INLINE_FUNCTION std::int32_t multispin_needed_count(const std::uint64_t* thresholds,
                                                           std::int32_t max_degree,
                                                           std::int32_t degree, std::uint64_t u) {
  std::int32_t k = 0;
  if constexpr (Diluted) {
    while (k <= 2 * degree && thresholds[k - degree + max_degree] <= u) ++k;
  } else {
    while (k <= degree && thresholds[2 * k - degree + max_degree] <= u) ++k;
  }
  return k;
}

/// Adds the one-bit inputs `bits` (one word per lane) into the counter's planes from plane
/// `from` up. The lane loops are innermost, so a host compiler keeps a word in vector
/// registers (one AVX-512 register, two AVX2 ones).
template <int Planes>
KOKKOS_FORCEINLINE_FUNCTION void multispin_add(std::uint64_t (&planes)[Planes][kMultispinLanes],
                                               const std::uint64_t (&bits)[kMultispinLanes],
                                               int from) {
  std::uint64_t carry[kMultispinLanes];
  for (int l = 0; l < kMultispinLanes; ++l) carry[l] = bits[l];
  for (int p = from; p < Planes; ++p) {
    for (int l = 0; l < kMultispinLanes; ++l) {
      const std::uint64_t next = planes[p][l] & carry[l];
      planes[p][l] ^= carry[l];
      carry[l] = next;
    }
  }
}

/// Per lane, the systems whose count is >= k (k the same for all of them).
template <int Planes>
KOKKOS_FORCEINLINE_FUNCTION void multispin_at_least(
    const std::uint64_t (&planes)[Planes][kMultispinLanes], std::int32_t k, std::uint64_t* out) {
  std::uint64_t greater[kMultispinLanes] = {}, equal[kMultispinLanes];
  for (int l = 0; l < kMultispinLanes; ++l) equal[l] = ~std::uint64_t{0};
  if ((k >> Planes) != 0) {  // more than the counter can hold: no system reaches it
    for (int l = 0; l < kMultispinLanes; ++l) out[l] = 0;
    return;
  }
  for (int p = Planes - 1; p >= 0; --p) {
    if ((k >> p) & 1) {
      for (int l = 0; l < kMultispinLanes; ++l) equal[l] &= planes[p][l];
    } else {
      for (int l = 0; l < kMultispinLanes; ++l) {
        greater[l] |= equal[l] & planes[p][l];
        equal[l] &= ~planes[p][l];
      }
    }
  }
  for (int l = 0; l < kMultispinLanes; ++l) out[l] = greater[l] | equal[l];
}

/// One colour of one sweep: work item t is node colour_nodes[first + t % n] of the slots
/// 4 (t / n) .. 4 (t / n) + 3.
template <class MemorySpace, int Planes, bool Diluted>
struct MultispinColourSweep {
  MultispinViews<MemorySpace> m;
  Kokkos::View<std::uint64_t*, MemorySpace> spins;
  Kokkos::View<const std::uint64_t*, MemorySpace> thresholds;  // per slot: 2 max_degree + 1
  std::int64_t first = 0, n = 0, n_slots = 0;
  std::uint64_t seed = 0;
  std::uint32_t round = 0, sweep_index = 0;

  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t t) const {
    const std::int32_t i = m.colour_nodes(first + t % n);
    const std::int64_t quad = t / n;
    const Philox4 draw = philox4(seed, static_cast<std::uint32_t>(i),
                                 static_cast<std::uint32_t>(quad), sweep_index, round);
    const std::int64_t begin = m.row_offsets(i), end = m.row_offsets(i + 1);
    const auto degree = static_cast<std::int32_t>(end - begin);
    const std::int64_t stride = 2 * static_cast<std::int64_t>(m.max_degree) + 1;
    for (int r = 0; r < 4; ++r) {
      const std::int64_t slot = 4 * quad + r;
      if (slot >= n_slots) return;
      const std::int64_t group = slot % m.n_groups;
      const std::int32_t k = multispin_needed_count<Diluted>(&thresholds(slot * stride),
                                                             m.max_degree, degree, draw.w[r]);
      const std::int64_t base = slot * m.n_nodes;
      std::uint64_t planes[Planes][kMultispinLanes] = {};
      for (std::int64_t x = begin; x < end; ++x) {
        const std::int64_t word = (m.edge_of_entry(x) * m.n_groups + group) * kMultispinLanes;
        const std::uint64_t* neighbour = &spins((base + m.neighbour(x)) * kMultispinLanes);
        const std::uint64_t* negative = &m.negative(word);
        std::uint64_t plus[kMultispinLanes];
        for (int l = 0; l < kMultispinLanes; ++l) plus[l] = neighbour[l] ^ negative[l];
        if constexpr (Diluted) {
          const std::uint64_t* present = &m.present(word);
          std::uint64_t absent[kMultispinLanes];
          for (int l = 0; l < kMultispinLanes; ++l) {
            absent[l] = ~present[l];
            plus[l] &= present[l];
          }
          multispin_add(planes, absent, 0);
          multispin_add(planes, plus, 1);
        } else {
          multispin_add(planes, plus, 0);
        }
      }
      multispin_at_least(planes, k, &spins((base + i) * kMultispinLanes));
    }
  }
};

template <class Space, int Planes, bool Diluted>
void multispin_sweep_colours(
    const Space& space, const MultispinDevice<typename Space::memory_space>& m,
    const Kokkos::View<std::uint64_t*, typename Space::memory_space>& spins,
    const Kokkos::View<const std::uint64_t*, typename Space::memory_space>& thresholds,
    std::int64_t n_slots, std::uint64_t seed, std::uint32_t round, std::uint32_t sweep_index,
    HostKernel kernel) {
  (void)kernel;  // every choice runs the work items where the vector path is not built
  const std::int64_t quads = (n_slots + 3) / 4;
  for (std::size_t c = 0; c + 1 < m.colour_offsets.size(); ++c) {
    MultispinColourSweep<typename Space::memory_space, Planes, Diluted> f{
        m.views,
        spins,
        thresholds,
        m.colour_offsets[c],
        m.colour_offsets[c + 1] - m.colour_offsets[c],
        n_slots,
        seed,
        round,
        sweep_index};
    if (f.n == 0) continue;
#if HAMON_HOST_SIMD
    if constexpr (host_style<Space>) {
      if (kernel == HostKernel::best) {
        // The vector path, in chunks of work items (each item's bits do not depend on the
        // chunking, so any thread count gives the same).
        const MultispinColourArgs args{m.views.row_offsets.data(),
                                       m.views.neighbour.data(),
                                       m.views.edge_of_entry.data(),
                                       m.views.colour_nodes.data() + f.first,
                                       m.views.negative.data(),
                                       m.diluted ? m.views.present.data() : nullptr,
                                       thresholds.data(),
                                       spins.data(),
                                       m.views.n_nodes,
                                       m.views.n_groups,
                                       f.n,
                                       n_slots,
                                       m.views.max_degree,
                                       m.counter_planes,
                                       seed,
                                       round,
                                       sweep_index};
        constexpr std::int64_t kChunk = 16;
        const std::int64_t items = quads * f.n;
        Kokkos::parallel_for("hamon::multispin_sweep",
                             Kokkos::RangePolicy<Space>(space, 0, (items + kChunk - 1) / kChunk),
                             [=](std::int64_t chunk) {
                               const std::int64_t end = (chunk + 1) * kChunk;
                               multispin_registers(args, chunk * kChunk, end < items ? end : items);
                             });
        continue;
      }
    }
#endif
    Kokkos::parallel_for("hamon::multispin_sweep",
                         Kokkos::RangePolicy<Space>(space, 0, quads * f.n), f);
  }
}

}  // namespace detail

/// The ensemble's views in `Space`'s memory.
template <class Space>
MultispinDevice<typename Space::memory_space> make_multispin_device(const MultispinEnsemble& e) {
  using M = typename Space::memory_space;
  MultispinDevice<M> d;
  MultispinViews<M>& v = d.views;
  v.n_nodes = e.n_nodes;
  v.n_groups = e.n_groups;
  v.max_degree = e.max_degree;
  v.row_offsets = detail::multispin_copy<M>("hamon::multispin_rows", e.row_offsets);
  v.neighbour = detail::multispin_copy<M>("hamon::multispin_neighbours", e.neighbour);
  v.edge_of_entry = detail::multispin_copy<M>("hamon::multispin_entry_edges", e.edge_of_entry);
  v.edge_first = detail::multispin_copy<M>("hamon::multispin_edge_first", e.edge_first);
  v.edge_second = detail::multispin_copy<M>("hamon::multispin_edge_second", e.edge_second);
  v.colour_nodes = detail::multispin_copy<M>("hamon::multispin_colour_nodes", e.colour_nodes);
  v.negative = detail::multispin_copy<M>("hamon::multispin_negative", e.negative);
  v.present = detail::multispin_copy<M>("hamon::multispin_present", e.present);
  d.counter_planes = e.counter_planes;
  d.diluted = e.diluted;
  d.colour_offsets = e.colour_offsets;
  return d;
}

/// The heat-bath thresholds of every slot: T(h) = floor(2^32 / (1 + exp(-2 beta J0 h))) for
/// h = -max_degree .. max_degree, slot s at beta betas[s] (host values, the same bits on
/// every backend).
std::vector<std::uint64_t> multispin_thresholds(const MultispinEnsemble& ensemble,
                                                const std::vector<double>& slot_betas);

/// One heat-bath sweep of every slot (n_slots = spins.extent(0) / (n_nodes * 8)). On a host
/// space `kernel` picks the vector path (best) or the portable work items every space runs
/// (portable, device); all give the same bits.
template <class Space>
void multispin_sweep(
    const Space& space, const MultispinDevice<typename Space::memory_space>& m,
    const Kokkos::View<std::uint64_t*, typename Space::memory_space>& spins,
    const Kokkos::View<const std::uint64_t*, typename Space::memory_space>& thresholds,
    std::uint64_t seed, std::uint32_t round, std::uint32_t sweep_index,
    HostKernel kernel = HostKernel::best) {
  const auto n_slots =
      static_cast<std::int64_t>(spins.extent(0)) / (m.views.n_nodes * kMultispinLanes);
  const auto run = [&](auto planes) {
    constexpr int P = decltype(planes)::value;
    if (m.diluted) {
      detail::multispin_sweep_colours<Space, P, true>(space, m, spins, thresholds, n_slots, seed,
                                                      round, sweep_index, kernel);
    } else {
      detail::multispin_sweep_colours<Space, P, false>(space, m, spins, thresholds, n_slots, seed,
                                                       round, sweep_index, kernel);
    }
  };
  with_counter_planes(m.counter_planes, run);
}

}  // namespace hamon
