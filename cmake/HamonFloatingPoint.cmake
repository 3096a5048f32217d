# SPDX-License-Identifier: Apache-2.0
# hamon_floating_point(<target>): the floating-point flags hamon's kernels are compiled with.
#
# Bit-identical results on every execution space need the same floating-point operations
# everywhere: no fused multiply-add contraction on the host (-ffp-contract=off) or on the
# GPU (--fmad=false for nvcc). hamon applies them to its own targets only (PRIVATE), so an
# application that links hamon::hamon keeps its own flags. An application that
# instantiates hamon's kernel templates itself (the kernel headers under hamon/core/families/) calls
# this function on that target, so its instantiations give hamon's bits too; installed
# with the package (find_package(hamon) defines it).
function(hamon_floating_point target)
  if(Kokkos_ENABLE_CUDA)
    target_compile_options(${target} PRIVATE --fmad=false)
  endif()
  if(CMAKE_CXX_COMPILER_ID MATCHES "GNU|Clang")
    target_compile_options(${target} PRIVATE -ffp-contract=off)
  endif()
endfunction()
