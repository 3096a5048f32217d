// SPDX-License-Identifier: Apache-2.0
#include "hamon/core/util/memory_limit.hpp"

#include <unistd.h>  // sysconf

#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>

namespace hamon {

namespace {

double physical_memory() {
  const long pages = ::sysconf(_SC_PHYS_PAGES);
  const long page_size = ::sysconf(_SC_PAGE_SIZE);
  return pages > 0 && page_size > 0 ? static_cast<double>(pages) * static_cast<double>(page_size)
                                    : 0.0;
}

}  // namespace

double memory_limit_bytes() {
  const char* raw = std::getenv(kMemoryLimitEnv);
  if (raw == nullptr || *raw == '\0') return physical_memory();
  char* end = nullptr;
  const double value = std::strtod(raw, &end);
  double scale = 1.0;
  if (end != raw && *end != '\0' && end[1] == '\0') {
    switch (std::toupper(static_cast<unsigned char>(*end))) {
      case 'K':
        scale = 1024.0;
        break;
      case 'M':
        scale = 1024.0 * 1024.0;
        break;
      case 'G':
        scale = 1024.0 * 1024.0 * 1024.0;
        break;
      case 'T':
        scale = 1024.0 * 1024.0 * 1024.0 * 1024.0;
        break;
      default:
        scale = 0.0;
    }
    ++end;
  }
  if (end == raw || *end != '\0' || scale == 0.0 || !std::isfinite(value) || !(value > 0.0)) {
    throw std::invalid_argument(std::string(kMemoryLimitEnv) + "='" + raw +
                                "' is not a memory size (expected bytes > 0, or a number "
                                "with K, M, G or T, e.g. 16G)");
  }
  return value * scale;
}

std::string gib_text(double bytes) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.3g GiB", bytes / 1073741824.0);
  return buffer;
}

void require_memory(double bytes, const std::string& what, const std::string& detail,
                    const std::string& advice) {
  const double limit = memory_limit_bytes();
  if (limit <= 0.0 || bytes <= limit) return;
  const bool from_env =
      std::getenv(kMemoryLimitEnv) != nullptr && *std::getenv(kMemoryLimitEnv) != '\0';
  throw std::invalid_argument(
      what + " needs " + gib_text(bytes) + (detail.empty() ? "" : " (" + detail + ")") + " but " +
      (from_env ? std::string(kMemoryLimitEnv) + " allows " : std::string("this machine has ")) +
      gib_text(limit) + ": " + advice);
}

}  // namespace hamon
