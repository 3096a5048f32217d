// SPDX-License-Identifier: Apache-2.0
#pragma once
// An error in an experiment file, with where it is: file:line:column and the key path
// (e.g. `nrpt.chains`). Every check of the configuration reports through this type, so
// the command prints one line a user can jump to.

#include <map>
#include <stdexcept>
#include <string>

namespace hamon::cli {

/// The file of a value given on the command line (Location::key is then the option).
inline constexpr const char* kCommandLine = "command line";

struct Location {
  std::string file;  // the YAML file, or kCommandLine for an override
  int line = 0;      // 1-based; 0 when unknown
  int column = 0;    // 1-based; 0 when unknown
  std::string key;   // key path, e.g. "nrpt.chains" or "model.edges[3]"; may be empty
};

/// "file:line:column" (or "file" alone when the line is unknown).
std::string to_string(const Location& where);

/// The location recorded for `key` in `locations` (key path -> location), or for its
/// closest recorded parent ("nrpt.betas[2]" -> "nrpt.betas" -> "nrpt"), named `key`; a
/// location from the command line keeps its option name ("--out"). `fallback` when none.
Location locate(const std::map<std::string, Location>& locations, const std::string& key,
                Location fallback);

/// The one line `hamon` prints for an error, whatever raised it: "FILE:LINE:COL: error: KEY:
/// MESSAGE" for a place in a file, "hamon: error: KEY: MESSAGE" for a value from the command
/// line (KEY the option), the environment or no place at all. Messages carry no prefix.
std::string error_line(const Location& where, const std::string& message);
std::string error_line(const std::string& message);

class ConfigError : public std::runtime_error {
 public:
  /// what() is the whole line: "FILE:LINE:COL: error: KEY: MESSAGE".
  ConfigError(Location where, std::string message);

  const Location& where() const { return where_; }
  const std::string& message() const { return message_; }

 private:
  Location where_;
  std::string message_;
};

}  // namespace hamon::cli
