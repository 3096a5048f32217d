// SPDX-License-Identifier: Apache-2.0
#pragma once
// Test helpers that walk a state's field list (hamon/core/util/field_list.hpp), so that a
// comparison or a fill covers exactly the fields the checkpoint covers, and a field added
// to the list is covered without touching the tests.
#include <cstdint>
#include <cstring>
#include <string>
#include <type_traits>
#include <vector>

#include "hamon/core/util/field_list.hpp"

namespace hamon_test {

/// The name of the first field (by list order, walking into nested lists) whose bits
/// differ between `a` and `b`, or "" when every field is the same.
template <class State>
std::string first_difference(const State& a, const State& b) {
  std::string found;
  const auto fields_a = hamon::fields_of(a);
  const auto fields_b = hamon::fields_of(b);
  hamon::for_each_field_pair(fields_a, fields_b, [&](const auto& x, const auto& y) {
    if (!found.empty()) return;
    using T = std::remove_const_t<std::remove_reference_t<decltype(x.value)>>;
    if constexpr (hamon::has_field_list_v<T>) {
      found = first_difference(x.value, y.value);
      if (!found.empty()) found = std::string(x.name) + "." + found;
    } else if constexpr (std::is_arithmetic_v<T>) {
      if (std::memcmp(&x.value, &y.value, sizeof(T)) != 0) found = x.name;
    } else {  // a std::vector of arithmetic values
      const bool same = x.value.size() == y.value.size() &&
                        (x.value.empty() || std::memcmp(x.value.data(), y.value.data(),
                                                        x.value.size() * sizeof(x.value[0])) == 0);
      if (!same) found = x.name;
    }
  });
  return found;
}

/// Every field of `state` set to values that differ from each other and from the
/// defaults (lists of 1 to 3 entries), counting up from `*next`.
template <class State>
void fill_every_field(State& state, std::int64_t& next) {
  hamon::for_each_field(state, [&](const auto& f) {
    using T = std::remove_reference_t<decltype(f.value)>;
    if constexpr (hamon::has_field_list_v<T>) {
      fill_every_field(f.value, next);
    } else if constexpr (std::is_arithmetic_v<T>) {
      f.value = static_cast<T>(++next);
    } else {
      f.value.resize(static_cast<std::size_t>(1 + next % 3));
      for (auto& v : f.value) v = static_cast<std::decay_t<decltype(v)>>(++next);
    }
  });
}

/// How many leaf fields a state has (nested lists counted through).
template <class State>
int count_leaf_fields(State& state) {
  int n = 0;
  hamon::for_each_field(state, [&](const auto& f) {
    using T = std::remove_reference_t<decltype(f.value)>;
    if constexpr (hamon::has_field_list_v<T>) {
      n += count_leaf_fields(f.value);
    } else {
      ++n;
    }
  });
  return n;
}

/// Leaf field k (in walk order) of `state` changed by one in its last bit-significant
/// way (a scalar incremented, a list given one more entry). Returns that field's name.
template <class State>
std::string perturb_leaf_field(State& state, int k) {
  std::string name;
  int at = 0;
  auto walk = [&](auto& self, auto& s) -> void {
    hamon::for_each_field(s, [&](const auto& f) {
      using T = std::remove_reference_t<decltype(f.value)>;
      if constexpr (hamon::has_field_list_v<T>) {
        self(self, f.value);
      } else {
        if (at++ != k) return;
        name = f.name;
        if constexpr (std::is_arithmetic_v<T>) {
          f.value = static_cast<T>(f.value + 1);
        } else {
          f.value.push_back({});
        }
      }
    });
  };
  walk(walk, state);
  return name;
}

}  // namespace hamon_test
