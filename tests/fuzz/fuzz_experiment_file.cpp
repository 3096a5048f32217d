// SPDX-License-Identifier: Apache-2.0
// libFuzzer harness: the experiment parser (YAML -> checked experiment). Any input must
// parse or throw ConfigError (file:line:col and the key); any other exception, a crash or
// a sanitizer report is a finding. Files the experiment names are looked up in a
// directory that does not exist.
#include <string>

#include "config/config_error.hpp"
#include "config/parse_experiment.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  try {
    (void)hamon::cli::parse_experiment_text(std::string(reinterpret_cast<const char*>(data), size),
                                            "fuzz.yaml", "/nonexistent/hamon-fuzz");
  } catch (const hamon::cli::ConfigError&) {
  }
  return 0;
}
