// SPDX-License-Identifier: Apache-2.0
#pragma once
// The heat-bath update of a q-state (Potts) node, for every machine: node i of machine m
// at inverse temperature beta takes state s with probability
//   exp(beta phi_i(s)) / sum_t exp(beta phi_i(t)),  phi_i(s) = h_i(s) + sum_j W_ij(s, x_j),
// by inverse CDF with one uniform u = (w + 1/2) 2^-32 from a 32-bit Philox word w: the
// first s whose cumulative weight exceeds u times the total. Weights are
// exp(-beta (max_t phi_i(t) - phi_i(s))) in (0, 1]: read from the chain's table when the
// differences are integers (ChainState::potts_weight), else deterministic_exp. Every sum
// runs in state order and neighbour order, so every space and thread count gives the same
// bits.
//
// The word for (round, sweep, node, machine) is word (machine % 4) of Philox4x32-10 at
// counter (node, machine / 4, sweep | kPottsSweep, round): a work item updates one node
// in 4 machines (adjacent in memory, ChainState) in the device style; the host style
// updates a node in every machine, 16 side by side in vectorised loops (same bits).

#include <Kokkos_Core.hpp>
#include <cstdint>

#include "hamon/core/model/device_model.hpp"
#include "hamon/core/model/spin_model.hpp"
#include "hamon/core/state/chain_state.hpp"
#include "hamon/core/util/counter_rng.hpp"
#include "hamon/core/util/deterministic_math.hpp"
#include "hamon/core/util/launch.hpp"

namespace hamon::detail {

/// Marks the Potts domain in the sweep word of the counter (sweeps < 2^29): a Potts run's
/// words never coincide with an Ising run's of the same seed.
inline constexpr std::uint32_t kPottsSweep = 0x20000000u;
static_assert(kPottsSweep >= kMaxSweepsPerRound, "a Potts sweep's mark must lie above every sweep");
inline constexpr std::int32_t kPottsMachinesPerDraw = 4;

/// The state a node's byte holds.
KOKKOS_FORCEINLINE_FUNCTION std::int32_t potts_state(std::int8_t byte) {
  return static_cast<std::int32_t>(static_cast<std::uint8_t>(byte));
}
KOKKOS_FORCEINLINE_FUNCTION std::int8_t potts_byte(std::int32_t state) {
  return static_cast<std::int8_t>(static_cast<std::uint8_t>(state));
}

/// Machines a host work item updates side by side (a multiple of 4: whole draws).
inline constexpr std::int32_t kPottsHostLanes = 16;

/// HostStyle: a work item is one node in every machine, kPottsHostLanes machines at a time
/// in loops the compiler vectorises (the same arithmetic per machine as the device style,
/// so the same bits); otherwise one node in kPottsMachinesPerDraw machines (any space).
template <class ExecutionSpace, bool HostStyle>
struct PottsUpdate {
  using memory_space = typename ExecutionSpace::memory_space;

  DeviceModel<memory_space> model;
  LatticeGeometry<memory_space> lattice;  // enabled: neighbours from the geometry
  typename ChainState<ExecutionSpace>::spin_view spins;
  Kokkos::View<double*, memory_space> betas;
  Kokkos::View<std::int32_t*, memory_space> chain_of_machine;        // local machines
  Kokkos::View<double**, Kokkos::LayoutRight, memory_space> weight;  // empty: exp
  std::int64_t block_begin = 0;  // CSR: the block's first entry in block_nodes
  std::int32_t colour = 0;       // lattice: the checkerboard colour
  std::int32_t n_machines = 0;   // local
  std::int64_t n_groups = 0;     // groups of kPottsMachinesPerDraw local machines
  std::uint32_t first_group = 0;
  std::uint64_t seed = 0;
  std::uint32_t sweep = 0;
  std::uint32_t round = 0;

  KOKKOS_INLINE_FUNCTION std::int64_t node(std::int64_t k) const {
    return lattice.enabled ? lattice.node_of(colour, k) : model.block_nodes(block_begin + k);
  }

  /// The lattice neighbours of node i and their couplings (the walk's divisions once per
  /// work item, not per machine); returns how many.
  KOKKOS_INLINE_FUNCTION std::int32_t lattice_neighbours(std::int64_t i, std::int64_t* j,
                                                         std::int32_t* coupling) const {
    std::int32_t n = 0;
    lattice.for_each_neighbour(i, [&](std::int64_t neighbour, std::int32_t J) {
      j[n] = neighbour;
      coupling[n++] = J;
    });
    return n;
  }

