#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Provision hamon's dependencies on a Debian-like machine.
#
#   tools/provision-deps.sh [host|cuda|arm64]   prints the install prefix on stdout
#
# - Debian packages (yaml-cpp, GoogleTest, Google Benchmark, Random123, CLI11, Highway, ...)
#   are installed only when missing.
# - Kokkos and Kokkos Kernels 3.4.01 come from Debian's `trilinos` source package:
#   only packages/kokkos and packages/kokkos-kernels are extracted, built and installed
#   into a prefix outside the checkout, reused by every later build and every clone:
#     ${HAMON_DEPS_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/hamon/deps}/<variant>
#   The host variant's Kokkos Kernels calls Debian's OpenBLAS for host GEMMs (its BLAS
#   TPL; training's GEMMs, core/hamon/core/train/detail/dense_gemm.hpp); the Cuda variant's does
#   not (its GEMMs run on the device). Kokkos Kernels is stamped with a hash of its
#   configuration, so a changed configuration rebuilds it (not Kokkos) in an existing prefix.
# - deb-src and the non-free component (CUDA toolkit) are reached through a private
#   apt configuration derived from the machine's own sources; no host is named here.
#
# The `arm64` variant cross-builds for 64-bit ARM (tools/arm-check.sh): Debian's
# g++-aarch64-linux-gnu and qemu-user, and the arm64 multiarch packages of Highway, zlib and
# GoogleTest (dpkg --add-architecture arm64); Kokkos is built Serial only with
# cmake/toolchains/aarch64-linux-gnu.cmake, without Kokkos Kernels.
# The `fuzz` variant installs clang and its libFuzzer / sanitizer runtimes only.
# The `cuda` variant adds Debian's nvidia-cuda-toolkit (11.8) with g++-11 as host
# compiler and builds Kokkos with Cuda (AMPERE80, lambdas) through nvcc_wrapper.
# The `kokkos-headers` variant unpacks newer Kokkos headers for a compile-only check
# (tools/dev.sh compat), from the binary -dev packages of Debian's unstable suite (sid),
# reached through a second private apt configuration derived the same way:
#   <deps>/kokkos-4.5  libtrilinos-kokkos-dev + libtrilinos-kokkos-kernels-dev (Kokkos and
#                      Kokkos Kernels 4.5.1, Serial only, C++17)
#   <deps>/kokkos-5.2  libkokkos-dev (Kokkos 5.2.2, OpenMP only, C++20)
# and prints both prefixes, one a line. Each package comes with the -dev packages it
# depends on (their headers); the shared libraries are left out, as nothing links against
# them (they need a newer glibc than Debian 12's).
set -euo pipefail

variant=${1:-host}
case "$variant" in host | cuda | arm64 | fuzz | kokkos-headers) ;; *)
  echo "provision-deps: unknown variant '$variant' (expected host, cuda, arm64, fuzz or kokkos-headers)" >&2
  exit 2
  ;;
esac

deps_root=${HAMON_DEPS_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/hamon/deps}
prefix="$deps_root/$variant"
kokkos_version=3.4.01
stamp="$prefix/.hamon-deps-$kokkos_version"
jobs=${HAMON_BUILD_JOBS:-$(nproc)}

log() { echo "provision-deps[$variant]: $*" >&2; }

mkdir -p "$deps_root"
exec 9>"$deps_root/.lock"
flock 9 # one provisioning at a time per machine

sudo_cmd=()
if [ "$(id -u)" -ne 0 ]; then sudo_cmd=(sudo); fi

# --- private apt configurations derived from the machine's own sources ---------------
# apt_opts: the machine's suites, with deb-src and the non-free component (CUDA toolkit).
# newer_apt_opts: the unstable suite (sid) of the machine's main archive, binaries only,
# with its own lists and cache (for `apt-get download`; nothing is installed from it).
apt_state="$deps_root/apt"
apt_opts=(-o "Dir::Etc::SourceList=/dev/null"
  -o "Dir::Etc::SourceParts=$apt_state/sources.list.d"
  -o "Dir::State::Lists=$apt_state/lists")
newer_suite=sid
newer_apt_state="$deps_root/apt-$newer_suite"
newer_apt_opts=(-o "Dir::Etc::SourceList=/dev/null"
  -o "Dir::Etc::SourceParts=$newer_apt_state/sources.list.d"
  -o "Dir::State::Lists=$newer_apt_state/lists" -o "Dir::Cache=$newer_apt_state/cache")
