#pragma once
// Block-Gibbs (heat-bath) sweep over every machine at once.
//
// A sweep updates the colour classes in turn; within a class no two nodes are
// neighbours, so all of its nodes (times all machines) update in parallel. Node i of
// machine m at inverse temperature beta draws s_i = +1 with probability
// 1 / (1 + exp(-2 beta phi_i)), phi_i = h_i + sum_j J_ij s_j.
//
// The uniform for (round, sweep, node, machine) is word (machine % 4) of Philox4x32-10 at
// counter (node, machine / 4, sweep, round): one generator call serves four machines, and
// the number never depends on which thread draws it.
//
// Spins are (machine, node) with machines adjacent for a node (ChainState). A GPU thread
// updates one node in one group of 4 machines (a warp reads coalesced bytes); a host work
// item updates one node in every machine, 32 at a time in plain loops over machines that
// the compiler vectorises (generators, fields, exp and the decision). Both evaluate the
// same expressions in the same order, so they give the same bits.

#include <Kokkos_Core.hpp>
#include <cstdint>
#include <type_traits>

#include "hamon/core/chain_state.hpp"
#include "hamon/core/device_model.hpp"
#include "hamon/core/impl/counter_rng.hpp"
#include "hamon/core/impl/exp.hpp"

namespace hamon {

namespace detail {

inline constexpr std::int32_t kMachinesPerDraw = 4;
inline constexpr std::int32_t kHostDraws = 8;  // generators per node and host chunk
inline constexpr std::int32_t kHostLanes = kHostDraws * kMachinesPerDraw;  // machines
inline constexpr std::int32_t kHostNodes = 2;  // nodes per host work item (generators in flight)

/// Host execution spaces (LayoutRight by default) take the per-node, vectorised path.
template <class ExecutionSpace>
inline constexpr bool host_style =
    std::is_same<typename ExecutionSpace::array_layout, Kokkos::LayoutRight>::value;

/// The heat-bath factor 1 + exp(-2 beta phi): the new spin is +1 with probability
/// 1 / factor, decided as u * factor < 1 (no division on the critical path). Tables of it
/// hold exactly these bits, so the table and exp paths decide identically.
KOKKOS_FORCEINLINE_FUNCTION double heat_bath_factor(double beta, double local_field) {
  return 1.0 + deterministic_exp(-2.0 * beta * local_field);
}

KOKKOS_FORCEINLINE_FUNCTION std::int8_t heat_bath_decision(double factor, double u) {
  return u * factor < 1.0 ? std::int8_t(1) : std::int8_t(-1);
}

/// A colour block of the general CSR graph: nodes listed in DeviceModel::block_nodes,
/// neighbours and couplings read from the CRS arrays.
template <class MemorySpace>
struct CsrBlock {
  static constexpr const char* label = "hamon::gibbs_sweep";
  DeviceModel<MemorySpace> model;
  std::int64_t block_begin;

  KOKKOS_INLINE_FUNCTION std::int64_t node(std::int64_t k) const {
    return model.block_nodes(block_begin + k);
  }

  /// phi_i = h_i + sum_j J_ij s_j for machines [first, first + lanes), summed in CRS order.
  template <class Spins>
  KOKKOS_INLINE_FUNCTION void local_fields(std::int64_t i, const Spins& spins, std::int32_t first,
                                           std::int32_t lanes, double* phi) const {
    const double h = model.fields(i);
    for (std::int32_t lane = 0; lane < lanes; ++lane) phi[lane] = h;
    for (std::int64_t e = model.row_offsets(i); e < model.row_offsets(i + 1); ++e) {
      const double coupling = model.couplings(e);
      const std::int8_t* neighbour = &spins(first, model.columns(e));
      HAMON_SIMD
      for (std::int32_t lane = 0; lane < lanes; ++lane) phi[lane] += coupling * neighbour[lane];
    }
  }
};

/// A checkerboard colour of the lattice fast path: implicit neighbours, integer fields.
template <class MemorySpace>
struct LatticeBlock {
  static constexpr const char* label = "hamon::lattice_sweep";
  LatticeGeometry<MemorySpace> lattice;
  std::int32_t colour;

  KOKKOS_INLINE_FUNCTION std::int64_t node(std::int64_t k) const {
    return lattice.node_of(colour, k);
  }

