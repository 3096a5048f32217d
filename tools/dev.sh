#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The README's commands. Each is idempotent: dependencies are provisioned once per machine
# (tools/provision-deps.sh, skipped when Kokkos_ROOT is given), the build directory is
# reused, and only what changed is rebuilt.
#
#   tools/dev.sh demo    build, then run the demo experiment (build/bin/hamon)
#   tools/dev.sh test    build, then run the whole test suite with CTest (the presets
#                        build with MPI: tests/mpi runs under mpiexec, 1 to 4 ranks)
#   tools/dev.sh cuda    build the Cuda variant in build-cuda/ (compiles; runs nothing;
#                        kernel tests for Cuda only, the host build tests the host ones;
#                        HAMON_CUDA_PERF=OFF: without the benchmarks)
#   tools/dev.sh asan    build in build-asan/ under ASan + UBSan (-O2 -g1: line tables are
#                        all the reports need), then run the whole test
#                        suite (cli.fuzz sets no address-space cap under ASan;
#                        install.downstream builds with the build's sanitizer flags;
#                        the MPI tests leave Open MPI's own leaks to tests/mpi/lsan.supp;
#                        no benchmarks: their speed under ASan means nothing)
#   tools/dev.sh compat  configure build/, then compile (syntax only) every translation unit
#                        of the library, the CLI, the tests and the benchmarks against the
#                        headers of Kokkos 4.5.1 + Kokkos Kernels 4.5.1 (C++17, Serial) and
#                        of Kokkos 5.2.2 (C++20, OpenMP), unpacked by provision-deps.sh
#                        kokkos-headers (tools/kokkos_compat.py); builds and runs nothing
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

jobs=${HAMON_BUILD_JOBS:-$(nproc)}
stage_start=$(date +%s)
stage() {
  local now
  now=$(date +%s)
  echo "== [$((now - stage_start)) s] $*" >&2
}

# Where Kokkos comes from: the caller's install (Kokkos_ROOT), or the provisioned prefix.
dependency_args() {
  local prefix=$1
  if [ -n "${Kokkos_ROOT:-}" ]; then
    echo "-DKokkos_ROOT=$Kokkos_ROOT"
  else
    echo "-DCMAKE_PREFIX_PATH=$prefix"
  fi
}

provisioned_prefix() {
  local variant=$1
  stage "dependencies ($variant)"
  if [ -n "${Kokkos_ROOT:-}" ]; then echo ""; else tools/provision-deps.sh "$variant"; fi
}

configure_and_build() {
  local preset=$1 prefix=$2
  shift 2
  stage "configure ($preset)"
  cmake --preset "$preset" "$(dependency_args "$prefix")" "$@" >/dev/null
  stage "build ($preset)"
  cmake --build --preset "$preset" -j "$jobs"
}

command=${1:-}
case "$command" in
  demo)
    prefix=$(provisioned_prefix host) # an assignment, so a failed provisioning stops here
    configure_and_build host "$prefix"
    stage "demo"
    build/bin/hamon demo
    ;;
  test)
    prefix=$(provisioned_prefix host) # an assignment, so a failed provisioning stops here
    configure_and_build host "$prefix"
    stage "tests"
    ctest --preset host
    ;;
  asan)
    prefix=$(provisioned_prefix host)
    configure_and_build asan "$prefix"
    stage "tests (asan)"
    ctest --preset asan
    ;;
  compat)
    prefix=$(provisioned_prefix host)
    stage "dependencies (kokkos-headers)"
    headers=$(tools/provision-deps.sh kokkos-headers) # Kokkos 4.5 and 5.2, one a line
    stage "configure (host)"
    cmake --preset host "$(dependency_args "$prefix")" >/dev/null
    failed=0
    while read -r kokkos; do
      stage "compile check against $(basename "$kokkos")"
      tools/kokkos_compat.py build "$kokkos" --jobs "$jobs" || failed=1
    done <<<"$headers"
    if [ "$failed" -ne 0 ]; then
      stage "compile check failed"
      exit 1
    fi
    ;;
  cuda)
    prefix=$(provisioned_prefix cuda)
    # -arch=sm_80 also for CMake's compiler check (nvcc_wrapper's default sm_35 is rejected
    # by CUDA 11.8); the -I shadows another toolkit's headers (see provision-deps.sh).
    # HAMON_CUDA_PERF=OFF leaves the benchmarks out (CI: perf/ defines no kernels, it calls
    # the library, whose kernels the library and the Cuda test binary compile).
    configure_and_build cuda "$prefix" -DCMAKE_CXX_COMPILER="$prefix/bin/nvcc_wrapper" \
      -DCMAKE_CXX_FLAGS="-arch=sm_80 -I$prefix/cuda-include" \
      -DHAMON_ENABLE_PERF="${HAMON_CUDA_PERF:-ON}"
    ;;
  *)
    echo "usage: tools/dev.sh demo|test|cuda|asan|compat" >&2
    exit 2
    ;;
esac
stage "done"
