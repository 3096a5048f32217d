// SPDX-License-Identifier: Apache-2.0
// libFuzzer harness: the QUBO and MAX-CUT (G-set) file readers (model.kind qubo / maxcut).
// The first byte picks the format. Any input must either read or throw ConfigError (a
// located message); anything else (a crash, a sanitizer report, another exception) is a
// finding.
#include "config/config_error.hpp"
#include "config/objective_file.hpp"
#include "fuzz_input_file.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const auto format =
      (data[0] & 1) != 0 ? hamon::cli::ObjectiveFormat::maxcut : hamon::cli::ObjectiveFormat::qubo;
  const std::string& path = hamon::fuzz::write_input("objective", data + 1, size - 1);
  try {
    (void)hamon::cli::read_objective_file(path, format);
  } catch (const hamon::cli::ConfigError&) {
  }
  return 0;
}
