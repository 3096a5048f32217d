// SPDX-License-Identifier: Apache-2.0
#pragma once
// Text helpers the benchmark programs share: comma-separated option values, the UTC date
// of a recording.
#include <ctime>
#include <sstream>
#include <string>
#include <vector>

namespace hamon_perf {

/// "a,b,,c" -> {"a", "b", "c"}.
inline std::vector<std::string> split(const std::string& text) {
  std::vector<std::string> out;
  std::stringstream in(text);
  for (std::string item; std::getline(in, item, ',');) {
    if (!item.empty()) out.push_back(item);
  }
  return out;
}

/// "16,32" -> {16, 32} (std::invalid_argument for a non-number).
inline std::vector<int> split_ints(const std::string& text) {
  std::vector<int> out;
  for (const auto& item : split(text)) out.push_back(std::stoi(item));
  return out;
}

/// Now, as "YYYY-MM-DD HH:MM UTC".
inline std::string utc_now() {
  const std::time_t now = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&now, &tm);
  char buffer[32];
  std::strftime(buffer, sizeof buffer, "%Y-%m-%d %H:%M UTC", &tm);
  return buffer;
}

}  // namespace hamon_perf
