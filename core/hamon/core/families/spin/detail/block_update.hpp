// SPDX-License-Identifier: Apache-2.0
#pragma once
// The heat-bath updates of one colour block (families/detail/sweep_blocks.hpp) as a Kokkos functor,
// in the host style (a work item: a run of block nodes in every machine, 32 machines at a time) or
// the device style (a work item: one node in one group of 16 machines). The host style runs the
// vector path (families/spin/detail/spin_registers.hpp) or the portable loops; every path
// decides as families/spin/spin_decision.hpp does, from the same bytes and tie bits.

#include <Kokkos_Core.hpp>
#include <cstdint>
#include <type_traits>

#include "hamon/core/families/detail/sweep_args.hpp"
#include "hamon/core/families/detail/sweep_blocks.hpp"
#include "hamon/core/families/spin/detail/spin_registers.hpp"
#include "hamon/core/families/spin/field_boundaries.hpp"
#include "hamon/core/families/spin/heat_bath.hpp"
#include "hamon/core/families/spin/spin_decision.hpp"
#include "hamon/core/util/counter_rng.hpp"
#include "hamon/core/util/launch.hpp"

namespace hamon::detail {

/// Heat-bath updates of one colour block (`Block`: CsrBlock or LatticeBlock), in the host
/// style (runs of nodes in every machine) or the device style (a node in 16 machines).
template <class ExecutionSpace, class Block, bool HostStyle = host_style<ExecutionSpace>>
struct BlockUpdate : SweepArgs<typename ExecutionSpace::memory_space, Block> {
  using Args = SweepArgs<typename ExecutionSpace::memory_space, Block>;
  using Args::betas;
  using Args::block;
  using Args::bound;
  using Args::chain_of_machine;
  using Args::field_boundary;
  using Args::group_counter;
  using Args::n_block;
  using Args::n_groups;
  using Args::n_machines;
  using Args::nodes_per_item;
  using Args::round;
  using Args::seed;
  using Args::simd;
  using Args::spins;
  using Args::sweep;
  using Args::tie;
  using Args::up_floor;
  using Args::up_limit;

  explicit BlockUpdate(const Args& args) : Args{args} {}

  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t idx) const {
    if constexpr (HostStyle) {
      const std::int64_t begin = idx * nodes_per_item;
      const std::int32_t nodes = n_block - begin < nodes_per_item
                                     ? static_cast<std::int32_t>(n_block - begin)
                                     : nodes_per_item;
      for (std::int32_t first = 0; first < n_machines; first += kHostLanes) {
        if (simd) {
          update_registers(begin, nodes, first);
        } else {
          update_lanes(begin, nodes, first);
        }
      }
    } else {
      update_group(block.node(idx / n_groups), static_cast<std::int32_t>(idx % n_groups));
    }
  }

  /// Which test decides a byte, from the state's tables (families/spin/spin_decision.hpp).
  KOKKOS_INLINE_FUNCTION DecisionRule decision_rule() const {
    if (bound >= 0) return DecisionRule::threshold;
    return field_boundary.extent(0) > 0 ? DecisionRule::boundary : DecisionRule::exp;
  }

  KOKKOS_INLINE_FUNCTION DecisionTables decision_tables() const {
    return DecisionTables{up_limit.data(), field_boundary.data()};
  }

  /// What the decision of a machine at `chain` reads of it: beta, the offset of its
  /// up_limit row at phi = 0 or of its field_boundary row, the lowest phi that can decide +1.
  KOKKOS_INLINE_FUNCTION ChainRow chain_row(std::int32_t chain) const {
    if (bound >= 0) {
      return ChainRow{0.0, &up_limit(chain, bound) - up_limit.data(), up_floor(chain) - bound};
    }
    return ChainRow{betas(chain), static_cast<std::int64_t>(chain) * kFieldBoundaries, 0};
  }

  /// Device path: one node in the machines of one group of 16, 4 per 32-bit word.
  KOKKOS_INLINE_FUNCTION void update_group(std::int64_t node, std::int32_t group) const {
    const Philox4 draw =
        philox4(seed, static_cast<std::uint32_t>(node), group_counter(group), sweep, round);
    const std::int32_t first = group * kMachinesPerDraw;
    const std::int32_t lanes =
        n_machines - first < kMachinesPerDraw ? n_machines - first : kMachinesPerDraw;
    double phi[kMachinesPerDraw];
    block.local_fields(node, spins, first, lanes, phi);
    const DecisionRule rule = decision_rule();
    const DecisionTables tables = decision_tables();
    for (std::int32_t lane = 0; lane < lanes; ++lane) {
      const std::int32_t m = first + lane;
      spins(m, node) = decide_spin(rule, tables, chain_row(chain_of_machine(m)),
                                   draw_byte(draw, lane), phi[lane], [&] { return tie(node, m); });
    }
  }

