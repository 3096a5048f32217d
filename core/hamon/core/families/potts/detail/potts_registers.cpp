// SPDX-License-Identifier: Apache-2.0
// The host Potts sweep's and energy pass's vector path for every target the build
// dispatches among: Highway's foreach_target.h compiles this file once per target (each in
// its own namespace), and HWY_DYNAMIC_DISPATCH calls the best one this CPU runs.
#include "hamon/core/families/potts/detail/potts_registers.hpp"

#if HAMON_HOST_SIMD
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "hamon/core/families/potts/detail/potts_registers.cpp"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>

#include "hamon/core/families/potts/detail/potts_registers-inl.hpp"

HWY_BEFORE_NAMESPACE();
namespace hamon::detail::HWY_NAMESPACE {

void csr_potts_registers(const PottsRegisterArgs<CsrBlock<Kokkos::HostSpace>>& args,
                         std::int64_t item) {
  potts_register_item(args, item);
}

void lattice_potts_registers(const PottsRegisterArgs<LatticeBlock<Kokkos::HostSpace>>& args,
                             std::int64_t item) {
  potts_register_item(args, item);
}

bool potts_energy_chunk(const PottsEnergyArgs<Kokkos::HostSpace>& args, std::int64_t begin,
                        std::int64_t end) {
#if HWY_TARGET == HWY_SCALAR
  // One lane: the bit masks cost more than the portable loops' select (2.6 times their time).
  (void)args;
  (void)begin;
  (void)end;
  return false;
#else
  if (!args.model.lattice.enabled) {
    potts_energy_lanes<-1>(args, begin, end);
  } else if (args.model.lattice.dims == 2) {
    potts_energy_lanes<2>(args, begin, end);
  } else {
    potts_energy_lanes<3>(args, begin, end);
  }
  return true;
#endif
}

}  // namespace hamon::detail::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace hamon::detail {

HWY_EXPORT(csr_potts_registers);
HWY_EXPORT(lattice_potts_registers);
HWY_EXPORT(potts_energy_chunk);

void potts_registers(const PottsRegisterArgs<CsrBlock<Kokkos::HostSpace>>& args,
                     std::int64_t item) {
  HWY_DYNAMIC_DISPATCH(csr_potts_registers)(args, item);
}

void potts_registers(const PottsRegisterArgs<LatticeBlock<Kokkos::HostSpace>>& args,
                     std::int64_t item) {
  HWY_DYNAMIC_DISPATCH(lattice_potts_registers)(args, item);
}

bool potts_energy_registers(const PottsEnergyArgs<Kokkos::HostSpace>& args, std::int64_t begin,
                            std::int64_t end) {
  return HWY_DYNAMIC_DISPATCH(potts_energy_chunk)(args, begin, end);
}

}  // namespace hamon::detail
#endif  // HWY_ONCE
#endif  // HAMON_HOST_SIMD
