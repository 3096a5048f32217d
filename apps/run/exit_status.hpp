// SPDX-License-Identifier: Apache-2.0
#pragma once
// The exit statuses of `hamon` (main.cpp's footer says what each means), and the error
// that stands for bad input on the command line.

#include <stdexcept>

namespace hamon::cli {

inline constexpr int kExitRunFailed = 1;
inline constexpr int kExitBadInput = 2;
inline constexpr int kExitStopped = 3;  // stopped on a signal; `hamon resume` continues

/// Bad input with no place in a file (a command-line value, the environment): exit 2.
class UsageError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace hamon::cli
