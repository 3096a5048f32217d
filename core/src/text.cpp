// SPDX-License-Identifier: Apache-2.0
#include "hamon/core/text.hpp"

#include <array>
#include <charconv>
#include <cmath>

namespace hamon {

std::string format_value(double value) {
  if (std::isnan(value)) return "NaN";
  if (std::isinf(value)) return value > 0 ? "Inf" : "-Inf";
  std::array<char, 32> buffer{};
  const auto result = std::to_chars(buffer.data(), buffer.data() + buffer.size(), value);
  return std::string(buffer.data(), result.ptr);
}

std::string trim(const std::string& text) {
  const char* space = " \t\r\n\f\v";
  const auto first = text.find_first_not_of(space);
  if (first == std::string::npos) {
    return {};
  }
  const auto last = text.find_last_not_of(space);
  return text.substr(first, last - first + 1);
}

}  // namespace hamon