if [ "$(id -u)" -eq 0 ]; then newer_apt_opts+=(-o "APT::Sandbox::User=root"); fi

# write_private_sources STATE_DIR TYPES [SUITE]: deb822 entries for every source of the
# machine, with Types: TYPES and the non-free and contrib components; given SUITE, only the
# main archive's entries (a suite without '-': not -updates, not -security), asking for
# SUITE instead.
write_private_sources() {
  local state=$1 types=$2 suite=${3:-}
  mkdir -p "$state/sources.list.d" "$state/lists/partial"
  local out="$state/sources.list.d/hamon.sources"
  : >"$out.tmp"
  local f
  for f in /etc/apt/sources.list.d/*.sources; do
    [ -e "$f" ] || continue
    # deb822 stanzas (blank-line separated), rewritten one stanza at a time.
    awk -v types="$types" -v suite="$suite" '
      function flush() { if (n > 0 && keep) { for (k = 1; k <= n; k++) print buf[k]; print "" } n = 0; keep = 1 }
      BEGIN { n = 0; keep = 1 }
      /^[ \t]*$/ { flush(); next }
      /^Types:/      { buf[++n] = "Types: " types; next }
      /^Components:/ { line=$0; if (line !~ / non-free( |$)/) line=line " non-free";
                       if (line !~ / contrib( |$)/) line=line " contrib"; buf[++n] = line; next }
      /^Suites:/ && suite != "" { main = 0; for (k = 2; k <= NF; k++) if ($k !~ /-/) main = 1;
                       if (!main) keep = 0; buf[++n] = "Suites: " suite; next }
      { buf[++n] = $0 }
      END { flush() }' "$f" >>"$out.tmp"
  done
  local list
  for list in /etc/apt/sources.list /etc/apt/sources.list.d/*.list; do
    [ -e "$list" ] || continue
    # one-line format: "deb [opts] URI suite components..."
    awk -v types="$types" -v newsuite="$suite" '
      $1 == "deb" {
        i = 2; opts = "";
        if ($2 ~ /^\[/) { while ($i !~ /\]$/) { opts = opts " " $i; i++ } opts = opts " " $i; i++ }
        uri = $i; suite = $(i+1); comps = "";
        if (newsuite != "") { if (suite ~ /-/) next; suite = newsuite }
        for (k = i + 2; k <= NF; k++) comps = comps " " $k;
        if (comps !~ / non-free( |$)/) comps = comps " non-free";
        if (comps !~ / contrib( |$)/) comps = comps " contrib";
        signed = "";
        if (opts ~ /signed-by=/) { s = opts; sub(/.*signed-by=/, "", s); sub(/[ \]].*/, "", s); signed = s }
        print "Types: " types; print "URIs: " uri; print "Suites: " suite;
        print "Components:" comps; if (signed != "") print "Signed-By: " signed; print "";
      }' "$list" >>"$out.tmp"
  done
  if ! grep -q '^URIs:' "$out.tmp"; then
    log "found no apt sources in /etc/apt to derive private apt entries from"
    exit 1
  fi
  mv "$out.tmp" "$out"
}

private_apt_update() {
  if [ ! -f "$apt_state/.updated" ] || [ -n "$(find "$apt_state/.updated" -mmin +1440 2>/dev/null)" ]; then
    write_private_sources "$apt_state" "deb deb-src"
    log "apt-get update (private configuration with deb-src and non-free)"
    "${sudo_cmd[@]}" apt-get "${apt_opts[@]}" update -qq >&2
    touch "$apt_state/.updated"
  fi
}

newer_apt_update() {
  if [ ! -f "$newer_apt_state/.updated" ] || [ -n "$(find "$newer_apt_state/.updated" -mmin +1440 2>/dev/null)" ]; then
    write_private_sources "$newer_apt_state" "deb" "$newer_suite"
    mkdir -p "$newer_apt_state/cache/archives/partial"
    log "apt-get update (private configuration: suite $newer_suite, binaries only)"
    apt-get "${newer_apt_opts[@]}" update -qq >&2
    touch "$newer_apt_state/.updated"
  fi
}

# --- Debian packages -------------------------------------------------------------------
missing_packages() {
  local p
  for p in "$@"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || echo "$p"
  done
}

