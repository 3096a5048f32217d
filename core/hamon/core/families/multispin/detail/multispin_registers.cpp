// SPDX-License-Identifier: Apache-2.0
// The multispin sweep's vector path for every target the build dispatches among
// (spin_registers.cpp says how: foreach_target.h and HWY_DYNAMIC_DISPATCH).
#include "hamon/core/families/multispin/detail/multispin_registers.hpp"

#if HAMON_HOST_SIMD
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "hamon/core/families/multispin/detail/multispin_registers.cpp"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>

#include "hamon/core/families/multispin/detail/multispin_registers-inl.hpp"

HWY_BEFORE_NAMESPACE();
namespace hamon::detail::HWY_NAMESPACE {

void multispin_target(const MultispinColourArgs& args, std::int64_t begin, std::int64_t end) {
  multispin_register_items(args, begin, end);
}

}  // namespace hamon::detail::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace hamon::detail {

HWY_EXPORT(multispin_target);

void multispin_registers(const MultispinColourArgs& args, std::int64_t begin, std::int64_t end) {
  HWY_DYNAMIC_DISPATCH(multispin_target)(args, begin, end);
}

}  // namespace hamon::detail
#endif  // HWY_ONCE
#endif  // HAMON_HOST_SIMD
