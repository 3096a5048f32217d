// SPDX-License-Identifier: Apache-2.0
#pragma once
// The vector path of the spin energy pass (families/spin/detail/energy_pass.hpp) for integer
// couplings and fields, compiled once per instruction set and chosen at run time by
// Highway's dynamic dispatch (energy_registers.cpp, the kernel in energy_registers-inl.hpp).
// Declared only where the vector layer is built (families/detail/host_vectors.hpp).

#include <Kokkos_Core.hpp>
#include <cstdint>

#include "hamon/core/families/detail/host_vectors.hpp"
#include "hamon/core/model/device_model.hpp"

namespace hamon::detail {

#if HAMON_HOST_SIMD
/// For machines [first, first + 32) of host memory (those past the last machine compute
/// anything): total[l] = the sum over nodes [begin, end) of -s_i (h_i + the bonds counted
/// at i, CountedBonds) in machine first + l, h_i 0 on the annealing path. The model's local
/// fields are integers of magnitude at most integer_field_bound <= 64. `column`: the spins
/// of node 0 at machine `first`; `column_stride`: between nodes; `spins_end`: past the
/// spins' last byte, which no load crosses.
void integer_energy_registers(const DeviceModel<Kokkos::HostSpace>& model,
                              const std::int8_t* column, std::int64_t column_stride,
                              const std::int8_t* spins_end, std::int64_t begin, std::int64_t end,
                              std::int32_t* total);
#endif

}  // namespace hamon::detail
