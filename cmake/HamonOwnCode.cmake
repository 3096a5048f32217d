# SPDX-License-Identifier: Apache-2.0
# hamon_own_code(<target>): what every target of hamon's own code is compiled with —
# warnings (errors with HAMON_WARNINGS_AS_ERRORS; dependencies come in as system headers),
# the floating-point flags of cmake/HamonFloatingPoint.cmake, and -march=native when
# HAMON_ENABLE_NATIVE asks for it. All PRIVATE: nothing leaks to code that links hamon.
include(HamonFloatingPoint)

function(hamon_own_code target)
  if(CMAKE_CXX_COMPILER_ID MATCHES "GNU|Clang")
    set(_flags -Wall -Wextra -Wshadow -Wnon-virtual-dtor)
    if(HAMON_WARNINGS_AS_ERRORS)
      list(APPEND _flags -Werror)
    endif()
    # Vector width only: results stay the same with or without it (no reassociation). The
    # binaries then need this machine's instruction set; hamon picks its AVX-512 paths at
    # run time without it.
    if(HAMON_ENABLE_NATIVE)
      list(APPEND _flags -march=native)
    endif()
    target_compile_options(${target} PRIVATE ${_flags})
  endif()
  hamon_floating_point(${target})
endfunction()

# hamon_precompile_headers(<target> [<header>...]): Kokkos and the standard headers that
# hamon's sources include everywhere, parsed once per target instead of once per
# translation unit (30-50 % of a light source's compile time, far less of a kernel's),
# plus the given headers (the tests' gtest). For targets of several sources only: a one-source target would parse
# them once anyway, and pay for the header's own compile. HAMON_PRECOMPILE_HEADERS is on
# where hamon is the top-level project, and never with nvcc_wrapper (a Cuda build). The
# Kokkos compile check configures it off, so every source must still include what it uses.
function(hamon_precompile_headers target)
  if(NOT HAMON_PRECOMPILE_HEADERS OR CMAKE_CXX_COMPILER MATCHES "nvcc_wrapper")
    return()
  endif()
  target_precompile_headers(${target} PRIVATE
    <Kokkos_Core.hpp> <cstdint> <functional> <map> <memory> <optional> <stdexcept> <string>
    <vector> ${ARGN})
endfunction()