  template <class Spins>
  KOKKOS_INLINE_FUNCTION void local_fields(std::int64_t i, const Spins& spins, std::int32_t first,
                                           std::int32_t lanes, double* phi) const {
    std::int32_t integer_phi[kHostLanes];
    lattice.local_fields(i, spins, first, lanes, integer_phi);
    for (std::int32_t lane = 0; lane < lanes; ++lane) phi[lane] = integer_phi[lane];
  }
};

/// Heat-bath updates of one colour block (`Block`: CsrBlock or LatticeBlock).
template <class ExecutionSpace, class Block>
struct BlockUpdate {
  using state_type = ChainState<ExecutionSpace>;

  Block block;
  typename state_type::spin_view spins;
  typename state_type::template view<double> beta_of_machine;
  Kokkos::View<double**, Kokkos::LayoutRight, typename ExecutionSpace::memory_space> table;
  std::int32_t bound;  // integer_field_bound, -1 without a table
  std::int64_t n_block;
  std::int64_t n_groups;
  std::int32_t n_machines;
  std::uint64_t seed;
  std::uint32_t sweep;
  std::uint32_t round;

  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t idx) const {
    if (host_style<ExecutionSpace>) {
      const std::int64_t begin = idx * kHostNodes;
      const std::int32_t nodes =
          n_block - begin < kHostNodes ? static_cast<std::int32_t>(n_block - begin) : kHostNodes;
      for (std::int32_t first = 0; first < n_machines; first += kHostLanes) {
        update_lanes(begin, nodes, first);
      }
    } else {
      update_group(block.node(idx / n_groups), static_cast<std::int32_t>(idx % n_groups));
    }
  }

  KOKKOS_FORCEINLINE_FUNCTION double factor(std::int32_t m, double beta, double phi) const {
    return bound >= 0 ? table(m, static_cast<std::int32_t>(phi) + bound)
                      : heat_bath_factor(beta, phi);
  }

  /// Device path: one node in the machines of one group of 4.
  KOKKOS_INLINE_FUNCTION void update_group(std::int64_t node, std::int32_t group) const {
    const Philox4 draw = philox4(seed, static_cast<std::uint32_t>(node),
                                 static_cast<std::uint32_t>(group), sweep, round);
    const std::int32_t first = group * kMachinesPerDraw;
    const std::int32_t lanes =
        n_machines - first < kMachinesPerDraw ? n_machines - first : kMachinesPerDraw;
    double phi[kMachinesPerDraw];
    block.local_fields(node, spins, first, lanes, phi);
    for (std::int32_t lane = 0; lane < lanes; ++lane) {
      const std::int32_t m = first + lane;
      spins(m, node) = heat_bath_decision(factor(m, beta_of_machine(m), phi[lane]),
                                          to_unit_interval(draw.w[lane]));
    }
  }

