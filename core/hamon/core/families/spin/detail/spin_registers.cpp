// SPDX-License-Identifier: Apache-2.0
// The host spin sweep's vector path for every target the build dispatches among: Highway's
// foreach_target.h compiles this file once per target (each in its own namespace), and
// HWY_DYNAMIC_DISPATCH calls the best one this CPU runs.
#include "hamon/core/families/spin/detail/spin_registers.hpp"

#if HAMON_HOST_SIMD
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "hamon/core/families/spin/detail/spin_registers.cpp"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>

#include "hamon/core/families/spin/detail/spin_registers-inl.hpp"

HWY_BEFORE_NAMESPACE();
namespace hamon::detail::HWY_NAMESPACE {

void csr_spin_registers(const SweepArgs<Kokkos::HostSpace, CsrBlock<Kokkos::HostSpace>>& args,
                        std::int64_t begin, std::int32_t nodes, std::int32_t first) {
  spin_register_run(args, begin, nodes, first);
}

void lattice_spin_registers(
    const SweepArgs<Kokkos::HostSpace, LatticeBlock<Kokkos::HostSpace>>& args, std::int64_t begin,
    std::int32_t nodes, std::int32_t first) {
  spin_register_run(args, begin, nodes, first);
}

}  // namespace hamon::detail::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace hamon::detail {

HWY_EXPORT(csr_spin_registers);
HWY_EXPORT(lattice_spin_registers);

void spin_registers(const SweepArgs<Kokkos::HostSpace, CsrBlock<Kokkos::HostSpace>>& args,
                    std::int64_t begin, std::int32_t nodes, std::int32_t first) {
  HWY_DYNAMIC_DISPATCH(csr_spin_registers)(args, begin, nodes, first);
}

void spin_registers(const SweepArgs<Kokkos::HostSpace, LatticeBlock<Kokkos::HostSpace>>& args,
                    std::int64_t begin, std::int32_t nodes, std::int32_t first) {
  HWY_DYNAMIC_DISPATCH(lattice_spin_registers)(args, begin, nodes, first);
}

}  // namespace hamon::detail
#endif  // HWY_ONCE
#endif  // HAMON_HOST_SIMD