  /// phi[s] = phi_i(s) of node i in local machine m, s < q; the lattice's `n` neighbours
  /// `j` with `coupling`, else the CRS row.
  KOKKOS_INLINE_FUNCTION void local_fields(std::int64_t i, std::int32_t m, std::int32_t n,
                                           const std::int64_t* j, const std::int32_t* coupling,
                                           double* phi) const {
    const std::int32_t q = model.n_states;
    for (std::int32_t s = 0; s < q; ++s) phi[s] = model.state_fields(i * q + s);
    if (lattice.enabled) {
      for (std::int32_t k = 0; k < n; ++k) {
        phi[potts_state(spins(m, j[k]))] += static_cast<double>(coupling[k]);
      }
      return;
    }
    const bool matrices = model.csr_matrices.extent(0) > 0;
    for (std::int64_t e = model.row_offsets(i); e < model.row_offsets(i + 1); ++e) {
      const std::int32_t x = potts_state(spins(m, model.columns(e)));
      if (matrices) {
        const std::int64_t at = e * q * q + x;  // column x_j of the (x_i, x_j) matrix
        for (std::int32_t s = 0; s < q; ++s) phi[s] += model.csr_matrices(at + s * q);
      } else {
        phi[x] += model.couplings(e);
      }
    }
  }

  /// The new state from the local fields (overwritten with cumulative weights).
  KOKKOS_INLINE_FUNCTION std::int32_t draw(double* phi, std::int32_t chain,
                                           std::uint32_t word) const {
    const std::int32_t q = model.n_states;
    double top = phi[0];
    for (std::int32_t s = 1; s < q; ++s) top = phi[s] > top ? phi[s] : top;
    const double beta = betas(chain);
    const bool table = weight.extent(0) > 0;
    double total = 0.0;
    for (std::int32_t s = 0; s < q; ++s) {
      const double gap = top - phi[s];  // >= 0; an integer <= the table's bound with `table`
      total +=
          table ? weight(chain, static_cast<std::int32_t>(gap)) : deterministic_exp(-(beta * gap));
      phi[s] = total;
    }
    const double target = (static_cast<double>(word) + 0.5) * 0x1p-32 * total;
    for (std::int32_t s = 0; s < q - 1; ++s) {
      if (target < phi[s]) return s;
    }
    return q - 1;
  }

  /// The host style: node k of the block in every machine. A state is the number of
  /// s < q - 1 whose cumulative weight is <= the target, which is draw()'s first s with
  /// target < cumulative (the cumulative weights do not decrease), without a branch.
  KOKKOS_INLINE_FUNCTION void update_node_in_every_machine(std::int64_t k) const {
    const std::int64_t i = node(k);
    std::int64_t j[6];
    std::int32_t lattice_coupling[6];
    const std::int32_t n = lattice.enabled ? lattice_neighbours(i, j, lattice_coupling) : 0;
    for (std::int32_t first = 0; first < n_machines; first += kPottsHostLanes) {
      if (n_machines - first >= kPottsHostLanes) {
        update_lanes(i, first, n, j, lattice_coupling);
      } else {
        // A partial chunk (fewer than 16 machines): draw by draw, as the device style does
        // (the same bits; measured faster than loops of a run-time length).
        for (std::int64_t g = first / kPottsMachinesPerDraw; g < n_groups; ++g) {
          update_node_in_four_machines(k * n_groups + g);
        }
      }
    }
  }

