#pragma once
// Energies of every machine, E(s) = -(sum_i h_i s_i + sum_{i<j} J_ij s_i s_j).
//
// Swap decisions depend on energy differences, so the energy must not depend on the
// reduction order of a backend. Each node's term is rounded to a fixed-point integer
// (DeviceModel::energy_fraction_bits fractional bits, chosen so no sum can overflow) and
// the integers are summed: integer addition is associative, so every space and thread
// count gets the same bits. The rounding error is below 2^-(bits+1) per node.

#include <Kokkos_Core.hpp>
#include <cmath>
#include <cstdint>

#include "hamon/core/chain_state.hpp"
#include "hamon/core/device_model.hpp"

namespace hamon {

namespace detail {

KOKKOS_INLINE_FUNCTION std::int64_t to_fixed_point(double value, double scale) {
  return static_cast<std::int64_t>(std::floor(value * scale + 0.5));
}

template <class ExecutionSpace>
struct MachineEnergy {
  using model_type = DeviceModel<typename ExecutionSpace::memory_space>;
  using member_type = typename Kokkos::TeamPolicy<ExecutionSpace>::member_type;

  model_type model;
  typename ChainState<ExecutionSpace>::spin_view spins;
  typename ChainState<ExecutionSpace>::template view<std::int64_t> energy_fixed;
  double scale;

  KOKKOS_INLINE_FUNCTION void operator()(const member_type& team) const {
    const std::int32_t m = team.league_rank();
    std::int64_t total = 0;
    Kokkos::parallel_reduce(
        Kokkos::TeamThreadRange(team, model.n_nodes),
        [&](const std::int64_t i, std::int64_t& sum) {
          const double s_i = spins(m, i);
          double field = model.fields(i);
          for (std::int64_t e = model.row_offsets(i); e < model.row_offsets(i + 1); ++e) {
            const std::int32_t j = model.columns(e);
            if (j > i) field += model.couplings(e) * spins(m, j);
          }
          sum += to_fixed_point(-s_i * field, scale);
        },
        total);
    Kokkos::single(Kokkos::PerTeam(team), [&]() { energy_fixed(m) = total; });
  }
};

}  // namespace detail

/// Fixed-point energy -> energy.
KOKKOS_INLINE_FUNCTION double fixed_point_energy(std::int64_t fixed, int fraction_bits) {
  return static_cast<double>(fixed) * std::ldexp(1.0, -fraction_bits);
}

/// Fills state.energy_fixed with every machine's energy (at beta = 1).
template <class ExecutionSpace>
void compute_energies(const ExecutionSpace& space,
                      const DeviceModel<typename ExecutionSpace::memory_space>& model,
                      const ChainState<ExecutionSpace>& state) {
  detail::MachineEnergy<ExecutionSpace> kernel{model, state.spins, state.energy_fixed,
                                               std::ldexp(1.0, model.energy_fraction_bits)};
  Kokkos::parallel_for("hamon::energies",
                       Kokkos::TeamPolicy<ExecutionSpace>(space, state.n_machines(), Kokkos::AUTO),
                       kernel);
}

}  // namespace hamon
