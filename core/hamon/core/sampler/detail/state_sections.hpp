// SPDX-License-Identifier: Apache-2.0
#pragma once
// A sampler state's checkpoint sections (checkpoint.cpp): its field list cut where a field
// starts a section, for any storage type of the variables (SamplerStateOf<Value>: the SPIN
// and TRAC sections are lists of Value).

#include <optional>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "hamon/core/sampler/byte_codec.hpp"
#include "hamon/core/util/field_list.hpp"

namespace hamon::detail {

/// The state's sections (tag, payload) in file order.
template <class State>
std::vector<std::pair<std::string, std::string>> state_sections(const State& s) {
  std::vector<std::pair<std::string, ByteWriter>> sections;
  for_each_field(s, [&](const auto& f) {
    using T = std::remove_const_t<std::remove_reference_t<decltype(f.value)>>;
    if (f.section != nullptr) sections.emplace_back(f.section, ByteWriter{});
    if constexpr (has_field_list_v<T>) {
      write_fields(sections.back().second, f.value);
    } else {
      write_value(sections.back().second, f.value, f.codec);
    }
  });
  std::vector<std::pair<std::string, std::string>> out;
  for (const auto& [tag, w] : sections) out.emplace_back(tag, w.bytes());
  return out;
}

/// The inverse of state_sections: `payload(tag)` is a section's bytes (it throws for a
/// missing one); each section must be read to its last byte. `name` (a file name) is what
/// errors call the bytes.
template <class State, class Payload>
void read_state_sections(State& s, const std::string& name, const Payload& payload) {
  std::optional<ByteReader> r;
  for_each_field(s, [&](const auto& f) {
    using T = std::remove_reference_t<decltype(f.value)>;
    if (f.section != nullptr) {
      if (r) r->finish();
      r.emplace(payload(f.section), name + " section " + f.section);
    }
    if constexpr (has_field_list_v<T>) {
      read_fields(*r, f.value);
    } else {
      read_value(*r, f.value, f.codec);
    }
  });
  if (r) r->finish();
}

}  // namespace hamon::detail