  /// Node i in machines [first, first + kPottsHostLanes) (a compile-time trip count, so
  /// the loops vectorise without remainders).
  KOKKOS_INLINE_FUNCTION void update_lanes(std::int64_t i, std::int32_t first, std::int32_t n,
                                           const std::int64_t* j,
                                           const std::int32_t* lattice_coupling) const {
    const std::int32_t q = model.n_states;
    constexpr std::int32_t lanes = kPottsHostLanes;
    const bool matrices = model.csr_matrices.extent(0) > 0;
    const bool table = weight.extent(0) > 0;
    std::uint32_t word[kPottsHostLanes];
    for (std::int32_t g = 0; g * kPottsMachinesPerDraw < lanes; ++g) {
      const Philox4 w =
          philox4(seed, static_cast<std::uint32_t>(i),
                  first_group + static_cast<std::uint32_t>(first / kPottsMachinesPerDraw + g),
                  sweep | kPottsSweep, round);
      for (std::int32_t t = 0; t < kPottsMachinesPerDraw; ++t) {
        word[g * kPottsMachinesPerDraw + t] = w.w[t];
      }
    }
    double phi[kMaxStates][kPottsHostLanes];
    for (std::int32_t s = 0; s < q; ++s) {
      const double h = model.state_fields(i * q + s);
      for (std::int32_t lane = 0; lane < kPottsHostLanes; ++lane) phi[s][lane] = h;
    }
    const auto add_potts = [&](std::int64_t neighbour, double coupling) {
      const std::int8_t* x = &spins(first, neighbour);
      for (std::int32_t s = 0; s < q; ++s) {
        HAMON_SIMD
        for (std::int32_t lane = 0; lane < lanes; ++lane) {
          phi[s][lane] += potts_state(x[lane]) == s ? coupling : 0.0;
        }
      }
    };
    if (lattice.enabled) {
      for (std::int32_t k2 = 0; k2 < n; ++k2) {
        add_potts(j[k2], static_cast<double>(lattice_coupling[k2]));
      }
    } else {
      for (std::int64_t e = model.row_offsets(i); e < model.row_offsets(i + 1); ++e) {
        if (!matrices) {
          add_potts(model.columns(e), model.couplings(e));
          continue;
        }
        const std::int8_t* x = &spins(first, model.columns(e));
        for (std::int32_t lane = 0; lane < lanes; ++lane) {
          const std::int64_t at = e * q * q + potts_state(x[lane]);
          for (std::int32_t s = 0; s < q; ++s) phi[s][lane] += model.csr_matrices(at + s * q);
        }
      }
    }
    double top[kPottsHostLanes], beta[kPottsHostLanes], total[kPottsHostLanes];
    std::int32_t chain[kPottsHostLanes], state[kPottsHostLanes];
    for (std::int32_t lane = 0; lane < lanes; ++lane) {
      chain[lane] = chain_of_machine(first + lane);
      beta[lane] = betas(chain[lane]);
      top[lane] = phi[0][lane];
      total[lane] = 0.0;
      state[lane] = 0;
    }
    for (std::int32_t s = 1; s < q; ++s) {
      HAMON_SIMD
      for (std::int32_t lane = 0; lane < lanes; ++lane) {
        top[lane] = phi[s][lane] > top[lane] ? phi[s][lane] : top[lane];
      }
    }
    for (std::int32_t s = 0; s < q; ++s) {
      if (table) {
        // weight(chain, gap) as one gather: rows of the LayoutRight table.
        const double* w = weight.data();
        const auto width = static_cast<std::int32_t>(weight.extent(1));
        HAMON_SIMD
        for (std::int32_t lane = 0; lane < lanes; ++lane) {
          total[lane] +=
              w[chain[lane] * width + static_cast<std::int32_t>(top[lane] - phi[s][lane])];
          phi[s][lane] = total[lane];
        }
      } else {
        HAMON_SIMD
        for (std::int32_t lane = 0; lane < lanes; ++lane) {
          total[lane] += deterministic_exp(-(beta[lane] * (top[lane] - phi[s][lane])));
          phi[s][lane] = total[lane];
        }
      }
    }
    for (std::int32_t lane = 0; lane < lanes; ++lane) {
      total[lane] = (static_cast<double>(word[lane]) + 0.5) * 0x1p-32 * total[lane];  // target
    }
    for (std::int32_t s = 0; s < q - 1; ++s) {
      HAMON_SIMD
      for (std::int32_t lane = 0; lane < lanes; ++lane) {
        state[lane] += phi[s][lane] <= total[lane] ? 1 : 0;
      }
    }
    for (std::int32_t lane = 0; lane < lanes; ++lane)
      spins(first + lane, i) = potts_byte(state[lane]);
  }

  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t idx) const {
    if constexpr (HostStyle) {
      update_node_in_every_machine(idx);
    } else {
      update_node_in_four_machines(idx);
    }
  }

  KOKKOS_INLINE_FUNCTION void update_node_in_four_machines(std::int64_t idx) const {
    const std::int64_t k = idx / n_groups;
    const auto group = static_cast<std::int32_t>(idx % n_groups);
    const std::int64_t i = node(k);
    const Philox4 words =
        philox4(seed, static_cast<std::uint32_t>(i),
                first_group + static_cast<std::uint32_t>(group), sweep | kPottsSweep, round);
    std::int64_t j[6];
    std::int32_t coupling[6];
    const std::int32_t n = lattice.enabled ? lattice_neighbours(i, j, coupling) : 0;
    double phi[kMaxStates];
    for (std::int32_t lane = 0; lane < kPottsMachinesPerDraw; ++lane) {
      const std::int32_t m = group * kPottsMachinesPerDraw + lane;
      if (m >= n_machines) break;
      local_fields(i, m, n, j, coupling, phi);
      spins(m, i) = potts_byte(draw(phi, chain_of_machine(m), words.w[lane]));
    }
  }
};

}  // namespace hamon::detail
