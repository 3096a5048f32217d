// SPDX-License-Identifier: Apache-2.0
#pragma once
// Field lists: a state struct names its fields once,
//
//   template <class Self>
//   static auto fields(Self& self) {
//     return std::make_tuple(field("rounds_done", self.rounds_done), ...);
//   }
//
// and everything that walks a state walks that list: the checkpoint writer and reader, a
// sampler part's snapshot and restore, the tests' comparisons. A new counter is then one
// line beside its declaration, and field_list_is_complete<T>() (a static_assert next to
// each host state) refuses a struct whose list misses one of its members.
//
// A field whose value has a field list of its own is walked into by the visitors that
// care (walk_fields); `section` marks where a checkpoint section starts. The same list
// serves a struct's storages in the execution space (util/view_fields.hpp): a View field
// is allocated under its `label`, counted, aliased and copied by walking it.
//
// A struct with a member called `fields` (DeviceModel) names its list `field_list`.

#include <cstddef>
#include <tuple>
#include <type_traits>
#include <utility>

namespace hamon {

/// How a checkpoint stores a field: plain fixed-width values, or integers in the narrowest
/// width that holds them all (moment sums, mostly small).
enum class FieldCodec { plain, packed };

template <class T>
struct Field {
  const char* name;
  T& value;
  FieldCodec codec = FieldCodec::plain;
  const char* section = nullptr;  // a checkpoint section starts at this field
  /// A View field's allocation label; nullptr: the walk's prefix and `name`.
  const char* label = nullptr;
  /// Over ranks, each rank's value is its share of a sum (saved summed, restored to rank 0)
  /// rather than a replica of one value.
  bool shared_over_ranks = false;

  Field with_codec(FieldCodec c) const {
    Field f = *this;
    f.codec = c;
    return f;
  }
  Field starts_section(const char* tag) const {
    Field f = *this;
    f.section = tag;
    return f;
  }
  Field labelled(const char* l) const {
    Field f = *this;
    f.label = l;
    return f;
  }
  Field summed_over_ranks() const {
    Field f = *this;
    f.shared_over_ranks = true;
    return f;
  }
};

template <class T>
Field<T> field(const char* name, T& value) {
  return Field<T>{name, value};
}

namespace detail {
template <class T, class = void>
struct has_fields_function : std::false_type {};
template <class T>
struct has_fields_function<T, std::void_t<decltype(T::fields(std::declval<T&>()))>>
    : std::true_type {};
template <class T, class = void>
struct has_field_list_function : std::false_type {};
template <class T>
struct has_field_list_function<T, std::void_t<decltype(T::field_list(std::declval<T&>()))>>
    : std::true_type {};
}  // namespace detail

/// Whether T declares a field list (as `fields`, or as `field_list`).
template <class T>
struct has_field_list : std::bool_constant<detail::has_fields_function<T>::value ||
                                           detail::has_field_list_function<T>::value> {};
template <class T>
inline constexpr bool has_field_list_v = has_field_list<std::remove_const_t<T>>::value;

/// The tuple of Field<...> of `state` (const members for a const state).
template <class State>
auto fields_of(State& state) {
  using T = std::remove_const_t<State>;
  if constexpr (detail::has_field_list_function<T>::value) {
    return T::field_list(state);
  } else {
    return T::fields(state);
  }
}

/// The number of fields in T's list.
template <class T>
inline constexpr std::size_t field_count_v =
    std::tuple_size_v<decltype(fields_of(std::declval<T&>()))>;

/// visit(field) for each field of `state`, in list order.
template <class State, class Visit>
void for_each_field(State& state, Visit&& visit) {
  std::apply([&](auto... f) { (visit(f), ...); }, fields_of(state));
}

namespace detail {
template <class ListA, class ListB, class Visit, std::size_t... I>
void visit_pairs(const ListA& a, const ListB& b, Visit& visit, std::index_sequence<I...>) {
  (visit(std::get<I>(a), std::get<I>(b)), ...);
}
}  // namespace detail

/// visit(field_a, field_b) for the fields of two lists in step (e.g. a part's views and
/// the host state they are saved into). The lists must be of one length.
template <class ListA, class ListB, class Visit>
void for_each_field_pair(const ListA& a, const ListB& b, Visit&& visit) {
  static_assert(std::tuple_size_v<ListA> == std::tuple_size_v<ListB>,
                "two field lists walked in step must have the same length");
  detail::visit_pairs(a, b, visit, std::make_index_sequence<std::tuple_size_v<ListA>>{});
}

namespace detail {

// Aggregate member counting: T{AnyMember, ..., AnyMember} compiles for up to as many
// initialisers as T has members (AnyMember converts to any member type).
struct AnyMember {
  template <class T>
  constexpr operator T() const noexcept;  // declared only: unevaluated contexts
};

template <class T, class Indices, class = void>
struct brace_constructible : std::false_type {};
template <class T, std::size_t... I>
struct brace_constructible<T, std::index_sequence<I...>,
                           std::void_t<decltype(T{(void(I), AnyMember{})...})>> : std::true_type {};

template <class T, std::size_t N = 0>
constexpr std::size_t member_count() {
  if constexpr (brace_constructible<T, std::make_index_sequence<N + 1>>::value) {
    return member_count<T, N + 1>();
  } else {
    return N;
  }
}

}  // namespace detail

namespace detail {

template <class T, class = void>
struct spliced_bases_of {
  using type = std::tuple<>;
};
template <class T>
struct spliced_bases_of<T, std::void_t<typename T::spliced_bases>> {
  using type = typename T::spliced_bases;
};

template <class... Bases>
constexpr std::size_t spliced_field_count(std::tuple<Bases...>* /*unused*/) {
  return (std::size_t{0} + ... + field_count_v<Bases>);
}

}  // namespace detail

/// True when T's field list names as many fields as T has members. A struct that splices
/// the lists of some of its bases into its own, field by field, names those bases
/// `spliced_bases` (a std::tuple): each is one member (an aggregate's first initialisers)
/// whose fields are in T's list.
template <class T>
constexpr bool field_list_is_complete() {
  using Bases = typename detail::spliced_bases_of<T>::type;
  return field_count_v<T> + std::tuple_size_v<Bases> ==
         detail::member_count<T>() + detail::spliced_field_count(static_cast<Bases*>(nullptr));
}

}  // namespace hamon
