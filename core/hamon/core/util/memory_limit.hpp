// SPDX-License-Identifier: Apache-2.0
#pragma once
// How much memory a model or a run may take, checked before anything is allocated: the
// machine's physical memory, or HAMON_MEMORY_LIMIT when set (bytes, or a number with a
// K, M, G or T suffix, powers of 1024), e.g. to stay inside a batch job's allocation.

#include <string>

namespace hamon {

inline constexpr const char* kMemoryLimitEnv = "HAMON_MEMORY_LIMIT";

/// The limit in bytes (0: unknown, nothing is refused). Throws std::invalid_argument
/// naming the variable and its value when HAMON_MEMORY_LIMIT is not a size.
double memory_limit_bytes();

/// "1.5 GiB".
std::string gib_text(double bytes);

/// Throws std::invalid_argument "<what> needs <bytes> (<detail>) but <limit> ...: <advice>"
/// when `bytes` exceeds memory_limit_bytes().
void require_memory(double bytes, const std::string& what, const std::string& detail,
                    const std::string& advice);

}  // namespace hamon
