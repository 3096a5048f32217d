// SPDX-License-Identifier: Apache-2.0
#pragma once
// The vector path of the host Potts heat bath (families/potts/potts_update.hpp) with weight
// tables (integer local fields), and of the Potts energy pass (families/potts/detail/
// potts_energy.hpp), compiled once per instruction set and chosen at run time by Highway's
// dynamic dispatch (potts_registers.cpp, the kernels in potts_registers-inl.hpp): the same
// bits as the portable loops. Declared only where the vector layer is built
// (families/detail/host_vectors.hpp); the arguments are filled by name.

#include <Kokkos_Core.hpp>
#include <cstdint>

#include "hamon/core/families/detail/host_vectors.hpp"
#include "hamon/core/families/detail/sweep_blocks.hpp"
#include "hamon/core/model/device_model.hpp"

namespace hamon::detail {

/// The most states the vector path holds (more: the portable loops).
inline constexpr std::int32_t kPottsRegisterStates = 16;

/// What the sweep of one colour block reads. A work item is block nodes
/// [item nodes_per_item, + nodes_per_item) in every machine.
template <class Block>
struct PottsRegisterArgs {
  Block block;  // CsrBlock or LatticeBlock (families/detail/sweep_blocks.hpp)
  Kokkos::View<std::int8_t**, Kokkos::LayoutLeft, Kokkos::HostSpace> spins;
  Kokkos::View<double*, Kokkos::HostSpace> state_fields;
  Kokkos::View<std::int32_t*, Kokkos::HostSpace> chain_of_machine;  // local machines
  Kokkos::View<double**, Kokkos::LayoutRight, Kokkos::HostSpace> weight;
  std::int32_t q = 0;
  std::int32_t n_machines = 0;  // local
  std::int64_t n_block = 0;
  std::int32_t nodes_per_item = 1;
  std::uint32_t first_group = 0;
  std::uint64_t seed = 0;
  std::uint32_t sweep = 0;
  std::uint32_t round = 0;
};

/// What an energy pass over node chunks reads (PottsChunkEnergy derives from it).
template <class MemorySpace>
struct PottsEnergyArgs {
  DeviceModel<MemorySpace> model;
  Kokkos::View<std::int8_t**, Kokkos::LayoutLeft, MemorySpace> spins;
  Kokkos::View<std::int64_t*, MemorySpace> energy_fixed;
  double scale = 1.0;
  std::int32_t n_machines = 0;
  std::int64_t chunk = 1;
  bool registers = false;  // host style: the vector path (Potts-form bonds, q <= 16)
};

#if HAMON_HOST_SIMD
/// Work item `item` of a colour block's sweep.
void potts_registers(const PottsRegisterArgs<CsrBlock<Kokkos::HostSpace>>& args, std::int64_t item);
void potts_registers(const PottsRegisterArgs<LatticeBlock<Kokkos::HostSpace>>& args,
                     std::int64_t item);

/// Adds the fixed-point energy terms of nodes [begin, end) of every machine to
/// args.energy_fixed; false (and nothing added) where the target's vector path is slower than
/// the portable loops (the one-lane scalar target).
bool potts_energy_registers(const PottsEnergyArgs<Kokkos::HostSpace>& args, std::int64_t begin,
                            std::int64_t end);
#endif

}  // namespace hamon::detail
