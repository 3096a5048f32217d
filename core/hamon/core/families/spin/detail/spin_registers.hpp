// SPDX-License-Identifier: Apache-2.0
#pragma once
// The vector path of the host spin sweep (families/spin/detail/spin_registers-inl.hpp), compiled
// once per instruction set and chosen at run time by Highway's dynamic dispatch
// (spin_registers.cpp): block nodes [begin, begin + nodes) in machines [first, first + 32) of
// a colour block of host memory, with the same bits as the portable loops. Declared only
// where the vector layer is built (families/detail/host_vectors.hpp).

#include <Kokkos_Core.hpp>
#include <cstdint>

#include "hamon/core/families/detail/host_vectors.hpp"
#include "hamon/core/families/detail/sweep_args.hpp"
#include "hamon/core/families/detail/sweep_blocks.hpp"

namespace hamon::detail {

#if HAMON_HOST_SIMD
void spin_registers(const SweepArgs<Kokkos::HostSpace, CsrBlock<Kokkos::HostSpace>>& args,
                    std::int64_t begin, std::int32_t nodes, std::int32_t first);
void spin_registers(const SweepArgs<Kokkos::HostSpace, LatticeBlock<Kokkos::HostSpace>>& args,
                    std::int64_t begin, std::int32_t nodes, std::int32_t first);
#endif

}  // namespace hamon::detail
