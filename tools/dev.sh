#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The README's commands. Each is idempotent: dependencies are provisioned once per machine
# (tools/provision-deps.sh, skipped when Kokkos_ROOT is given), the build directory is
# reused, and only what changed is rebuilt.
#
#   tools/dev.sh demo    build, then run the demo experiment (build/bin/hamon)
#   tools/dev.sh test    build, then run the whole test suite with CTest (the presets
#                        build with MPI: tests/mpi runs under mpiexec, 1 to 4 ranks)
#   tools/dev.sh cuda [TARGET...]
#                        build the Cuda variant in build-cuda/ (compiles; runs nothing;
#                        kernel tests for Cuda only, the host build tests the host ones);
#                        given targets, only those; with --device-code (CI), the
#                        library's objects but the host backends' instantiations: every
#                        device kernel, nothing host-only
#   tools/dev.sh asan    build in build-asan/ under ASan + UBSan (-O1: the sanitizers'
#                        usual level, a third less compile time than -O2; no debug info, so
#                        reports name functions, not lines: rebuild with -g1 to read one),
#                        then run the test suite but for what checks
#                        the build system rather than code (install, spack, repo), the
#                        one-thread OpenMP runs (the same code as two threads), and the
#                        longest CLI and statistical tests (cli.train, cli.fuzz, the
#                        examples, cli.stop_signals, cli.checkpoint_resume,
#                        cli.health_verdicts, cli.search, cli.autotune, cli.error_voice, the output
#                        comparison across spaces (cli.same_outputs.*), the
#                        plot tests, cli.interrupted.follow_suggestions, cli.realized_model,
#                        the calibrations over seeds (unit.Calibration,
#                        unit.LogZCoarseGaussian, unit.LogZIsingCalibration, the continuous
#                        node-variance ones), unit.LogZLadders, the LogZ
#                        enumeration, the 20-spin overlap enumeration, the MPI runs on 3 and
#                        4 ranks (1 and 2 ranks stay): long runs of library paths the kernel
#                        and unit tests take under the sanitizers too, and the readers are
#                        fuzzed under them; the host stage runs them all) so that CI fits its
#                        time; its kernel
#                        tests are OpenMP's (Serial's are the same host code); cli.fuzz sets
#                        no address-space cap under ASan; the MPI tests leave Open MPI's own
#                        leaks to tests/mpi/lsan.supp; no benchmarks
#   tools/dev.sh compat  configure build-compat/ (never build/, so the README's build stays
#                        as it is), then compile (syntax only) every translation unit
#                        of the library and the CLI against the headers of Kokkos 4.5.1 +
#                        Kokkos Kernels 4.5.1 (C++17, Serial) and of Kokkos 5.2.2 (C++20,
#                        OpenMP), the benchmarks' against 4.5.1's, the tests' against
#                        5.2.2's, unpacked by provision-deps.sh
#                        kokkos-headers (tools/kokkos_compat.py); builds and runs nothing
#   tools/dev.sh format  clang-format --dry-run -Werror over every C++ file git tracks (the
#                        .cpp.in templates are not C++ until CMake fills them in)
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

# The presets build with Ninja, which keeps both cores of a small machine busy across
# targets (Make finishes a target's objects before it starts a dependent's). A build
# directory configured earlier with another generator cannot be reconfigured in place: its
# cache is dropped (the objects are rebuilt once), so the commands stay idempotent.
forget_other_generator() {
  local dir=$1 cache=$1/CMakeCache.txt
  if [ -f "$cache" ] && ! grep -q '^CMAKE_GENERATOR:INTERNAL=Ninja$' "$cache"; then
    stage "$dir was configured with another generator: configuring it afresh for Ninja"
    rm -rf "$cache" "$dir/CMakeFiles"
  fi
}

# preset_dir PRESET: the build directory CMakePresets.json gives the preset.
preset_dir() {
  python3 -c 'import json, sys
presets = {p["name"]: p for p in json.load(open("CMakePresets.json"))["configurePresets"]}
print(presets[sys.argv[1]]["binaryDir"].replace("${sourceDir}/", ""))' "$1"
}

# device_code_objects PRESET: the objects of the library target `hamon` in the preset's
# (Ninja) build, but the instantiations for the host tier of cmake/HamonBackends.cmake.
device_code_objects() {
  local host
  host=$(sed -n 's/^ *"\([a-z0-9_]*\)|[^"]*|host"$/\1/p' cmake/HamonBackends.cmake | paste -sd '|')
  ninja -C "$(preset_dir "$1")" -t targets all | sed -n 's/^\(CMakeFiles\/hamon\.dir\/[^:]*\.o\): .*/\1/p' |
    grep -Ev "generated/src/[a-z]+_($host)\.cpp\.o$"
}

# configure_and_build PRESET PREFIX [CMAKE_ARGS...] [-- TARGET...]
configure_and_build() {
  local preset=$1 prefix=$2
  shift 2
  local args=() targets=()
  while [ $# -gt 0 ]; do
    if [ "$1" = "--" ]; then
      shift
      targets=(--target "$@")
      break
    fi
    args+=("$1")
    shift
  done
  forget_other_generator "$(preset_dir "$preset")"
  stage "configure ($preset)"
  cmake --preset "$preset" "$(dependency_args "$prefix")" "${args[@]}" >/dev/null
  stage "build ($preset${targets[*]:+: ${targets[*]:1}})"
  cmake --build --preset "$preset" -j "$jobs" "${targets[@]}"
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
    stage "configure (host, in build-compat/)"
    # Without precompiled headers: each source is checked with exactly what it includes.
    forget_other_generator build-compat
    cmake --preset host -B build-compat "$(dependency_args "$prefix")" \
      -DHAMON_PRECOMPILE_HEADERS=OFF >/dev/null
    failed=0
    # The library and the CLI against both; the test sources against the newest Kokkos
    # only, the benchmarks against the oldest only: they use the API surface the library
    # uses, which both checks cover, and checking them twice cost CI about 90 s.
    newest=$(tail -n 1 <<<"$headers")
    while read -r kokkos; do
      stage "compile check against $(basename "$kokkos")"
      scope=(--no-benchmarks)
      if [ "$kokkos" != "$newest" ]; then scope=(--no-tests); fi
      tools/kokkos_compat.py build-compat "$kokkos" --jobs "$jobs" "${scope[@]}" || failed=1
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
    shift
    targets=()
    device_code=0
    if [ "${1:-}" = "--device-code" ]; then
      device_code=1
      targets=(-- hamon_core)
    elif [ $# -gt 0 ]; then
      targets=(-- "$@")
    fi
    configure_and_build cuda "$prefix" -DCMAKE_CXX_COMPILER="$prefix/bin/nvcc_wrapper" \
      -DCMAKE_CXX_FLAGS="-arch=sm_80 -I$prefix/cuda-include" "${targets[@]}"
    if [ "$device_code" = 1 ]; then
      # The rest of the library's objects but the host backends' instantiations
      # (generated/src/*_<host backend>.cpp): nvcc compiles the same templates for Cuda
      # in the accelerator's own, and the host build compiles them for the host backends.
      stage "build (cuda: the library's objects for the accelerator)"
      cmake --build --preset cuda -j "$jobs" --target $(device_code_objects cuda)
    fi
    ;;
  format)
    stage "clang-format check"
    git ls-files -z '*.cpp' '*.hpp' '*.h' | xargs -0 clang-format --dry-run -Werror
    ;;
  *)
    echo "usage: tools/dev.sh demo|test|cuda [TARGET...]|asan|compat|format" >&2
    exit 2
    ;;
esac
stage "done"
