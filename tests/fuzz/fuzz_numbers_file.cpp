// SPDX-License-Identifier: Apache-2.0
// libFuzzer harness: the numbers file reader (RBM weights and biases). Any input must
// either read or throw std::runtime_error; anything else (a crash, a sanitizer report,
// another exception) is a finding.
#include <stdexcept>

#include "fuzz_input_file.hpp"
#include "run/numbers_file.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string& path = hamon::fuzz::write_input("numbers", data, size);
  try {
    (void)hamon::cli::read_numbers_file(path);
  } catch (const std::runtime_error&) {
  }
  return 0;
}
