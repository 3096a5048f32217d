// SPDX-License-Identifier: Apache-2.0
// The spin energy pass's vector path for every target the build dispatches among:
// Highway's foreach_target.h compiles this file once per target (each in its own namespace),
// and HWY_DYNAMIC_DISPATCH calls the best one this CPU runs.
#include "hamon/core/families/spin/detail/energy_registers.hpp"

#if HAMON_HOST_SIMD
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "hamon/core/families/spin/detail/energy_registers.cpp"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>

#include "hamon/core/families/spin/detail/energy_registers-inl.hpp"

HWY_BEFORE_NAMESPACE();
namespace hamon::detail::HWY_NAMESPACE {

void integer_energy_target(const DeviceModel<Kokkos::HostSpace>& model, const std::int8_t* column,
                           std::int64_t column_stride, const std::int8_t* spins_end,
                           std::int64_t begin, std::int64_t end, std::int32_t* total) {
  // The lattice's dimension fixed at compile time: its walk unrolls.
  if (!model.lattice.enabled) {
    integer_energy_lanes<-1>(model, column, column_stride, spins_end, begin, end, total);
  } else if (model.lattice.dims == 2) {
    integer_energy_lanes<2>(model, column, column_stride, spins_end, begin, end, total);
  } else {
    integer_energy_lanes<3>(model, column, column_stride, spins_end, begin, end, total);
  }
}

}  // namespace hamon::detail::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace hamon::detail {

HWY_EXPORT(integer_energy_target);

void integer_energy_registers(const DeviceModel<Kokkos::HostSpace>& model,
                              const std::int8_t* column, std::int64_t column_stride,
                              const std::int8_t* spins_end, std::int64_t begin, std::int64_t end,
                              std::int32_t* total) {
  HWY_DYNAMIC_DISPATCH(integer_energy_target)
  (model, column, column_stride, spins_end, begin, end, total);
}

}  // namespace hamon::detail
#endif  // HWY_ONCE
#endif  // HAMON_HOST_SIMD