install_packages() {
  local missing
  missing=$(missing_packages "$@")
  [ -n "$missing" ] || return 0
  private_apt_update
  log "apt-get install $(echo $missing)"
  # shellcheck disable=SC2086
  DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get "${apt_opts[@]}" install -y -qq \
    --no-install-recommends $missing >&2
}

common_packages=(build-essential cmake ninja-build git pkg-config dpkg-dev xz-utils
  libyaml-cpp-dev libgtest-dev libgmock-dev libbenchmark-dev librandom123-dev libcli11-dev zlib1g-dev
  libhwy-dev
  libopenmpi-dev openmpi-bin
  python3 python3-numpy python3-matplotlib python3-yaml
  python3-dev python3-pybind11 python3-pytest # the Python module hamon_kokkos and its tests
  strace) # tests/cli counts a run's checkpoint writes and injects fsync failures with it
host_packages=(libopenblas-dev) # Kokkos Kernels' BLAS TPL (host GEMMs)
cuda_packages=(nvidia-cuda-toolkit g++-11)
arm64_packages=(g++-aarch64-linux-gnu qemu-user
  libhwy-dev:arm64 zlib1g-dev:arm64 libgtest-dev:arm64)
fuzz_packages=(clang libclang-rt-14-dev libomp-14-dev) # libFuzzer, sanitizers, OpenMP

install_packages "${common_packages[@]}"
if [ "$variant" = host ]; then install_packages "${host_packages[@]}"; fi
if [ "$variant" = cuda ]; then install_packages "${cuda_packages[@]}"; fi
if [ "$variant" = arm64 ]; then
  if ! dpkg --print-foreign-architectures | grep -qx arm64; then
    log "dpkg --add-architecture arm64"
    "${sudo_cmd[@]}" dpkg --add-architecture arm64
    rm -f "$apt_state/.updated" # the package lists must now include arm64's
  fi
  install_packages "${arm64_packages[@]}"
fi
if [ "$variant" = fuzz ]; then # the packages only: the harnesses build without Kokkos
  install_packages "${fuzz_packages[@]}"
  exit 0
fi

