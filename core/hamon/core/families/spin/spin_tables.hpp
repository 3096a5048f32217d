// SPDX-License-Identifier: Apache-2.0
#pragma once
// The spin family's decision tables: what its heat-bath update (families/spin/heat_bath.hpp)
// reads per chain instead of evaluating exp. They depend on the ladder only, so the family
// fills them in `refresh` after every change of the betas; a state of the byte storage
// carries them (families/family_state.hpp).

#include <Kokkos_Core.hpp>
#include <cstdint>
#include <tuple>

#include "hamon/core/util/field_list.hpp"

namespace hamon {

template <class MemorySpace>
struct SpinTables {
  /// With integer local fields |phi| <= R: a word w decides +1 iff phi + R >= up_floor(chain)
  /// and w <= up_limit(chain, phi + R). Empty otherwise.
  Kokkos::View<std::uint32_t**, Kokkos::LayoutRight, MemorySpace> up_limit;
  Kokkos::View<std::int32_t*, MemorySpace> up_floor;
  /// With real local fields, the field values where the byte decision changes, per chain
  /// (n_chains, 257; families/spin/field_boundaries.hpp). Empty: the sweep evaluates exp per
  /// update instead.
  Kokkos::View<double**, Kokkos::LayoutRight, MemorySpace> field_boundary;

  template <class Self>
  static auto field_list(Self& t) {
    return std::make_tuple(field("up_limit", t.up_limit), field("up_floor", t.up_floor),
                           field("field_boundary", t.field_boundary));
  }
};
static_assert(field_list_is_complete<SpinTables<Kokkos::HostSpace>>());

}  // namespace hamon
