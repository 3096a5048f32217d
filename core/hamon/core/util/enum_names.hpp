// SPDX-License-Identifier: Apache-2.0
#pragma once
// Enumerators and their names, one table per enum: to_string, parsing and "did you mean"
// (closest_match over names_of, text.hpp) all read the same table, so a name is spelled
// once. A table lists every enumerator, in the order its names are offered to a reader:
//
//   inline constexpr EnumNames<Optimiser, 2> kOptimiserNames{{
//       {Optimiser::adam, "adam"}, {Optimiser::sgd, "sgd"}}};
//   const char* to_string(Optimiser value) { return name_of(kOptimiserNames, value); }

#include <array>
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace hamon {

template <class Enum>
struct EnumName {
  Enum value;
  const char* name;
};

template <class Enum, std::size_t N>
using EnumNames = std::array<EnumName<Enum>, N>;

/// The name of `value`; "unknown" for a value outside the table (a cast from a bad integer).
template <class Enum, std::size_t N>
constexpr const char* name_of(const EnumNames<Enum, N>& table, Enum value) {
  for (const auto& entry : table) {
    if (entry.value == value) return entry.name;
  }
  return "unknown";
}

/// The enumerator named `name` (case-sensitive), or nullopt.
template <class Enum, std::size_t N>
constexpr std::optional<Enum> parse_name(const EnumNames<Enum, N>& table, std::string_view name) {
  for (const auto& entry : table) {
    if (name == entry.name) return entry.value;
  }
  return std::nullopt;
}

/// Every name, in the table's order.
template <class Enum, std::size_t N>
std::vector<std::string> names_of(const EnumNames<Enum, N>& table) {
  std::vector<std::string> names;
  names.reserve(N);
  for (const auto& entry : table) names.emplace_back(entry.name);
  return names;
}

}  // namespace hamon
