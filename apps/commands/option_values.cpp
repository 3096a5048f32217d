// SPDX-License-Identifier: Apache-2.0
#include "commands/option_values.hpp"

#include <charconv>
#include <cmath>
#include <string_view>

#include "commands/commands.hpp"
#include "hamon/policies/device_spec.hpp"

namespace hamon::cli {

namespace {

std::string_view trimmed(const std::string& text) {
  std::string_view view(text);
  if (view.size() > 1 && view[0] == '+') view.remove_prefix(1);
  return view;
}

}  // namespace

std::int64_t parse_integer_option(const std::string& option, const std::string& text,
                                  std::int64_t min, std::int64_t max) {
  const std::string_view view = trimmed(text);
  std::int64_t value = 0;
  const auto [end, error] = std::from_chars(view.data(), view.data() + view.size(), value);
  if (error != std::errc() || end != view.data() + view.size()) {
    throw UsageError(option + ": expected an integer, got '" + text + "'");
  }
  if (value < min || value > max) {
    throw UsageError(option + ": " + text + " is out of range [" + std::to_string(min) + ", " +
                     std::to_string(max) + "]");
  }
  return value;
}

std::uint64_t parse_seed_option(const std::string& option, const std::string& text) {
  const std::string_view view = trimmed(text);
  std::uint64_t value = 0;
  const auto [end, error] = std::from_chars(view.data(), view.data() + view.size(), value);
  if (error != std::errc() || end != view.data() + view.size()) {
    throw UsageError(option + ": expected an integer in [0, 2^64 - 1], got '" + text + "'");
  }
  return value;
}

double parse_number_option(const std::string& option, const std::string& text) {
  const std::string_view view = trimmed(text);
  double value = 0.0;
  const auto [end, error] = std::from_chars(view.data(), view.data() + view.size(), value);
  if (error != std::errc() || end != view.data() + view.size() || !std::isfinite(value)) {
    throw UsageError(option + ": expected a finite number, got '" + text + "'");
  }
  return value;
}

std::string device_option_help(const std::string& role) {
  return accepted_device_specs() + " (" + role + ")";
}

}  // namespace hamon::cli
