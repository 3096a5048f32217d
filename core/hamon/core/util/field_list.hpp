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
// care (walk_fields); `section` marks where a checkpoint section starts.

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

  Field with_codec(FieldCodec c) const { return {name, value, c, section}; }
  Field starts_section(const char* tag) const { return {name, value, codec, tag}; }
};

template <class T>
Field<T> field(const char* name, T& value) {
  return Field<T>{name, value};
}

/// Whether T declares a field list.
template <class T, class = void>
struct has_field_list : std::false_type {};
template <class T>
struct has_field_list<T, std::void_t<decltype(T::fields(std::declval<T&>()))>> : std::true_type {};
template <class T>
inline constexpr bool has_field_list_v = has_field_list<std::remove_const_t<T>>::value;

/// The tuple of Field<...> of `state` (const members for a const state).
template <class State>
auto fields_of(State& state) {
  return std::remove_const_t<State>::fields(state);
}

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

/// True when T's field list names as many fields as T has members.
template <class T>
constexpr bool field_list_is_complete() {
  return std::tuple_size_v<decltype(T::fields(std::declval<T&>()))> == detail::member_count<T>();
}

}  // namespace hamon
