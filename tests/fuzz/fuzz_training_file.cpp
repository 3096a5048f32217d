// SPDX-License-Identifier: Apache-2.0
// libFuzzer harness: the training file parser (`hamon train`). Any input must either parse
// or throw ConfigError (a located message); anything else is a finding.
#include <string>

#include "config/training_config.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  try {
    (void)hamon::cli::parse_training_text(text, "input.yaml", ".");
  } catch (const hamon::cli::ConfigError&) {
  }
  return 0;
}
