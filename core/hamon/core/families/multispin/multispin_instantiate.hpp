// SPDX-License-Identifier: Apache-2.0
#pragma once
// The multispin kernels' explicit instantiations for one execution space, so every backend's
// library (policies/src/multispin_backend.cpp.in) compiles them, Cuda included.

#include "hamon/core/families/multispin/multispin_energy.hpp"
#include "hamon/core/families/multispin/multispin_overlaps.hpp"
#include "hamon/core/families/multispin/multispin_swaps.hpp"
#include "hamon/core/families/multispin/multispin_sweep.hpp"

#define HAMON_INSTANTIATE_MULTISPIN(SPACE)                                                       \
  namespace hamon {                                                                              \
  template MultispinDevice<SPACE::memory_space> make_multispin_device<SPACE>(                    \
      const MultispinEnsemble&);                                                                 \
  template void multispin_sweep<SPACE>(                                                          \
      const SPACE&, const MultispinDevice<SPACE::memory_space>&,                                 \
      const Kokkos::View<std::uint64_t*, SPACE::memory_space>&,                                  \
      const Kokkos::View<const std::uint64_t*, SPACE::memory_space>&, std::uint64_t,             \
      std::uint32_t, std::uint32_t, HostKernel);                                                 \
  template void multispin_unsatisfied<SPACE>(                                                    \
      const SPACE&, const MultispinDevice<SPACE::memory_space>&,                                 \
      const Kokkos::View<const std::uint64_t*, SPACE::memory_space>&,                            \
      const Kokkos::View<std::int64_t*, SPACE::memory_space>&);                                  \
  template std::int64_t multispin_swap_pass<SPACE>(                                              \
      const SPACE&, const MultispinLadder&, double,                                              \
      const Kokkos::View<const double*, SPACE::memory_space>&,                                   \
      const Kokkos::View<std::uint64_t*, SPACE::memory_space>&,                                  \
      const Kokkos::View<std::int64_t*, SPACE::memory_space>&,                                   \
      const Kokkos::View<std::uint64_t*, SPACE::memory_space>&, std::uint64_t, std::uint32_t);   \
  template void multispin_overlap_counts<SPACE>(                                                 \
      const SPACE&, const MultispinDevice<SPACE::memory_space>&, const MultispinLadder&,         \
      const Kokkos::View<const std::uint64_t*, SPACE::memory_space>&,                            \
      const Kokkos::View<std::int64_t*, SPACE::memory_space>&,                                   \
      const Kokkos::View<std::int64_t*, SPACE::memory_space>&, std::int64_t, std::int64_t);      \
  template void multispin_plane_counts<SPACE>(                                                   \
      const SPACE&, const MultispinDevice<SPACE::memory_space>&, const MultispinLadder&,         \
      const Kokkos::View<const std::uint64_t*, SPACE::memory_space>&,                            \
      const Kokkos::View<const std::int32_t*, SPACE::memory_space>&, std::int64_t, std::int64_t, \
      const Kokkos::View<std::int64_t*, SPACE::memory_space>&, std::int64_t, std::int64_t);      \
  }
