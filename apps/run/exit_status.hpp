// SPDX-License-Identifier: Apache-2.0
#pragma once
// The exit statuses of `hamon` (main.cpp's footer says what each means).

namespace hamon::cli {

inline constexpr int kExitRunFailed = 1;
inline constexpr int kExitBadInput = 2;
inline constexpr int kExitStopped = 3;  // stopped on a signal; `hamon resume` continues

}  // namespace hamon::cli
