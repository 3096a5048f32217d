// SPDX-License-Identifier: Apache-2.0
#pragma once
// The execution spaces this library is compiled for: the round loop (Sampler, nrpt, sample)
// is explicitly instantiated once per backend of cmake/HamonBackends.cmake's list that the
// Kokkos build has. Using hamon with any other space is a compile-time error that says so
// (require_instantiated_t), not a link error.

#include <Kokkos_Core.hpp>
#include <type_traits>

#include "hamon/backend_list.hpp"

namespace hamon {

template <class... Spaces>
struct SpaceList {};

namespace detail {

template <class... Spaces>
struct WithoutFirst;
template <class First, class... Rest>
struct WithoutFirst<First, Rest...> {
  using type = SpaceList<Rest...>;
};

template <class List, class Space>
struct ListContains;
template <class... Spaces, class Space>
struct ListContains<SpaceList<Spaces...>, Space>
    : std::disjunction<std::is_same<Spaces, Space>...> {};

}  // namespace detail

#define HAMON_SPACE_TYPE(name, Class, OPTION, tier) , Kokkos::Class
/// Kokkos::Serial, Kokkos::OpenMP, ... as this build has them, in the list's order.
using InstantiatedSpaces =
    typename detail::WithoutFirst<void HAMON_FOR_EACH_ENABLED_BACKEND(HAMON_SPACE_TYPE)>::type;
#undef HAMON_SPACE_TYPE

template <class Space>
inline constexpr bool is_instantiated_space =
    detail::ListContains<InstantiatedSpaces, Space>::value;

namespace detail {

// Not an execution space: no `type`, so overloads taking one drop out (SFINAE).
template <class Space, bool = Kokkos::is_execution_space<Space>::value>
struct RequireInstantiated {};

#define HAMON_SPACE_NAME(name, Class, OPTION, tier) " Kokkos::" #Class
template <class Space>
struct RequireInstantiated<Space, true> {
  static_assert(is_instantiated_space<Space>,
                "hamon is not compiled for this execution space: its round loop is "
                "instantiated only for the backends of cmake/HamonBackends.cmake that this "
                "Kokkos has, which are:" HAMON_FOR_EACH_ENABLED_BACKEND(HAMON_SPACE_NAME));
  using type = void;
};
#undef HAMON_SPACE_NAME

}  // namespace detail

/// The constraint on every entry point that takes an execution space: void for an
/// instantiated space; a readable static_assert for any other execution space; a
/// substitution failure for a type that is not an execution space.
template <class Space>
using require_instantiated_t = typename detail::RequireInstantiated<Space>::type;

}  // namespace hamon
