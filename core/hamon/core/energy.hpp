// SPDX-License-Identifier: Apache-2.0
#pragma once
// Energies of every machine, E(s) = -(sum_i h_i s_i + sum_{i<j} J_ij s_i s_j).
//
// Swap decisions depend on energy differences, so the energy must not depend on the
// reduction order of a backend. Each node's term is rounded to a fixed-point integer
// (DeviceModel::energy_fraction_bits fractional bits, chosen so no sum can overflow) and
// the integers are summed: integer addition is associative, so every space and thread
// count gets the same bits (partial sums of node chunks meet in integer atomics). The
// rounding error is below 2^-(bits+1) per node. Which node a bond is counted at:
// impl/counted_bonds.hpp (the lattice fast path walks implicit neighbours).

#include <Kokkos_Core.hpp>
#include <cmath>
#include <cstdint>

#include "hamon/core/chain_state.hpp"
#include "hamon/core/device_model.hpp"
#include "hamon/core/host_kernel.hpp"
#include "hamon/core/impl/energy_pass.hpp"
#include "hamon/core/impl/launch.hpp"
#include "hamon/core/impl/potts_energy.hpp"
#include "hamon/core/impl/sweep_launch.hpp"

namespace hamon {

/// Fixed-point energy -> energy.
KOKKOS_INLINE_FUNCTION double fixed_point_energy(std::int64_t fixed, int fraction_bits) {
  return static_cast<double>(fixed) * std::ldexp(1.0, -fraction_bits);
}

/// Fills state.energy_fixed with the energy (at beta = 1) of every machine whose spins the
/// state holds (all of them in one process; see ChainState). `kernel` chooses
/// the implementation on host spaces (same bits either way; see HostKernel).
template <class ExecutionSpace>
void compute_energies(const ExecutionSpace& space,
                      const DeviceModel<typename ExecutionSpace::memory_space>& model,
                      const ChainState<ExecutionSpace>& state,
                      HostKernel kernel = HostKernel::best) {
  const auto energy_fixed = state.local_energy_fixed();
  detail::small_for(
      space, "hamon::clear_energies", state.n_local_machines(),
      KOKKOS_LAMBDA(const std::int64_t m) { energy_fixed(m) = 0; });
  if (model.n_states > 0) {
    detail::launch_potts_energies(space, model, state, kernel);
    return;
  }
  if constexpr (detail::host_style<ExecutionSpace>) {
    if (kernel == HostKernel::device) {
      detail::launch_energies<false>(space, model, state, false);
      return;
    }
  }
  detail::launch_energies<detail::host_style<ExecutionSpace>>(
      space, model, state, detail::use_host_registers<ExecutionSpace>(kernel));
}

}  // namespace hamon