# --- newer Kokkos headers: binary -dev packages of the newer suite, unpacked -------------
# header_packages PKG...: PKG and, transitively, the -dev packages they depend on.
header_packages() {
  local todo=("$@") seen=" " p dep
  while [ ${#todo[@]} -gt 0 ]; do
    p=${todo[0]}
    todo=("${todo[@]:1}")
    case "$seen" in *" $p "*) continue ;; esac
    seen="$seen$p "
    echo "$p"
    for dep in $(apt-cache "${newer_apt_opts[@]}" depends --no-recommends --no-suggests \
      --no-conflicts --no-breaks --no-replaces --no-enhances "$p" |
      awk '$1 == "Depends:" && $2 ~ /-dev$/ { print $2 }'); do
      todo+=("$dep")
    done
  done
}

# unpack_headers DIR SERIES PKG...: DIR holds PKG and their -dev dependencies, unpacked,
# and a Kokkos of SERIES (major.minor); reused once stamped.
unpack_headers() {
  local dir=$1 series=$2
  shift 2
  local stamp_file="$dir/.hamon-headers"
  if [ -f "$stamp_file" ]; then
    log "reusing $dir ($(paste -sd ' ' "$stamp_file"))"
    return 0
  fi
  newer_apt_update
  local download
  download="$deps_root/download-$(basename "$dir")"
  rm -rf "$dir" "$download"
  mkdir -p "$dir" "$download"
  local packages
  packages=$(header_packages "$@")
  local listed=${packages//$'\n'/ }
  log "apt-get download $listed (suite $newer_suite)"
  # shellcheck disable=SC2086
  (cd "$download" && apt-get "${newer_apt_opts[@]}" download -qq $packages >&2)
  local deb
  for deb in "$download"/*.deb; do dpkg-deb -x "$deb" "$dir"; done
  local config="$dir/usr/include/kokkos/KokkosCore_config.h" found
  found=$(awk '/#define KOKKOS_VERSION_MAJOR/ { major = $3 } /#define KOKKOS_VERSION_MINOR/ { minor = $3 }
    END { print major "." minor }' "$config" 2>/dev/null || true)
  if [ "$found" != "$series" ]; then
    log "$listed in suite $newer_suite carry Kokkos '$found', not $series:" \
      "update the expected series in tools/provision-deps.sh (and the README)"
    rm -rf "$dir" "$download"
    exit 1
  fi
  for deb in "$download"/*.deb; do basename "$deb" .deb; done >"$stamp_file"
  rm -rf "$download"
  log "unpacked into $dir: $(paste -sd ' ' "$stamp_file")"
}

if [ "$variant" = kokkos-headers ]; then
  unpack_headers "$deps_root/kokkos-4.5" 4.5 libtrilinos-kokkos-dev libtrilinos-kokkos-kernels-dev
  unpack_headers "$deps_root/kokkos-5.2" 5.2 libkokkos-dev
  echo "$deps_root/kokkos-4.5"
  echo "$deps_root/kokkos-5.2"
  exit 0
fi

# --- Kokkos Kernels' configuration: its stamp names a hash of it -------------------------
kernels_args=(-DCMAKE_BUILD_TYPE=Release -DCMAKE_INSTALL_PREFIX="$prefix" -DCMAKE_PREFIX_PATH="$prefix"
  -DCMAKE_CXX_STANDARD=17 -DCMAKE_CXX_EXTENSIONS=OFF
  -DKokkosKernels_ENABLE_TESTS=OFF -DKokkosKernels_ENABLE_EXAMPLES=OFF
  -DKokkosKernels_INST_DOUBLE=OFF -DKokkosKernels_INST_FLOAT=OFF
  -DKokkosKernels_INST_COMPLEX_DOUBLE=OFF -DKokkosKernels_INST_COMPLEX_FLOAT=OFF
  -DKokkosKernels_INST_ORDINAL_INT=OFF -DKokkosKernels_INST_ORDINAL_INT64_T=OFF
  -DKokkosKernels_INST_OFFSET_INT=OFF -DKokkosKernels_INST_OFFSET_SIZE_T=OFF
  -DKokkosKernels_INST_LAYOUTLEFT=OFF -DKokkosKernels_INST_LAYOUTRIGHT=OFF
  -DKokkosKernels_INST_EXECSPACE_SERIAL=OFF -DKokkosKernels_INST_EXECSPACE_OPENMP=OFF
  -DKokkosKernels_INST_EXECSPACE_CUDA=OFF
  -DKokkosKernels_ENABLE_TPL_CUSPARSE=OFF -DKokkosKernels_ENABLE_TPL_CUBLAS=OFF)
if [ "$variant" = cuda ]; then
  kernels_args+=(-DCMAKE_CXX_COMPILER="$prefix/bin/nvcc_wrapper"
    -DCMAKE_CXX_FLAGS="-arch=sm_80 -I$prefix/cuda-include"
    -DCUDAToolkit_ROOT=/usr -DKokkosKernels_ENABLE_TPL_BLAS=OFF)
else
  # OpenBLAS by name: libblas.so is whichever BLAS Debian's alternatives select (it may be
  # the reference one).
  kernels_args+=(-DKokkosKernels_ENABLE_TPL_BLAS=ON -DBLAS_LIBRARIES=openblas)
fi
kernels_hash=$(printf '%s\n' "${kernels_args[@]}" | sha256sum | cut -c1-16)
kernels_stamp="$prefix/.hamon-kernels-$kernels_hash"

if [ -f "$stamp" ] && { [ -f "$kernels_stamp" ] || [ "$variant" = arm64 ]; }; then
  log "reusing $prefix"
  echo "$prefix"
  exit 0
fi

# --- Kokkos + Kokkos Kernels sources from Debian's trilinos source package -------------
src_root="$deps_root/src"
kokkos_src="$src_root/trilinos/packages/kokkos"
kernels_src="$src_root/trilinos/packages/kokkos-kernels"
if [ ! -f "$src_root/.extracted" ]; then
  private_apt_update
  mkdir -p "$src_root/download"
  (cd "$src_root/download" && apt-get "${apt_opts[@]}" source --download-only -qq trilinos >&2)
  orig=$(ls "$src_root"/download/trilinos_*.orig.tar.* | head -n 1)
  log "extracting packages/kokkos and packages/kokkos-kernels from $(basename "$orig")"
  rm -rf "$src_root/trilinos" && mkdir -p "$src_root/trilinos"
  tar -xf "$orig" -C "$src_root/trilinos" --strip-components=1 --wildcards \
    '*/packages/kokkos/*' '*/packages/kokkos-kernels/*'
  rm -rf "$src_root/download"
  touch "$src_root/.extracted"
fi

# --- build and install: Kokkos unless stamped, then Kokkos Kernels ---------------------
build_root="$deps_root/build-$variant"
rm -rf "$build_root"
compiler_env=()
if [ "$variant" = cuda ]; then
  # Debian's toolkit: nvcc in /usr/bin, headers in /usr/include. Put it before any other
  # nvcc on PATH (nvcc_wrapper calls the first one) and tell CMake where its root is.
  # A CUDA_HOME / LIBRARY_PATH pointing at another toolkit (e.g. CUDA 13 in /usr/local/cuda)
  # would mix its headers and stubs in: Kokkos 3.4 does not compile with CUDA 13.
  compiler_env=(env -u CUDA_HOME -u CUDA_PATH -u CUDA_ROOT -u LIBRARY_PATH -u CPATH
    "PATH=/usr/bin:$PATH" NVCC_WRAPPER_DEFAULT_COMPILER=g++-11)
fi
if [ -f "$stamp" ]; then
  log "Kokkos Kernels' configuration changed: rebuilding it in $prefix (Kokkos kept)"
else
  rm -rf "$prefix"
  mkdir -p "$prefix"
  kokkos_args=(-DCMAKE_BUILD_TYPE=Release -DCMAKE_INSTALL_PREFIX="$prefix"
    -DCMAKE_CXX_STANDARD=17 -DCMAKE_CXX_EXTENSIONS=OFF
    -DKokkos_ENABLE_SERIAL=ON -DKokkos_ENABLE_OPENMP=ON -DBUILD_SHARED_LIBS=OFF
    -DCMAKE_POSITION_INDEPENDENT_CODE=ON)
  if [ "$variant" = cuda ]; then
    kokkos_args+=(-DCUDAToolkit_ROOT=/usr -DKokkos_ENABLE_CUDA=ON -DKokkos_ENABLE_CUDA_LAMBDA=ON -DKokkos_ARCH_AMPERE80=ON
      -DCMAKE_CXX_COMPILER="$kokkos_src/bin/nvcc_wrapper"
    ) # CMAKE_CXX_FLAGS below: -arch=sm_80, as the wrapper's own default (sm_35) is rejected
  fi
  if [ "$variant" = arm64 ]; then
    kokkos_args+=(-DKokkos_ENABLE_OPENMP=OFF
      -DCMAKE_TOOLCHAIN_FILE="$(cd "$(dirname "$0")/.." && pwd)/cmake/toolchains/aarch64-linux-gnu.cmake")
  fi

  if [ "$variant" = cuda ]; then
    # Some images link a newer toolkit's headers into /usr/local/include, which the host
    # compiler searches before /usr/include: shadow every such name with Debian's 11.8 header
    # (a -I directory wins over both). tools/dev.sh passes the same -I to hamon's build.
    shadow="$prefix/cuda-include"
    mkdir -p "$shadow"
    for entry in /usr/local/include/*; do
      name=$(basename "$entry")
      if [ -e "/usr/include/$name" ]; then ln -sfn "/usr/include/$name" "$shadow/$name"; fi
    done
    kokkos_args+=(-DCMAKE_CXX_FLAGS="-arch=sm_80 -I$shadow")
  fi

  log "building Kokkos $kokkos_version"
  "${compiler_env[@]}" cmake -S "$kokkos_src" -B "$build_root/kokkos" "${kokkos_args[@]}" >&2
  "${compiler_env[@]}" cmake --build "$build_root/kokkos" -j "$jobs" >&2
  "${compiler_env[@]}" cmake --install "$build_root/kokkos" >&2
  touch "$stamp"
fi
mkdir -p "$build_root"
if [ "$variant" = arm64 ]; then # Serial Kokkos only: the ARM check builds no training GEMMs
  rm -rf "$build_root"
  log "installed into $prefix"
  echo "$prefix"
  exit 0
fi

log "building Kokkos Kernels $kokkos_version (header-only use: explicit instantiation off)"
rm -f "$prefix"/.hamon-kernels-*
"${compiler_env[@]}" cmake -S "$kernels_src" -B "$build_root/kokkos-kernels" "${kernels_args[@]}" >&2
"${compiler_env[@]}" cmake --build "$build_root/kokkos-kernels" -j "$jobs" >&2
"${compiler_env[@]}" cmake --install "$build_root/kokkos-kernels" >&2

rm -rf "$build_root"
touch "$kernels_stamp"
log "installed into $prefix"
echo "$prefix"
