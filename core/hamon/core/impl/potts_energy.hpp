// SPDX-License-Identifier: Apache-2.0
#pragma once
// Energies of a Potts model's machines, E(x) = -(sum_i h_i(x_i) + sum_{i<j} W_ij(x_i, x_j)),
// in the fixed point of energy.hpp: node i's term -(h_i(x_i) + sum_{j > i} W_ij(x_i, x_j))
// is rounded to an integer and the integers are summed, so every space and thread count
// gets the same bits. A work item sums one chunk of nodes in one machine (machines of a
// chunk in adjacent items), on every space.

#include <Kokkos_Core.hpp>
#include <cmath>
#include <cstdint>

#include "hamon/core/chain_state.hpp"
#include "hamon/core/device_model.hpp"
#include "hamon/core/impl/fixed_point.hpp"
#include "hamon/core/impl/potts_update.hpp"

namespace hamon::detail {

template <class ExecutionSpace>
struct PottsChunkEnergy {
  DeviceModel<typename ExecutionSpace::memory_space> model;
  typename ChainState<ExecutionSpace>::spin_view spins;
  typename ChainState<ExecutionSpace>::template view<std::int64_t> energy_fixed;
  double scale = 1.0;
  std::int32_t n_machines = 0;
  std::int64_t chunk = 1;

  KOKKOS_INLINE_FUNCTION std::int64_t term(std::int64_t i, std::int32_t m) const {
    const std::int32_t q = model.n_states;
    const std::int32_t x = potts_state(spins(m, i));
    const bool matrices = model.csr_matrices.extent(0) > 0;
    double sum = model.state_fields(i * q + x);
    for (std::int64_t e = model.row_offsets(i); e < model.row_offsets(i + 1); ++e) {
      const std::int32_t j = model.columns(e);
      if (j <= i) continue;
      const std::int32_t y = potts_state(spins(m, j));
      if (matrices) {
        sum += model.csr_matrices(e * q * q + x * q + y);
      } else if (x == y) {
        sum += model.couplings(e);
      }
    }
    return to_fixed_point(-sum, scale);
  }

  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t idx) const {
    const auto m = static_cast<std::int32_t>(idx % n_machines);
    const std::int64_t begin = (idx / n_machines) * chunk;
    const std::int64_t end = begin + chunk < model.n_nodes ? begin + chunk : model.n_nodes;
    std::int64_t sum = 0;
    for (std::int64_t i = begin; i < end; ++i) sum += term(i, m);
    Kokkos::atomic_add(&energy_fixed(m), sum);
  }
};

}  // namespace hamon::detail
