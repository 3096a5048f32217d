// SPDX-License-Identifier: Apache-2.0
#pragma once
// The vector path of the continuous models' host sweep (families/real/real_family.hpp), compiled
// once per instruction set and chosen at run time by Highway's dynamic dispatch
// (real_registers.cpp, the kernels in real_registers-inl.hpp): a node's Gaussian draws and
// double-well slice steps for up to kRealLanes machines side by side, with the same bits as
// the portable loops. Declared only where the vector layer is built
// (families/detail/host_vectors.hpp).

#include <cstddef>
#include <cstdint>

#include "hamon/core/families/detail/host_vectors.hpp"

namespace hamon::detail {

#if HAMON_HOST_SIMD
/// The Gaussian updates of `lanes` (at most 32) machines of one node: lane l draws from
/// words[l] (to_unit_interval, standard_normal_quantile) and writes gaussian_site_value
/// (d, h, phi[l], a[l], b[l], z) to out[l], and nothing past out[lanes - 1]. words, phi, a
/// and b: arrays of 32. `same_a`: every a[l] equal (the square root is taken once).
void gaussian_registers(const std::uint32_t* words, const double* phi, const double* a,
                        const double* b, double d, double h, double* out, std::int32_t lanes,
                        bool same_a);

/// double_well_slice_step for `lanes` (at most 32) machines machine0 + l of one node: site
/// (a_lambda[l], slope[l]) from x0[l] (read for l < lanes only) into out[l] (written for
/// l < lanes only; out may be x0), with the words of real_draw. a_lambda, slope: arrays of 32.
void double_well_registers(std::uint64_t seed, std::uint32_t node, std::uint32_t machine0,
                           std::uint32_t sweep, std::uint32_t round, const double* x0,
                           const double* a_lambda, const double* slope, double* out,
                           std::int32_t lanes, std::int32_t tries);

/// For the tests: deterministic_log, deterministic_exp and standard_normal_quantile of n
/// values on the vector lanes of the dispatched target.
void log_registers(const double* x, double* out, std::size_t n);
void exp_registers(const double* x, double* out, std::size_t n);
void normal_quantile_registers(const double* p, double* out, std::size_t n);
#endif

}  // namespace hamon::detail
