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
// families/detail/counted_bonds.hpp (the lattice fast path walks implicit neighbours).

#include "hamon/core/families/family_state.hpp"
#include "hamon/core/families/model_families.hpp"
#include "hamon/core/model/device_model.hpp"
#include "hamon/core/util/fixed_point.hpp"
#include "hamon/core/util/host_kernel.hpp"

namespace hamon {

/// Fills state.energy_fixed with the energy (at beta = 1) of every machine whose spins the
/// state holds (all of them in one process; see ChainState), by the model's family's energy
/// pass (families/model_families.hpp). `kernel` chooses the implementation on host spaces (same
/// bits either way; see HostKernel). fixed_point_energy (util/fixed_point.hpp) turns an
/// entry into an energy.
template <class ExecutionSpace>
void compute_energies(const ExecutionSpace& space,
                      const DeviceModel<typename ExecutionSpace::memory_space>& model,
                      const FamilyState<ExecutionSpace>& state,
                      HostKernel kernel = HostKernel::best) {
  detail::family_of<ExecutionSpace>(model).energies(space, model, state, kernel);
}

}  // namespace hamon
