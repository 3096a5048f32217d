// SPDX-License-Identifier: Apache-2.0
#pragma once
// What make_device_model (device_model.hpp) derives from a SpinModel besides its arrays: the
// copy of a host vector into a space, and the per-model constants of the fixed-point
// energies and the tabulated sweep decisions.

#include <Kokkos_Core.hpp>
#include <cstdint>
#include <string>
#include <vector>

#include "hamon/core/model/spin_model.hpp"

namespace hamon {

namespace detail {

template <class T, class Space>
Kokkos::View<T*, typename Space::memory_space> to_view(const Space& space,
                                                       const std::vector<T>& values,
                                                       const char* label) {
  Kokkos::View<T*, typename Space::memory_space> out(
      Kokkos::view_alloc(space, Kokkos::WithoutInitializing, std::string(label)), values.size());
  Kokkos::View<const T*, Kokkos::HostSpace, Kokkos::MemoryTraits<Kokkos::Unmanaged>> host(
      values.data(), values.size());
  Kokkos::deep_copy(space, out, host);
  // The copy is asynchronous in `space` and reads `values`, which the caller may free as
  // soon as this returns (often a local): wait for it here.
  space.fence();
  return out;
}

/// Fractional bits such that the largest possible |energy| stays below 2^61 in fixed
/// point (relative to the model's magnitude: negative for huge models, > 40 for tiny).
/// Continuous models, whose energies have no bound: kContinuousFractionBits.
int energy_fraction_bits_for(const SpinModel& model);

/// The fixed point of continuous models' energies and moment sums: a resolution of 2^-24
/// (6e-8, far below any statistical error) leaves |values| up to 2^38 (about 3e11) room
/// in int64 sums of up to 2^15 terms; energies beyond it saturate
/// (families/real/real_family.hpp).
inline constexpr int kContinuousFractionBits = 24;

/// DeviceModel::integer_field_bound for this model. For a Potts model: the largest
/// max_s phi_i(s) - min_s phi_i(s) over free nodes (at most kLargestPottsWeightIndex) when
/// every coupling and field is an integer, so a sweep reads its weights exp(-beta k) from a
/// per-chain table (families/potts/potts_update.hpp); -1 otherwise.
std::int32_t integer_field_bound_for(const SpinModel& model);

inline constexpr std::int32_t kLargestPottsWeightIndex = 4096;

}  // namespace detail

}  // namespace hamon
