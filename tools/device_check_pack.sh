#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# tools/device_check_pack.sh BUILD DEST BINARY...: the BINARYs of BUILD/bin, stripped, into
# DEST/bin, and the shared libraries they load beyond glibc's and the C++ runtime's into
# DEST/lib: what tools/device-check.sh --build DEST needs on a machine that cannot build
# hamon (a lent GPU machine has no network for tools/provision-deps.sh, and its CUDA is not
# the Debian toolkit the Cuda variant is built with, so libcudart 11.8 travels along).
# Called by tools/device-check.sh --pack.
set -euo pipefail
[ $# -ge 3 ] || {
  echo "usage: tools/device_check_pack.sh BUILD DEST BINARY..." >&2
  exit 2
}
build=$1 dest=$2
shift 2
mkdir -p "$dest/bin" "$dest/lib"
for binary in "$@"; do
  if [ ! -x "$build/bin/$binary" ]; then
    echo "device-check --pack: no $build/bin/$binary (build it first: tools/dev.sh cuda $*)" >&2
    exit 1
  fi
  cp "$build/bin/$binary" "$dest/bin/$binary"
  strip --strip-unneeded "$dest/bin/$binary"
  # ldd's "name => path (address)" lines; the C library, the loader and the compiler's
  # runtimes are the machine's own (newer ones run these binaries too).
  ldd "$build/bin/$binary" | awk '$2 == "=>" && $3 ~ /^\// { print $3 }' |
    grep -Ev '/(libc|libm|libdl|libpthread|librt|libgcc_s|libstdc\+\+|ld-linux[^/]*)\.so' |
    while read -r lib; do cp -L "$lib" "$dest/lib/$(basename "$lib")"; done
done
# Where the binaries came from: a lent machine's checkout may be another commit.
{
  echo "packed from $build on $(date -u +%FT%TZ) at commit $(git -C "$(dirname "$0")" rev-parse HEAD 2>/dev/null || echo '?')"
  grep -E '^(CMAKE_BUILD_TYPE|CMAKE_CXX_COMPILER|CMAKE_CXX_FLAGS|HAMON_[A-Z_]+|Kokkos_DIR):' \
    "$build/CMakeCache.txt" 2>/dev/null || true
} >"$dest/build-settings.txt"
du -sh "$dest" >&2
echo "device-check --pack: carry $dest (bin/: $*; lib/: $(cd "$dest/lib" && echo *))" >&2
