// SPDX-License-Identifier: Apache-2.0
#pragma once
// The machine line of a benchmark record: CPU model, core count, kernel.
#include <sys/utsname.h>

#include <fstream>
#include <sstream>
#include <string>
#include <thread>

namespace hamon_perf {

/// "CPU model, N cores, Linux release" from /proc/cpuinfo and uname.
inline std::string machine_description() {
  std::string model = "unknown cpu";
  std::ifstream cpuinfo("/proc/cpuinfo");
  for (std::string line; std::getline(cpuinfo, line);) {
    if (line.rfind("model name", 0) == 0) {
      const auto colon = line.find(':');
      if (colon != std::string::npos) model = line.substr(line.find_first_not_of(' ', colon + 1));
      break;
    }
  }
  std::ostringstream out;
  out << model << ", " << std::thread::hardware_concurrency() << " cores";
  utsname name{};
  if (uname(&name) == 0) out << ", " << name.sysname << " " << name.release;
  return out.str();
}

}  // namespace hamon_perf