  /// Host path: block nodes [begin, begin + nodes) in machines [first, first + 32), as
  /// loops over machines.
  KOKKOS_INLINE_FUNCTION void update_lanes(std::int64_t begin, std::int32_t nodes,
                                           std::int32_t first) const {
    const std::int32_t lanes = n_machines - first < kHostLanes ? n_machines - first : kHostLanes;
    std::int64_t node_index[kHostNodes];
    for (std::int32_t n = 0; n < kHostNodes; ++n) node_index[n] = block.node(begin + (n < nodes ? n : 0));
    constexpr std::int32_t kDraws = kHostNodes * kHostDraws;
    std::uint32_t node_counter[kDraws], group_counter[kDraws];
    for (std::int32_t g = 0; g < kDraws; ++g) {
      node_counter[g] = static_cast<std::uint32_t>(node_index[g / kHostDraws]);
      group_counter[g] = static_cast<std::uint32_t>(first / kMachinesPerDraw + g % kHostDraws);
    }
    std::uint32_t words[4 * kDraws];
    philox4_lanes<kDraws>(seed, node_counter, group_counter, sweep, round, words);

    const double* beta = &beta_of_machine(first);
    for (std::int32_t n = 0; n < nodes; ++n) {
      const std::int64_t node = node_index[n];
      double phi[kHostLanes];
      block.local_fields(node, spins, first, lanes, phi);
      const std::uint32_t* word = &words[n * kHostLanes];
      std::int8_t* out = &spins(first, node);
      if (bound >= 0) {
        const double* factors = &table(first, bound);  // row stride 2 * bound + 1
        const std::int32_t stride = 2 * bound + 1;
        HAMON_SIMD
        for (std::int32_t lane = 0; lane < lanes; ++lane) {
          const double f = factors[lane * stride + static_cast<std::int32_t>(phi[lane])];
          out[lane] = heat_bath_decision(f, to_unit_interval(word[lane]));
        }
      } else {
        HAMON_SIMD
        for (std::int32_t lane = 0; lane < lanes; ++lane) {
          out[lane] = heat_bath_decision(heat_bath_factor(beta[lane], phi[lane]),
                                         to_unit_interval(word[lane]));
        }
      }
    }
  }
};

template <class ExecutionSpace, class Block>
void update_block(const ExecutionSpace& space, const ChainState<ExecutionSpace>& state,
                  std::int32_t bound, const Block& block, std::int64_t n_block,
                  std::uint64_t seed, std::uint32_t round, std::uint32_t sweep) {
  const std::int32_t n_machines = state.n_machines();
  const std::int64_t n_groups = (n_machines + kMachinesPerDraw - 1) / kMachinesPerDraw;
  const BlockUpdate<ExecutionSpace, Block> update{
      block,    state.spins, state.beta_of_machine, state.acceptance_table, bound, n_block,
      n_groups, n_machines,  seed,                  sweep,                  round};
  const std::int64_t items = host_style<ExecutionSpace>
                                 ? (n_block + kHostNodes - 1) / kHostNodes
                                 : n_block * n_groups;
  Kokkos::parallel_for(
      Block::label,
      Kokkos::RangePolicy<ExecutionSpace, Kokkos::IndexType<std::int64_t>>(space, 0, items),
      update);
}

}  // namespace detail

/// Refreshes state.beta_of_machine from the ladder and the permutation, and the
/// acceptance table when the model has one.
template <class ExecutionSpace>
void refresh_machine_parameters(const ExecutionSpace& space,
                                const DeviceModel<typename ExecutionSpace::memory_space>& model,
                                const ChainState<ExecutionSpace>& state) {
  const auto beta_of_machine = state.beta_of_machine;
  const auto betas = state.betas;
  const auto chain_of_machine = state.chain_of_machine;
  const auto table = state.acceptance_table;
  const std::int32_t bound = model.integer_field_bound;
  const std::int32_t width = bound >= 0 ? 2 * bound + 1 : 0;
  Kokkos::parallel_for(
      "hamon::machine_parameters", Kokkos::RangePolicy<ExecutionSpace>(space, 0, state.n_machines()),
      KOKKOS_LAMBDA(const std::int32_t m) {
        const double beta = betas(chain_of_machine(m));
        beta_of_machine(m) = beta;
        for (std::int32_t k = 0; k < width; ++k) {
          table(m, k) = detail::heat_bath_factor(beta, static_cast<double>(k - bound));
        }
      });
}

/// One block-Gibbs sweep of every machine: each colour class in turn. Periodic lattices
/// with integer local fields take the lattice fast path (DeviceModel::lattice), which
/// gives the same bits as the general path.
template <class ExecutionSpace>
void gibbs_sweep(const ExecutionSpace& space,
                 const DeviceModel<typename ExecutionSpace::memory_space>& model,
                 const ChainState<ExecutionSpace>& state, std::uint64_t seed, std::uint32_t round,
                 std::uint32_t sweep) {
  using memory_space = typename ExecutionSpace::memory_space;
  refresh_machine_parameters(space, model, state);
  const std::int32_t bound = model.integer_field_bound;
  if (model.lattice.enabled) {
    for (std::int32_t colour = 0; colour < 2; ++colour) {
      detail::update_block(space, state, bound,
                           detail::LatticeBlock<memory_space>{model.lattice, colour},
                           model.lattice.n_nodes / 2, seed, round, sweep);
    }
    return;
  }
  const std::size_t n_colours = model.block_offsets.empty() ? 0 : model.block_offsets.size() - 1;
  for (std::size_t c = 0; c < n_colours; ++c) {
    const std::int64_t begin = model.block_offsets[c];
    const std::int64_t n_block = model.block_offsets[c + 1] - begin;
    if (n_block == 0) continue;
    detail::update_block(space, state, bound, detail::CsrBlock<memory_space>{model, begin},
                         n_block, seed, round, sweep);
  }
}

}  // namespace hamon
