// SPDX-License-Identifier: Apache-2.0
// libFuzzer harness: the graph text reader. Any input must build a model or throw
// hamon::ModelError / std::runtime_error naming the problem.
#include <cstdlib>
#include <stdexcept>

#include "fuzz_input_file.hpp"
#include "hamon/core/model/model_builders.hpp"

// A declared node count costs memory in proportion; HAMON_MEMORY_LIMIT keeps what the
// reader may allocate far below libFuzzer's RSS limit, so a large count is refused
// (the path under test) instead of exhausting the fuzzer.
extern "C" int LLVMFuzzerInitialize(int* /*argc*/, char*** /*argv*/) {
  ::setenv("HAMON_MEMORY_LIMIT", "256M", 1);
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string& path = hamon::fuzz::write_input("graph", data, size);
  try {
    (void)hamon::read_graph_file(path);
  } catch (const hamon::ModelError&) {
  } catch (const std::runtime_error&) {
  }
  return 0;
}
