// SPDX-License-Identifier: Apache-2.0
// The vector path of the spin energy pass for integer couplings and fields, once for every
// target (families/detail/vector_draws-inl.hpp says how it is compiled). Every node term
// -s_i (h_i + its counted bonds J_ij s_j) is an integer of magnitude <= integer_field_bound
// <= 64 (also without h_i, on the annealing path: the bound is the largest |h_i| + sum_j
// |J_ij|), so terms add exactly in 16-bit lanes (256 nodes at a time) and then in 32-bit
// integers: the caller's fixed-point energy is that integer times 2^fraction_bits, exactly
// what the general path sums term by term (tests/backend/tstHostKernels.hpp checks it on every
// target).

#if defined(HAMON_ENERGY_REGISTERS_INL_HPP_) == defined(HWY_TARGET_TOGGLE)
#ifdef HAMON_ENERGY_REGISTERS_INL_HPP_
#undef HAMON_ENERGY_REGISTERS_INL_HPP_
#else
#define HAMON_ENERGY_REGISTERS_INL_HPP_
#endif

#include <hwy/highway.h>

#include <cstddef>
#include <cstdint>
#include <cstring>

#include "hamon/core/families/detail/counted_bonds.hpp"
#include "hamon/core/families/detail/host_vectors.hpp"
#include "hamon/core/families/detail/sweep_blocks.hpp"
#include "hamon/core/families/spin/detail/energy_registers.hpp"

HWY_BEFORE_NAMESPACE();
namespace hamon::detail::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

using HostBonds = CountedBonds<Kokkos::HostSpace>;

/// Calls f(j, J) for the bonds counted at the cursor's node in CountedBonds::for_each's
/// order (`Dims`: the lattice's dimension, or -1 for the CSR bonds), here so that f,
/// compiled for this target, inlines: the bonds' own walk is compiled for the build's
/// baseline, and a callee with more instructions than its caller never inlines.
template <int Dims, class F>
HWY_INLINE void visit_counted_bonds(const DeviceModel<Kokkos::HostSpace>& model,
                                    const HostBonds::Cursor& c, F&& f) {
  if constexpr (Dims > 0) {
    const auto& g = model.lattice;
    for (std::int32_t d = Dims - 1; d >= 0; --d) {
      const auto e = static_cast<std::uint32_t>(g.extent[d]);
      const std::int64_t up =
          c.node + (c.coordinate[d] + 1 < e ? g.stride[d] : -(g.extent[d] - 1) * g.stride[d]);
      f(up, static_cast<std::int32_t>(g.coupling_up(d, c.node)));
    }
  } else {
    const std::int64_t i = c.node;
    const std::int64_t stop = model.row_offsets(i + 1);
    for (std::int64_t e = model.row_offsets(i); e < stop; ++e) {
      const std::int64_t j = model.columns(e);
      if (j > i) f(j, model.couplings(e));
    }
  }
}

/// integer_energy_registers (energy_registers.hpp) on this target. `Dims` as above.
template <int Dims>
HWY_INLINE void integer_energy_lanes(const DeviceModel<Kokkos::HostSpace>& model,
                                     const std::int8_t* column, std::int64_t column_stride,
                                     const std::int8_t* spins_end, std::int64_t begin,
                                     std::int64_t end, std::int32_t* total) {
  constexpr std::int64_t kExact16 = 256;  // 256 * 64 < 2^15
  const hn::CappedTag<std::int16_t, kHostLanes> d;
  const hn::Rebind<std::int8_t, decltype(d)> d8;
  using V = hn::Vec<decltype(d)>;
  constexpr std::size_t kLanes = hn::MaxLanes(d);
  constexpr std::size_t kVectors = kHostLanes / kLanes;
  // The 32 machines' spins of a node (no load past the spins' last byte).
  const auto spins_of = [&](std::int64_t node, V(&s)[kVectors]) HWY_ATTR {
    const std::int8_t* at = column + node * column_stride;
    if (HWY_UNLIKELY(at + kHostLanes > spins_end)) {
      alignas(64) std::int8_t padded[kHostLanes] = {};
      std::memcpy(padded, at, static_cast<std::size_t>(spins_end - at));
      for (std::size_t v = 0; v < kVectors; ++v)
        s[v] = hn::PromoteTo(d, hn::LoadU(d8, padded + v * kLanes));
      return;
    }
    for (std::size_t v = 0; v < kVectors; ++v)
      s[v] = hn::PromoteTo(d, hn::LoadU(d8, at + v * kLanes));
  };
  for (std::int32_t l = 0; l < kHostLanes; ++l) total[l] = 0;
  for (std::int64_t part = begin; part < end; part += kExact16) {
    const std::int64_t part_end = part + kExact16 < end ? part + kExact16 : end;
    V partial[kVectors];
    for (std::size_t v = 0; v < kVectors; ++v) partial[v] = hn::Zero(d);
    HostBonds::Cursor c = HostBonds::first(model, part);
    for (std::int64_t i = part; i < part_end; ++i, HostBonds::next<Dims>(model, c)) {
      V field[kVectors], s[kVectors];
      const double h = model.annealed ? 0.0 : model.fields(i);
      for (std::size_t v = 0; v < kVectors; ++v)
        field[v] = hn::Set(d, static_cast<std::int16_t>(h));
      visit_counted_bonds<Dims>(model, c, [&](std::int64_t j, auto coupling) HWY_ATTR {
        spins_of(j, s);
        const V J = hn::Set(d, static_cast<std::int16_t>(coupling));
        for (std::size_t v = 0; v < kVectors; ++v) field[v] = hn::Add(field[v], hn::Mul(s[v], J));
      });
      spins_of(i, s);
      for (std::size_t v = 0; v < kVectors; ++v) {
        partial[v] = hn::Sub(partial[v], hn::Mul(s[v], field[v]));
      }
    }
    alignas(64) std::int16_t sums[kHostLanes];
    for (std::size_t v = 0; v < kVectors; ++v) hn::Store(partial[v], d, sums + v * kLanes);
    for (std::int32_t l = 0; l < kHostLanes; ++l) total[l] += sums[l];
  }
}

}  // namespace hamon::detail::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#endif  // HAMON_ENERGY_REGISTERS_INL_HPP_
