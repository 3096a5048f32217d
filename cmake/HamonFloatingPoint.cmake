# Bit-identical results on every execution space need the same floating-point operations
# everywhere: no fused multiply-add contraction on the host (-ffp-contract=off) or on the
# GPU (--fmad=false). PUBLIC, since users instantiate hamon's kernel templates too.
if(Kokkos_ENABLE_CUDA)
  target_compile_options(hamon PUBLIC --fmad=false)
endif()
if(CMAKE_CXX_COMPILER_ID MATCHES "GNU|Clang")
  target_compile_options(hamon PUBLIC -ffp-contract=off)
endif()
# Vector width only: results stay the same with or without it (no reassociation).
if(HAMON_ENABLE_NATIVE AND CMAKE_CXX_COMPILER_ID MATCHES "GNU|Clang")
  target_compile_options(hamon PUBLIC -march=native)
endif()
