# SPDX-License-Identifier: Apache-2.0
# Finds hamon's dependencies. Everything is found with find_package first, so an
# existing install (Spack, a site Kokkos via Kokkos_ROOT / CMAKE_PREFIX_PATH, or a parent
# project that already defines Kokkos::kokkos) is always used as it is. The prefix that
# tools/provision-deps.sh fills is only a last-resort hint.

set(HAMON_DEPS_VARIANT "host" CACHE STRING "Provisioned dependency variant to fall back on (host|cuda)")
if(DEFINED ENV{HAMON_DEPS_DIR})
  set(_hamon_deps_root "$ENV{HAMON_DEPS_DIR}")
elseif(DEFINED ENV{XDG_CACHE_HOME})
  set(_hamon_deps_root "$ENV{XDG_CACHE_HOME}/hamon/deps")
else()
  set(_hamon_deps_root "$ENV{HOME}/.cache/hamon/deps")
endif()
set(_hamon_deps_hint "${_hamon_deps_root}/${HAMON_DEPS_VARIANT}")

if(NOT TARGET Kokkos::kokkos)
  find_package(Kokkos 3.4 QUIET)
  if(NOT Kokkos_FOUND)
    find_package(Kokkos 3.4 QUIET PATHS "${_hamon_deps_hint}" NO_DEFAULT_PATH)
  endif()
  if(NOT Kokkos_FOUND)
    message(FATAL_ERROR
      "hamon: Kokkos (>= 3.4) was not found.\n"
      "  Point CMake at an existing install with -DKokkos_ROOT=... or CMAKE_PREFIX_PATH,\n"
      "  or build the pinned one with: tools/provision-deps.sh ${HAMON_DEPS_VARIANT}\n"
      "  (it installs into ${_hamon_deps_hint}, which this build then finds by itself).")
  endif()
endif()
message(STATUS "hamon: Kokkos ${Kokkos_VERSION} from ${Kokkos_DIR}")

option(HAMON_ENABLE_KOKKOS_KERNELS
       "RBM training's GEMMs through Kokkos Kernels (off or not found: a plain Kokkos kernel)" ON)
set(HAMON_HAVE_KOKKOS_KERNELS OFF)
if(HAMON_ENABLE_KOKKOS_KERNELS)
  if(NOT TARGET Kokkos::kokkoskernels)
    find_package(KokkosKernels QUIET)
    if(NOT KokkosKernels_FOUND)
      find_package(KokkosKernels QUIET PATHS "${_hamon_deps_hint}" NO_DEFAULT_PATH)
    endif()
  endif()
  if(TARGET Kokkos::kokkoskernels)
    set(HAMON_HAVE_KOKKOS_KERNELS ON)
    message(STATUS "hamon: Kokkos Kernels ${KokkosKernels_VERSION} from ${KokkosKernels_DIR}")
  else()
    message(STATUS "hamon: Kokkos Kernels not found: training's GEMMs use a plain Kokkos kernel")
  endif()
endif()

set(_hamon_imported_here "")
foreach(_target IN ITEMS Random123::Random123 ZLIB::ZLIB MPI::MPI_CXX)
  if(NOT TARGET ${_target})
    list(APPEND _hamon_imported_here ${_target})
  endif()
endforeach()
find_package(Random123 REQUIRED) # cmake/FindRandom123.cmake: header-only, in public headers
find_package(ZLIB REQUIRED)      # crc32 of checkpoint sections (Debian: zlib1g-dev), private
if(HAMON_ENABLE_MPI)             # public: hamon/policies/mpi_exchange.hpp includes mpi.h
  # hamon calls MPI's C API only: mpi.h without the deprecated MPI-2 C++ bindings
  # (OMPI_SKIP_MPICXX / MPICH_SKIP_MPICXX on MPI::MPI_CXX).
  set(MPI_CXX_SKIP_MPICXX ON CACHE BOOL "Disable the MPI-2 C++ bindings")
  find_package(MPI 3.0 REQUIRED COMPONENTS CXX) # Debian: libopenmpi-dev
endif()
# Highway: the one vector layer of the host kernels, compiled for several instruction sets
# and dispatched at run time (families/detail/host_vectors.hpp). Private to hamon::core: no
# public header includes it. Not in an nvcc build (nvcc's front end does not take Highway's
# per-target attributes): there the host spaces run the portable loops.
option(HAMON_ENABLE_HOST_SIMD "Host kernels in vector registers through Highway" ON)
set(HAMON_HOST_SIMD OFF)
if(HAMON_ENABLE_HOST_SIMD AND NOT CMAKE_CXX_COMPILER MATCHES "nvcc_wrapper")
  if(NOT TARGET hwy::hwy)
    list(APPEND _hamon_imported_here hwy::hwy)
    find_package(hwy 1.0 REQUIRED CONFIG) # Debian: libhwy-dev; Spack: highway
  endif()
  set(HAMON_HOST_SIMD ON)
  message(STATUS "hamon: host vector kernels through Highway ${hwy_VERSION}")
else()
  message(STATUS "hamon: host kernels without Highway (portable loops)")
endif()
if(NOT HAMON_TOP_LEVEL)
  # In a parent project (add_subdirectory), targets linking hamon::hamon live in the
  # parent's directories: the imported targets hamon's link interface names must be
  # visible there too.
  foreach(_target IN LISTS _hamon_imported_here)
    if(TARGET ${_target}) # MPI::MPI_CXX only with HAMON_ENABLE_MPI
      set_target_properties(${_target} PROPERTIES IMPORTED_GLOBAL TRUE)
    endif()
  endforeach()
endif()
if(HAMON_ENABLE_APPS)            # the CLI's own: experiment files and options
  find_package(yaml-cpp REQUIRED)
  if(TARGET yaml-cpp::yaml-cpp)
    set(HAMON_YAML_TARGET yaml-cpp::yaml-cpp)
  else()
    set(HAMON_YAML_TARGET yaml-cpp) # yaml-cpp 0.7 exports an unnamespaced target
  endif()
  find_package(CLI11 REQUIRED)
endif()
if(BUILD_TESTING)
  find_package(GTest REQUIRED)
endif()
if(HAMON_ENABLE_PERF)
  find_package(benchmark QUIET)
endif()

