// SPDX-License-Identifier: Apache-2.0
// libFuzzer harness: the calibration file reader (device_crossover's output). Any input
// must read or throw std::runtime_error / std::invalid_argument.
#include <stdexcept>

#include "fuzz_input_file.hpp"
#include "hamon/policies/thresholds.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string& path = hamon::fuzz::write_input("calibration", data, size);
  try {
    (void)hamon::read_calibration(path);
  } catch (const std::runtime_error&) {
  } catch (const std::invalid_argument&) {
  }
  return 0;
}
