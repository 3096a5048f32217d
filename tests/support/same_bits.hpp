// SPDX-License-Identifier: Apache-2.0
#pragma once
// Bit-identity helpers of the backend and unit tests: the host reference space, and a
// bitwise comparison of result vectors (doubles by bit pattern: -0.0 != 0.0, NaN == same NaN).
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

/// Whether two vectors hold the same bytes (as an assertion result, so that
/// EXPECT_FALSE(same_bits(...)) reads too).
template <class T>
::testing::AssertionResult same_bits(const std::vector<T>& a, const std::vector<T>& b,
                                     const char* what) {
  if (a.size() != b.size()) {
    return ::testing::AssertionFailure() << what << ": sizes " << a.size() << " vs " << b.size();
  }
  // An empty vector's data() may be null, which memcmp must not get.
  if (!a.empty() && std::memcmp(a.data(), b.data(), a.size() * sizeof(T)) != 0) {
    return ::testing::AssertionFailure() << what << " differ";
  }
  return ::testing::AssertionSuccess();
}

template <class T>
void expect_same_bits(const std::vector<T>& a, const std::vector<T>& b, const char* what) {
  EXPECT_TRUE(same_bits(a, b, what));
}

}  // namespace hamon_test
