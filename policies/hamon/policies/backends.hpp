// SPDX-License-Identifier: Apache-2.0
#pragma once
// The backends as routing sees them: a placement per backend of cmake/HamonBackends.cmake's
// list (compiled in or not, so a decision can name a backend this build lacks and say so),
// its tier, and the type-level walk over the ones compiled in. Nothing below names a
// backend: a new one is an entry in that list.

#include <Kokkos_Core.hpp>
#include <optional>
#include <string>
#include <vector>

#include "hamon/backend_list.hpp"
#include "hamon/core/util/instantiated_spaces.hpp"

namespace hamon {

#define HAMON_PLACEMENT(name, Class, OPTION, tier) name,
enum class Placement {
  leave_alone,  // Kokkos::DefaultExecutionSpace; hamon moves no data
  HAMON_FOR_EACH_KNOWN_BACKEND(HAMON_PLACEMENT)  // one per backend, in the list's order
};
#undef HAMON_PLACEMENT

enum class Tier { host, accelerator };

/// One entry of the list of backends.
struct Backend {
  Placement placement;
  const char* name;           // "serial": the placement and device word
  const char* kokkos_name;    // "Serial": Kokkos::Serial
  const char* kokkos_option;  // "Kokkos_ENABLE_SERIAL"
  Tier tier;
  bool compiled_in;  // this Kokkos has it
};

namespace detail {
#define HAMON_COMPILED_IN(name, Class, OPTION, tier) || Placement::name == placement
constexpr bool compiled_in(Placement placement) {
  return false HAMON_FOR_EACH_ENABLED_BACKEND(HAMON_COMPILED_IN);
}
#undef HAMON_COMPILED_IN
}  // namespace detail

#define HAMON_BACKEND_ENTRY(name, Class, OPTION, tier)  \
  Backend{Placement::name,          #name,      #Class, \
          "Kokkos_ENABLE_" #OPTION, Tier::tier, detail::compiled_in(Placement::name)},
/// Every backend hamon knows, in the list's order (host backends lightest first).
inline constexpr Backend kKnownBackends[] = {HAMON_FOR_EACH_KNOWN_BACKEND(HAMON_BACKEND_ENTRY)};
#undef HAMON_BACKEND_ENTRY

/// The entry for a placement; nullptr for leave_alone.
const Backend* find_backend(Placement placement);

/// The entry named `name` ("serial"), case-sensitive; nullptr when there is none.
const Backend* find_backend(const std::string& name);

/// The backends of a tier that this build has, in the list's order.
std::vector<Placement> compiled_in_backends(Tier tier);

/// "leave_alone", or the backend's name ("serial", "openmp", "cuda").
std::string to_string(Placement placement);

/// The placement naming `Space` (leave_alone when it is not an instantiated space).
template <class Space>
constexpr Placement placement_of_space() {
  Placement placement = Placement::leave_alone;
#define HAMON_MATCH(name, Class, OPTION, tier) \
  if (std::is_same_v<Space, Kokkos::Class>) placement = Placement::name;
  HAMON_FOR_EACH_ENABLED_BACKEND(HAMON_MATCH)
#undef HAMON_MATCH
  return placement;
}

namespace detail {
template <class Visit, class Space, class... Rest>
auto visit_compiled_in(Placement placement, Visit& visit, SpaceList<Space, Rest...> /*unused*/)
    -> std::optional<decltype(visit(Space()))> {
  if (placement_of_space<Space>() == placement) {
    return visit(Space());
  }
  if constexpr (sizeof...(Rest) > 0) {
    return visit_compiled_in(placement, visit, SpaceList<Rest...>());
  } else {
    return std::nullopt;
  }
}
}  // namespace detail

/// Calls visit(space) with a default instance of the compiled-in backend `placement` and
/// returns its result; nullopt when this build does not have it (or for leave_alone).
template <class Visit>
auto visit_compiled_in(Placement placement, Visit&& visit) {
  return detail::visit_compiled_in(placement, visit, InstantiatedSpaces());
}

}  // namespace hamon
