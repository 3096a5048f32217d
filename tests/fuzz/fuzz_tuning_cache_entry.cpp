// SPDX-License-Identifier: Apache-2.0
// libFuzzer harness: tuning-cache entries. The input is the file of the entry for a fixed
// key; load() must return a record or nullopt (with a warning) and never throw. An input
// whose first byte is even gets a valid checksum line appended (the entry's last line
// covers every byte before it), so that the fuzzer reaches the fields behind it; an odd
// one is stored as it is.
#include <filesystem>
#include <iostream>
#include <string>

#include "fuzz_input_file.hpp"
#include "hamon/core/model/fingerprint.hpp"
#include "hamon/policies/tuning_cache.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const std::filesystem::path directory = [] {
    std::filesystem::path d = hamon::fuzz::scratch_path("tuning-cache");
    std::filesystem::create_directories(d);
    std::cerr.rdbuf(nullptr);  // load() warns on std::cerr about every bad entry
    return d;
  }();
  static const hamon::TuningCache cache(directory);
  static const std::string key = "model fuzz\nchains 8";
  if (size == 0) return 0;
  std::string text(reinterpret_cast<const char*>(data) + 1, size - 1);
  if (data[0] % 2 == 0) {
    text += "checksum " +
            hamon::to_hex(hamon::Fingerprint().add_bytes(text.data(), text.size()).value()) + "\n";
  }
  {
    std::ofstream out(cache.entry_path(key), std::ios::binary | std::ios::trunc);
    out << text;
  }
  (void)cache.load(key);
  return 0;
}
