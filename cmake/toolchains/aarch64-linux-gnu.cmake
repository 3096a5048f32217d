# SPDX-License-Identifier: Apache-2.0
# Cross-compiling for 64-bit ARM Linux with Debian's cross compiler (g++-aarch64-linux-gnu)
# against Debian's arm64 multiarch packages (libhwy-dev:arm64, zlib1g-dev:arm64,
# libgtest-dev:arm64 under /usr/lib/aarch64-linux-gnu), for tools/arm-check.sh. Programs
# built with it run under user-mode QEMU: CMake (and CTest) call them through the emulator.
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR aarch64)
set(CMAKE_C_COMPILER aarch64-linux-gnu-gcc)
set(CMAKE_CXX_COMPILER aarch64-linux-gnu-g++)
# Debian's arm64 libraries are multiarch (/usr/lib/aarch64-linux-gnu), not in a sysroot:
# the architecture subdirectory is what keeps find_package away from the x86 ones.
set(CMAKE_LIBRARY_ARCHITECTURE aarch64-linux-gnu)
# -cpu max: every extension QEMU emulates (SVE and SVE2 among them), so Highway's dispatch
# sees the most it can; the loader and libraries of the cross toolchain's prefix.
set(CMAKE_CROSSCOMPILING_EMULATOR qemu-aarch64 -cpu max -L /usr/aarch64-linux-gnu)
