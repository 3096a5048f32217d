// SPDX-License-Identifier: Apache-2.0
// The continuous models' host vector path for every target the build dispatches among:
// Highway's foreach_target.h compiles this file once per target (each in its own namespace),
// and HWY_DYNAMIC_DISPATCH calls the best one this CPU runs.
#include "hamon/core/families/real/detail/real_registers.hpp"

#if HAMON_HOST_SIMD
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "hamon/core/families/real/detail/real_registers.cpp"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>

#include "hamon/core/families/real/detail/real_registers-inl.hpp"

HWY_BEFORE_NAMESPACE();
namespace hamon::detail::HWY_NAMESPACE {

void gaussian_target(const std::uint32_t* words, const double* phi, const double* a,
                     const double* b, double d, double h, double* out, std::int32_t lanes,
                     bool same_a) {
  gaussian_lanes(words, phi, a, b, d, h, out, lanes, same_a);
}

void double_well_target(std::uint64_t seed, std::uint32_t node, std::uint32_t machine0,
                        std::uint32_t sweep, std::uint32_t round, const double* x0,
                        const double* a_lambda, const double* slope, double* out,
                        std::int32_t lanes, std::int32_t tries) {
  double_well_lanes(seed, node, machine0, sweep, round, x0, a_lambda, slope, out, lanes, tries);
}

void log_target(const double* x, double* out, std::size_t n) {
  map_lanes(x, out, n, [](auto d, auto v) HWY_ATTR { return log_lanes(d, v); });
}

void exp_target(const double* x, double* out, std::size_t n) {
  map_lanes(x, out, n, [](auto d, auto v) HWY_ATTR { return exp_lanes(d, v); });
}

void normal_quantile_target(const double* p, double* out, std::size_t n) {
  map_lanes(p, out, n, [](auto d, auto v) HWY_ATTR { return normal_quantile_lanes(d, v); });
}

}  // namespace hamon::detail::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace hamon::detail {

HWY_EXPORT(gaussian_target);
HWY_EXPORT(double_well_target);
HWY_EXPORT(log_target);
HWY_EXPORT(exp_target);
HWY_EXPORT(normal_quantile_target);

void gaussian_registers(const std::uint32_t* words, const double* phi, const double* a,
                        const double* b, double d, double h, double* out, std::int32_t lanes,
                        bool same_a) {
  HWY_DYNAMIC_DISPATCH(gaussian_target)(words, phi, a, b, d, h, out, lanes, same_a);
}

void double_well_registers(std::uint64_t seed, std::uint32_t node, std::uint32_t machine0,
                           std::uint32_t sweep, std::uint32_t round, const double* x0,
                           const double* a_lambda, const double* slope, double* out,
                           std::int32_t lanes, std::int32_t tries) {
  HWY_DYNAMIC_DISPATCH(double_well_target)
  (seed, node, machine0, sweep, round, x0, a_lambda, slope, out, lanes, tries);
}

void log_registers(const double* x, double* out, std::size_t n) {
  HWY_DYNAMIC_DISPATCH(log_target)(x, out, n);
}

void exp_registers(const double* x, double* out, std::size_t n) {
  HWY_DYNAMIC_DISPATCH(exp_target)(x, out, n);
}

void normal_quantile_registers(const double* p, double* out, std::size_t n) {
  HWY_DYNAMIC_DISPATCH(normal_quantile_target)(p, out, n);
}

}  // namespace hamon::detail
#endif  // HWY_ONCE
#endif  // HAMON_HOST_SIMD
