#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The host kernels on 64-bit ARM, bit for bit against x86, without an ARM machine:
# cross-compiled with Debian's g++-aarch64-linux-gnu and run under user-mode QEMU.
#
#   tools/arm-check.sh            prints the digests and "arm-check: same bits" or fails
#
# 1. tools/provision-deps.sh arm64 (the cross compiler, qemu-user, Highway / zlib /
#    GoogleTest for arm64, Kokkos 3.4.01 Serial-only cross-built into <deps>/arm64) and
#    tools/provision-deps.sh host (the native Kokkos); both reuse what they built.
# 2. build-arm/aarch64: hamon::core and the two programs of tests/vector, cross-compiled
#    (cmake/toolchains/aarch64-linux-gnu.cmake; no policies/, CLI, MPI or Kokkos Kernels);
#    build-arm/x86: hamon_vector_digest natively, configured as the host preset is.
# 3. Under qemu-aarch64 -cpu max (every extension QEMU emulates, SVE and SVE2 among them):
#    hamon_vector_tests (the vector-vs-portable kernel tests on every target dispatched to),
#    then hamon_vector_digest on both architectures (each also checks all of its own
#    kernels and targets against its portable loops); the digests, less the '#' lines that
#    name the machine, must be the same. They are kept in build-arm/digest-<arch>.txt.
# Every build directory is reused: a second run rebuilds only what changed.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
jobs=${HAMON_BUILD_JOBS:-$(nproc)}
started=$SECONDS
step() { echo "arm-check [$((SECONDS - started)) s]: $*" >&2; }

step "provisioning (tools/provision-deps.sh arm64, host)"
arm_deps=$(tools/provision-deps.sh arm64 | tail -n 1)
host_deps=$(tools/provision-deps.sh host | tail -n 1)

launcher=()
if command -v ccache >/dev/null; then launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache); fi
# What neither build needs: the CLI, benchmarks, MPI, install rules, Kokkos Kernels
# (training's GEMMs), precompiled headers (each program is one or a few sources).
common=(-DCMAKE_BUILD_TYPE=Release -DHAMON_ENABLE_APPS=OFF -DHAMON_ENABLE_PERF=OFF
  -DHAMON_ENABLE_MPI=OFF -DHAMON_ENABLE_INSTALL=OFF -DHAMON_ENABLE_KOKKOS_KERNELS=OFF
  -DHAMON_PRECOMPILE_HEADERS=OFF "${launcher[@]}")

step "configuring and building build-arm/aarch64 (cross)"
cmake -S . -B build-arm/aarch64 --log-level=WARNING "${common[@]}" \
  -DCMAKE_TOOLCHAIN_FILE="$root/cmake/toolchains/aarch64-linux-gnu.cmake" \
  -DHAMON_DEPS_VARIANT=arm64 -DCMAKE_PREFIX_PATH="$arm_deps" >/dev/null
cmake --build build-arm/aarch64 -j "$jobs" --target hamon_vector_digest hamon_vector_tests

step "configuring and building build-arm/x86 (native)"
cmake -S . -B build-arm/x86 --log-level=WARNING "${common[@]}" \
  -DHAMON_ENABLE_NATIVE=ON -DHAMON_DEPS_VARIANT=host -DCMAKE_PREFIX_PATH="$host_deps" >/dev/null
cmake --build build-arm/x86 -j "$jobs" --target hamon_vector_digest

qemu=(qemu-aarch64 -cpu max -L /usr/aarch64-linux-gnu)
step "$(qemu-aarch64 --version | head -n 1); $(aarch64-linux-gnu-g++ --version | head -n 1)"
step "kernel tests under ${qemu[*]}"
"${qemu[@]}" build-arm/aarch64/bin/hamon_vector_tests --gtest_brief=1

step "digests"
# The native Kokkos has OpenMP, which warns on stdout when OMP_PROC_BIND is unset; the
# digests run on the Serial space, so one thread and no binding.
OMP_NUM_THREADS=1 OMP_PROC_BIND=false build-arm/x86/bin/hamon_vector_digest |
  tee build-arm/digest-x86_64.txt
"${qemu[@]}" build-arm/aarch64/bin/hamon_vector_digest | tee build-arm/digest-aarch64.txt
digest_lines() { grep -v '^#' "build-arm/digest-$1.txt"; }
if [ "$(digest_lines x86_64 | grep -c '^all ')" != 1 ] ||
  ! diff <(digest_lines x86_64) <(digest_lines aarch64) >&2; then
  step "the digests differ (above: < x86_64, > aarch64)"
  exit 1
fi
step "same bits on x86_64 and aarch64"
