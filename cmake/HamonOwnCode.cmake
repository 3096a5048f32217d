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
