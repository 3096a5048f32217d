// SPDX-License-Identifier: Apache-2.0
#pragma once
// The readers under fuzz take paths: each input is written to one scratch file per
// process (in HAMON_FUZZ_TMPDIR, else /dev/shm when there is one, else /tmp: a disk file
// costs more than the parse), which the harness then reads.

#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <string>

namespace hamon::fuzz {

inline const std::string& scratch_path(const char* name) {
  static const std::string path = [name] {
    const char* dir = std::getenv("HAMON_FUZZ_TMPDIR");
    const std::string base = dir != nullptr && *dir != '\0'    ? dir
                             : ::access("/dev/shm", W_OK) == 0 ? "/dev/shm"
                                                               : "/tmp";
    return base + "/hamon-fuzz-" + name + "-" + std::to_string(::getpid());
  }();
  return path;
}

inline const std::string& write_input(const char* name, const std::uint8_t* data,
                                      std::size_t size) {
  const std::string& path = scratch_path(name);
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
  return path;
}

}  // namespace hamon::fuzz
