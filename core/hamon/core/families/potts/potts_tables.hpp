// SPDX-License-Identifier: Apache-2.0
#pragma once
// The Potts family's weight table: exp(-beta k) per (chain, k), k = 0 .. the model's
// integer_field_bound, for models with integer local fields (families/potts/potts_update.hpp);
// empty otherwise. The family fills it in `refresh` from the ladder; a state of the byte
// storage carries it (families/family_state.hpp).

#include <Kokkos_Core.hpp>
#include <tuple>

#include "hamon/core/util/field_list.hpp"

namespace hamon {

template <class MemorySpace>
struct PottsTables {
  Kokkos::View<double**, Kokkos::LayoutRight, MemorySpace> potts_weight;

  template <class Self>
  static auto field_list(Self& t) {
    return std::make_tuple(field("potts_weight", t.potts_weight));
  }
};
static_assert(field_list_is_complete<PottsTables<Kokkos::HostSpace>>());

}  // namespace hamon
