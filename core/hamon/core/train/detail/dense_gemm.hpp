// SPDX-License-Identifier: Apache-2.0
#pragma once
// C = op(A) op(B) on an execution space instance: KokkosBlas::gemm where the build has
// Kokkos Kernels (HAMON_HAVE_KOKKOS_KERNELS), a plain Kokkos kernel otherwise.
//
// Training multiplies matrices of grid values (rbm_parameters.hpp) and +-1 spins, whose
// products and sums are exact in double: every GEMM, blocked or not, on any backend, gives
// the same bits, and the plain kernel (detail/plain_gemm.hpp) is the tests' independent
// oracle for Kokkos Kernels.
//
// Where Kokkos Kernels was built with a host BLAS (KOKKOSKERNELS_ENABLE_TPL_BLAS: the
// provisioned host build calls OpenBLAS), a host space's GEMM is that BLAS's. Exactness
// makes its bits independent of how it blocks and splits the sum over threads; its thread
// count is set to the space's concurrency before each call, so a Serial GEMM stays on one
// thread and an OpenMP one uses the threads the run was given (OMP_NUM_THREADS / --threads),
// not every core.

#include <Kokkos_Core.hpp>
#include <cstdint>

#if defined(HAMON_HAVE_KOKKOS_KERNELS)
#include <KokkosKernels_config.h>

#include <KokkosBlas3_gemm.hpp>
#endif

#if defined(KOKKOSKERNELS_ENABLE_TPL_BLAS)
// OpenBLAS' thread count; a weak reference, null where the BLAS is another one.
extern "C" void openblas_set_num_threads(int) __attribute__((weak));
#endif

#include "hamon/core/train/detail/plain_gemm.hpp"

namespace hamon {

enum class Transpose { no, yes };

/// Which GEMM dense_gemm runs: Kokkos Kernels (where compiled in) or the plain kernel.
enum class GemmKind { kokkos_kernels, plain };

inline constexpr bool kHaveKokkosKernels =
#if defined(HAMON_HAVE_KOKKOS_KERNELS)
    true;
#else
    false;
#endif

/// c = op(a) op(b), enqueued on `space` (views of its memory). Kokkos Kernels before 4.0
/// has no instance overload: its GEMM runs on the space's default instance, so the call is
/// fenced on both sides there.
template <class ExecutionSpace, class AView, class BView, class CView>
void dense_gemm(const ExecutionSpace& space, Transpose ta, Transpose tb, const AView& a,
                const BView& b, const CView& c, GemmKind kind = GemmKind::kokkos_kernels) {
#if defined(HAMON_HAVE_KOKKOS_KERNELS)
  if (kind == GemmKind::kokkos_kernels) {
    const char* op_a = ta == Transpose::yes ? "T" : "N";
    const char* op_b = tb == Transpose::yes ? "T" : "N";
#if defined(KOKKOSKERNELS_ENABLE_TPL_BLAS)
    if constexpr (Kokkos::SpaceAccessibility<Kokkos::HostSpace,
                                             typename ExecutionSpace::memory_space>::accessible) {
      if (openblas_set_num_threads != nullptr) openblas_set_num_threads(space.concurrency());
    }
#endif
#if defined(KOKKOSKERNELS_VERSION) && KOKKOSKERNELS_VERSION >= 40000
    KokkosBlas::gemm(space, op_a, op_b, 1.0, a, b, 0.0, c);
#else
    space.fence();
    KokkosBlas::gemm(op_a, op_b, 1.0, a, b, 0.0, c);
    typename CView::execution_space().fence();
#endif
    return;
  }
#endif
  (void)kind;
  detail::plain_gemm(space, ta == Transpose::yes, tb == Transpose::yes, a, b, c);
}

}  // namespace hamon
