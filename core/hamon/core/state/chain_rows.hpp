// SPDX-License-Identifier: Apache-2.0
#pragma once
// Which row of a ChainState's variables holds a machine (a run over ranks holds a block).

#include <Kokkos_Core.hpp>
#include <cstdint>

namespace hamon::detail {

/// The row of `machine` in a state's variables, or -1 when the state does not hold it.
KOKKOS_INLINE_FUNCTION std::int32_t local_row(std::int32_t machine, std::int32_t first,
                                              std::int32_t n_local) {
  const std::int32_t row = machine - first;
  return row >= 0 && row < n_local ? row : -1;
}

}  // namespace hamon::detail
