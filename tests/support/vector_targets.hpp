// SPDX-License-Identifier: Apache-2.0
#pragma once
// Runs a check once per instruction set the host kernels' vector path dispatches to on this
// machine (families/detail/host_vectors.hpp), restricted to it, so that every target's code
// is compared with the portable loops; once where no vector path is built (a GPU build).
#include <gtest/gtest.h>

#include <cstdint>

#include "hamon/core/families/detail/host_vectors.hpp"

namespace hamon_test {

template <class F>
void on_every_vector_target(F&& check) {
#if HAMON_HOST_SIMD
  const auto targets = hamon::detail::host_vector_targets();
  ASSERT_FALSE(targets.empty());
  for (const std::int64_t target : targets) {
    SCOPED_TRACE("vector target " + hamon::detail::host_vector_target_name(target));
    hamon::detail::restrict_host_vector_target(target);
    check();
  }
  hamon::detail::restrict_host_vector_target(0);
#else
  check();
#endif
}

}  // namespace hamon_test
