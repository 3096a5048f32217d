// SPDX-License-Identifier: Apache-2.0
// libFuzzer harness: the .npy reader (training data, trained weights). Any input must either
// parse (and then convert to spins or doubles, or say why not) or throw std::runtime_error;
// anything else (a crash, a sanitizer report, another exception) is a finding.
#include <stdexcept>
#include <string>

#include "run/npy_file.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string bytes(reinterpret_cast<const char*>(data), size);
  try {
    const hamon::cli::NpyArray array = hamon::cli::parse_npy(bytes, "input");
    try {
      (void)hamon::cli::npy_spins(array, "input");
    } catch (const std::runtime_error&) {
    }
    (void)hamon::cli::npy_doubles(array, "input");
  } catch (const std::runtime_error&) {
  }
  return 0;
}
