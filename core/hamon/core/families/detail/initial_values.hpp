// SPDX-License-Identifier: Apache-2.0
#pragma once
// Random initial values of a new state's machines, for any family (its `start`).

#include <Kokkos_Core.hpp>
#include <cstdint>

#include "hamon/core/state/chain_state.hpp"
#include "hamon/core/util/counter_rng.hpp"

namespace hamon::detail {

/// The machines' initial values: one Philox call draws the start of 4 machines (word m % 4
/// of counter (node, m / 4)), so a machine's values do not depend on which block holds it;
/// `value(i, word)` is node i's value from its word (a device functor of the family).
template <class ExecutionSpace, class Value, class ValueOfWord>
void draw_initial_values(const ExecutionSpace& space,
                         const ChainState<ExecutionSpace, Value>& state, std::uint64_t seed,
                         const ValueOfWord& value) {
  const auto variables = state.spins;
  const std::int64_t n_nodes = state.n_nodes();
  const std::int32_t first = state.first_machine;
  const std::int32_t end = first + state.n_local_machines();
  const std::int64_t n_groups = (state.n_local_machines() + 3) / 4;
  Kokkos::parallel_for(
      "hamon::initial_state",
      Kokkos::RangePolicy<ExecutionSpace, Kokkos::IndexType<std::int64_t>>(space, 0,
                                                                           n_nodes * n_groups),
      KOKKOS_LAMBDA(const std::int64_t idx) {
        const std::int64_t i = idx % n_nodes;
        const auto group = static_cast<std::int32_t>(first / 4 + idx / n_nodes);
        const Philox4 draw =
            philox4(seed, static_cast<std::uint32_t>(i), static_cast<std::uint32_t>(group),
                    static_cast<std::uint32_t>(Stream::initial_state), 0u);
        for (std::int32_t k = 0; k < 4 && 4 * group + k < end; ++k) {
          variables(4 * group + k - first, i) = value(i, draw.w[k]);
        }
      });
}

}  // namespace hamon::detail
