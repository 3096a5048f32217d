// SPDX-License-Identifier: Apache-2.0
#pragma once
// Bit-identity helpers of the backend tests: the host reference space, and a bitwise
// comparison of result vectors (doubles by bit pattern: -0.0 != 0.0, NaN == same NaN).
#include <gtest/gtest.h>

#include <Kokkos_Core.hpp>
#include <cstring>
#include <vector>

namespace hamon_test {

#ifdef KOKKOS_ENABLE_SERIAL
using ReferenceSpace = Kokkos::Serial;
#else
using ReferenceSpace = Kokkos::DefaultHostExecutionSpace;
#endif

template <class T>
void expect_same_bits(const std::vector<T>& a, const std::vector<T>& b, const char* what) {
  ASSERT_EQ(a.size(), b.size()) << what;
  if (a.empty()) return;  // data() may be null
  EXPECT_EQ(0, std::memcmp(a.data(), b.data(), a.size() * sizeof(T))) << what << " differ";
}

}  // namespace hamon_test
