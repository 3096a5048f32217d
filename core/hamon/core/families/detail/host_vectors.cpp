// SPDX-License-Identifier: Apache-2.0
#include "hamon/core/families/detail/host_vectors.hpp"

#if HAMON_HOST_SIMD
#include <hwy/targets.h>

namespace hamon::detail {

std::vector<std::int64_t> host_vector_targets() {
  return hwy::SupportedAndGeneratedTargets();
}

std::string host_vector_target_name(std::int64_t target) {
  return hwy::TargetName(target);
}

void restrict_host_vector_target(std::int64_t target) {
  hwy::SetSupportedTargetsForTest(target);
}

}  // namespace hamon::detail
#endif
