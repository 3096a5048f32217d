// SPDX-License-Identifier: Apache-2.0
// libFuzzer harness: the checkpoint reader (hamon/core/sampler/checkpoint.hpp), the one reader of
// binary input. Any input must either read or throw CheckpointError; what reads must write
// back to the same bytes' meaning (written again, it reads to an equal encoding). Anything
// else (a crash, a sanitizer report, another exception, an absurd allocation) is a finding.
#include <cstdint>
#include <cstdlib>
#include <sstream>
#include <string>

#include "hamon/core/sampler/checkpoint.hpp"

namespace {

std::string encoded(const hamon::Checkpoint& c) {
  std::ostringstream out;
  hamon::write_checkpoint(out, c);
  return out.str();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::istringstream in(std::string(reinterpret_cast<const char*>(data), size));
  try {
    const hamon::Checkpoint c = hamon::read_checkpoint(in, "fuzz input");
    const std::string once = encoded(c);
    std::istringstream again(once);
    if (encoded(hamon::read_checkpoint(again, "re-encoded")) != once) std::abort();
  } catch (const hamon::CheckpointError&) {
  }
  return 0;
}
