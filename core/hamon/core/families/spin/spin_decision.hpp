// SPDX-License-Identifier: Apache-2.0
#pragma once
// The heat-bath decision of one update of the sweep, shared by the device and the portable
// paths (the vector path evaluates the same tests in vector registers,
// families/spin/detail/spin_registers-inl.hpp).
//
// An update decides from the top byte of its 32-bit word (families/spin/heat_bath.hpp): +1, -1, or
// a tie (probability 1/256), which the word's 24 low bits settle. How the byte decides
// depends on the state's tables (DecisionRule): integer local fields compare it with the
// chain's tabulated threshold, real ones compare phi with the chain's field boundaries
// (families/spin/field_boundaries.hpp), and without either table the test u * (1 + exp(-2 beta
// phi)) < 1 is evaluated. decide_spin is the whole decision; its halves decide_byte and decide_tie
// let the portable path decide every lane's byte in a vectorised loop before it draws the
// low bits of the few ties.

#include <Kokkos_Core.hpp>
#include <cstdint>

#include "hamon/core/families/spin/field_boundaries.hpp"
#include "hamon/core/families/spin/heat_bath.hpp"

namespace hamon::detail {

/// Which test decides a byte: integer thresholds (ChainState::up_limit / up_floor), real
/// field boundaries (ChainState::field_boundary), or exp per update.
enum class DecisionRule { threshold, boundary, exp };

/// The tables of a sweep's decisions, as flat arrays (LayoutRight rows, one per chain).
struct DecisionTables {
  const std::uint32_t* up_limit;  // DecisionRule::threshold
  const double* field_boundary;   // DecisionRule::boundary
};

/// What the decision of one machine's update reads of the chain it runs at.
struct ChainRow {
  double beta;          // boundary, exp
  std::int64_t row;     // threshold: the index of up_limit(chain, phi = 0); boundary: of
                        // field_boundary(chain, 0)
  std::int32_t lowest;  // threshold: the lowest phi that can decide +1
};

/// The decision from the byte alone: +1, -1, or 0 for a tie (decide_tie settles it).
template <DecisionRule Rule>
KOKKOS_FORCEINLINE_FUNCTION std::int8_t decide_byte(const DecisionTables& tables,
                                                    const ChainRow& chain, std::uint32_t byte,
                                                    double phi) {
  if constexpr (Rule == DecisionRule::threshold) {
    const auto field = static_cast<std::int32_t>(phi);
    return byte_threshold_decision(byte, tables.up_limit[chain.row + field], field >= chain.lowest);
  } else if constexpr (Rule == DecisionRule::boundary) {
    return byte_boundary_decision(byte, phi, tables.field_boundary + chain.row);
  } else {
    return byte_heat_bath_decision(byte, heat_bath_factor(chain.beta, phi));
  }
}

/// The decision of a tie of decide_byte, from the 24 low bits of its word.
template <DecisionRule Rule>
KOKKOS_FORCEINLINE_FUNCTION std::int8_t decide_tie(const DecisionTables& tables,
                                                   const ChainRow& chain, std::uint32_t byte,
                                                   double phi, std::uint32_t low_bits) {
  if constexpr (Rule == DecisionRule::threshold) {
    return tie_threshold_decision(low_bits,
                                  tables.up_limit[chain.row + static_cast<std::int32_t>(phi)]);
  } else {
    return tie_heat_bath_decision(byte, low_bits, heat_bath_factor(chain.beta, phi));
  }
}

/// The new spin of one update: decide_byte, and on a tie decide_tie with the low bits that
/// low_bits() draws (called only then).
template <DecisionRule Rule, class LowBits>
KOKKOS_FORCEINLINE_FUNCTION std::int8_t decide_spin(const DecisionTables& tables,
                                                    const ChainRow& chain, std::uint32_t byte,
                                                    double phi, const LowBits& low_bits) {
  const std::int8_t s = decide_byte<Rule>(tables, chain, byte, phi);
  return s != 0 ? s : decide_tie<Rule>(tables, chain, byte, phi, low_bits());
}

/// decide_spin by a rule known at run time.
template <class LowBits>
KOKKOS_FORCEINLINE_FUNCTION std::int8_t decide_spin(DecisionRule rule, const DecisionTables& tables,
                                                    const ChainRow& chain, std::uint32_t byte,
                                                    double phi, const LowBits& low_bits) {
  if (rule == DecisionRule::threshold) {
    return decide_spin<DecisionRule::threshold>(tables, chain, byte, phi, low_bits);
  }
  if (rule == DecisionRule::boundary) {
    return decide_spin<DecisionRule::boundary>(tables, chain, byte, phi, low_bits);
  }
  return decide_spin<DecisionRule::exp>(tables, chain, byte, phi, low_bits);
}

}  // namespace hamon::detail
