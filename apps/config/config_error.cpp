// SPDX-License-Identifier: Apache-2.0
#include "config/config_error.hpp"

#include <utility>

namespace hamon::cli {

std::string error_line(const Location& where, const std::string& message) {
  const bool in_a_file = !where.file.empty() && where.file != kCommandLine;
  std::string text = in_a_file ? to_string(where) + ": error: " : "hamon: error: ";
  if (!where.key.empty()) text += where.key + ": ";
  return text + message;
}

std::string error_line(const std::string& message) {
  return error_line(Location{}, message);
}

std::string to_string(const Location& where) {
  if (where.line <= 0) return where.file;
  return where.file + ":" + std::to_string(where.line) + ":" + std::to_string(where.column);
}

Location locate(const std::map<std::string, Location>& locations, const std::string& key,
                Location fallback) {
  std::string path = key;
  while (true) {
    const auto found = locations.find(path);
    if (found != locations.end()) {
      Location at = found->second;
      // A value from the command line is blamed on its option (--out), not the key.
      if (at.line > 0 || at.key.empty()) at.key = key;
      return at;
    }
    const auto cut = path.find_last_of(".[");
    if (cut == std::string::npos) break;
    path.resize(cut);
  }
  fallback.key = key;
  return fallback;
}

ConfigError::ConfigError(Location where, std::string message)
    : std::runtime_error(error_line(where, message)),
      where_(std::move(where)),
      message_(std::move(message)) {}

}  // namespace hamon::cli