  /// Portable host path: block nodes [begin, begin + nodes) in machines [first, first + 32),
  /// as loops over machines.
  KOKKOS_INLINE_FUNCTION void update_lanes(std::int64_t begin, std::int32_t nodes,
                                           std::int32_t first) const {
    const std::int32_t lanes = n_machines - first < kHostLanes ? n_machines - first : kHostLanes;
    std::int64_t node_index[kHostNodes];
    for (std::int32_t n = 0; n < kHostNodes; ++n)
      node_index[n] = block.node(begin + (n < nodes ? n : 0));
    constexpr std::int32_t kDraws = kHostNodes * kHostDraws;
    constexpr std::int32_t kWordsPerNode = kHostLanes / 4;  // of `words`, 4 bytes each
    std::uint32_t node_counter[kDraws], group_words[kDraws];
    for (std::int32_t g = 0; g < kDraws; ++g) {
      node_counter[g] = static_cast<std::uint32_t>(node_index[g / kHostDraws]);
      group_words[g] = group_counter(first / kMachinesPerDraw + g % kHostDraws);
    }
    std::uint32_t words[4 * kDraws];
    philox4_lanes<kDraws>(seed, node_counter, group_words, sweep, round, words);

    double beta[kHostLanes];
    std::int64_t row[kHostLanes];     // offset of the machine's up_limit row at phi = 0, or
                                      // of its field_boundary row
    std::int32_t lowest[kHostLanes];  // the lowest phi that can decide +1
    for (std::int32_t lane = 0; lane < lanes; ++lane) {
      const ChainRow c = chain_row(chain_of_machine(first + lane));
      beta[lane] = c.beta;
      row[lane] = c.row;
      lowest[lane] = c.lowest;
    }
    for (std::int32_t n = 0; n < nodes; ++n) {
      const std::int64_t node = node_index[n];
      double phi[kHostLanes];
      block.local_fields(node, spins, first, lanes, phi);
      // Lane l's byte: byte l % 16 of generator 2 n + l / 16 = byte l % 4 of word l / 4.
      const std::uint32_t* word = &words[n * kWordsPerNode];
      std::uint32_t byte[kHostLanes];
      HAMON_SIMD
      for (std::int32_t lane = 0; lane < kHostLanes; ++lane) {
        byte[lane] = (word[lane / 4] >> (8 * (lane % 4))) & 0xFFu;
      }
      std::int8_t* out = &spins(first, node);
      std::int8_t decided[kHostLanes];
      const ChainLanes chains{beta, row, lowest};
      switch (decision_rule()) {
        case DecisionRule::threshold:
          decide_lanes<DecisionRule::threshold>(node, first, lanes, chains, byte, phi, decided);
          break;
        case DecisionRule::boundary:
          decide_lanes<DecisionRule::boundary>(node, first, lanes, chains, byte, phi, decided);
          break;
        case DecisionRule::exp:
          decide_lanes<DecisionRule::exp>(node, first, lanes, chains, byte, phi, decided);
          break;
      }
      for (std::int32_t lane = 0; lane < lanes; ++lane) out[lane] = decided[lane];
    }
  }

  /// The chain rows of a chunk's lanes (chain_row), one array per field.
  struct ChainLanes {
    const double* beta;
    const std::int64_t* row;
    const std::int32_t* lowest;
  };

  /// The portable path's decisions of one node in `lanes` machines from `first`: every
  /// lane's byte in a vectorised loop, then the ties' low bits (decide_spin in two passes).
  template <DecisionRule Rule>
  KOKKOS_FORCEINLINE_FUNCTION void decide_lanes(std::int64_t node, std::int32_t first,
                                                std::int32_t lanes, const ChainLanes& chains,
                                                const std::uint32_t* byte, const double* phi,
                                                std::int8_t* decided) const {
    const DecisionTables tables = decision_tables();
    bool any_tie = false;
    HAMON_SIMD
    for (std::int32_t lane = 0; lane < lanes; ++lane) {
      const ChainRow chain{chains.beta[lane], chains.row[lane], chains.lowest[lane]};
      decided[lane] = decide_byte<Rule>(tables, chain, byte[lane], phi[lane]);
      any_tie |= decided[lane] == 0;
    }
    for (std::int32_t lane = 0; any_tie && lane < lanes; ++lane) {
      if (decided[lane] != 0) continue;
      const ChainRow chain{chains.beta[lane], chains.row[lane], chains.lowest[lane]};
      decided[lane] =
          decide_tie<Rule>(tables, chain, byte[lane], phi[lane], tie(node, first + lane));
    }
  }

  /// Vector host path: block nodes [begin, begin + nodes) in machines [first, first + 32),
  /// compiled for every instruction set and dispatched at run time. Only host spaces set
  /// `simd`; their memory is HostSpace.
  KOKKOS_INLINE_FUNCTION void update_registers(std::int64_t begin, std::int32_t nodes,
                                               std::int32_t first) const {
#if HAMON_HOST_SIMD && !defined(__CUDA_ARCH__)
    if constexpr (std::is_same_v<typename Args::memory_space, Kokkos::HostSpace>) {
      spin_registers(*this, begin, nodes, first);
      return;
    }
#endif
    update_lanes(begin, nodes, first);
  }
};

}  // namespace hamon::detail
