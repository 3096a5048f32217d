// SPDX-License-Identifier: Apache-2.0
#pragma once
// The one place where policies/ reads or writes the process environment. Tests change the
// environment with the same calls (POSIX setenv/unsetenv) and see the change at once:
// nothing here caches a value.

#include <cstdlib>
#include <optional>
#include <string>

namespace hamon::env {

/// The value of `name`, or nullopt when it is not set (an empty value is returned as "").
inline std::optional<std::string> get_env(const char* name) {
  const char* value = std::getenv(name);
  if (value == nullptr) {
    return std::nullopt;
  }
  return std::string(value);
}

/// Sets `name` to `value`, replacing any previous value.
inline void set_env(const char* name, const std::string& value) {
  ::setenv(name, value.c_str(), /*overwrite=*/1);
}

/// Removes `name` from the environment (no-op when it is not set).
inline void unset_env(const char* name) {
  ::unsetenv(name);
}

/// Restores `name` to `previous` (nullopt = unset).
inline void restore_env(const char* name, const std::optional<std::string>& previous) {
  if (previous) {
    set_env(name, *previous);
  } else {
    unset_env(name);
  }
}

}  // namespace hamon::env
