// SPDX-License-Identifier: Apache-2.0
#pragma once
// dense_gemm's plain kernel (dense_gemm.hpp): one C entry per work item, the inner product
// summed in order, so it is also the tests' independent oracle for Kokkos Kernels.

#include <Kokkos_Core.hpp>
#include <cstdint>

#include "hamon/core/util/launch.hpp"

namespace hamon::detail {

template <class A>
KOKKOS_INLINE_FUNCTION double element(const A& a, bool transposed, std::int64_t i, std::int64_t j) {
  return transposed ? a(j, i) : a(i, j);
}

/// c = op(a) op(b), op transposing where `at` / `bt`.
template <class ExecutionSpace, class AView, class BView, class CView>
void plain_gemm(const ExecutionSpace& space, bool at, bool bt, const AView& a, const BView& b,
                const CView& c) {
  const auto inner = static_cast<std::int64_t>(at ? a.extent(0) : a.extent(1));
  const auto cols = static_cast<std::int64_t>(c.extent(1));
  const std::int64_t entries = static_cast<std::int64_t>(c.extent(0)) * cols;
  launch(
      space, "hamon::plain_gemm", entries, entries * inner, KOKKOS_LAMBDA(const std::int64_t idx) {
        const std::int64_t i = idx / cols;
        const std::int64_t j = idx % cols;
        double sum = 0.0;
        for (std::int64_t k = 0; k < inner; ++k) {
          sum += element(a, at, i, k) * element(b, bt, k, j);
        }
        c(i, j) = sum;
      });
}

}  // namespace hamon::detail
