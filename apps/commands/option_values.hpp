// SPDX-License-Identifier: Apache-2.0
#pragma once
// Command-line numbers, parsed strictly (CLI11 would wrap "-1" into a uint64): every bad
// value is a UsageError naming the option.

#include <cstdint>
#include <string>

namespace hamon::cli {

std::int64_t parse_integer_option(const std::string& option, const std::string& text,
                                  std::int64_t min, std::int64_t max);
std::uint64_t parse_seed_option(const std::string& option, const std::string& text);
double parse_number_option(const std::string& option, const std::string& text);

/// The help of a --device option, every command alike: the accepted words (with their
/// aliases, as the policies parse them) and what the option does (`role`).
std::string device_option_help(const std::string& role);

}  // namespace hamon::cli
