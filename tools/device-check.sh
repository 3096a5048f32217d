#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# One call that checks the Cuda variant on a machine with an NVIDIA GPU: build (or reuse a
# build), record the machine, run the Cuda kernel tests, then the benchmarks (Cuda rows
# first), all inside a time limit, every result in one folder. perf/README.md ("GPU check")
# says how to run it on a lent machine.
#
#   tools/device-check.sh [--build DIR] [--out DIR] [--time-limit SECONDS] [--dry-run]
#   tools/device-check.sh --pack DIR [--build DIR]
#
#   --build DIR       reuse this build folder (a CMake build or a --pack folder: DIR/bin,
#                     and DIR/lib put on LD_LIBRARY_PATH when present) instead of building
#                     the Cuda variant with tools/dev.sh cuda (build-cuda/, all cores)
#   --out DIR         the output folder; $OUT wins when set (a lent machine's result
#                     folder); default build/device-check-<UTC date and time>
#   --time-limit S    stop within S seconds (default 480): each step gets what is left up
#                     to its own cap; a step that no longer fits is skipped and recorded
#   --dry-run         no GPU: the same steps against a HOST build (--build, default build/),
#                     the device rows replaced by Serial's smallest ones, tiny min-times
#   --pack DIR        copy the Cuda binaries (stripped) and the shared libraries they need
#                     beyond glibc's (Debian's libcudart 11.8, Google Benchmark) from the
#                     build (default build-cuda/) into DIR/bin and DIR/lib, to carry to a
#                     machine that cannot build them; runs nothing else
#
# Output folder (at most 8 files, flat, so all of it comes back from a lent machine):
#   summary.md       what ran, status and seconds per step, test counts, headline rates,
#                    what was skipped for time; rewritten after every step (a dry run: once)
#   machine.txt      nvidia-smi -q, nvcc --version, lscpu, date, git commit, build settings
#   build.log        the build's output (only when this script built)
#   tests.json       Google Test's JSON report of the kernel test binary
#   run.log          the test binary's and every benchmark's output, one section a step
#   bench.json       every Google Benchmark step's JSON, by step name
#   crossover.csv    device_crossover's tables
#   calibration.yaml the routing thresholds device_crossover recommends for this machine
#
# Exit status: 0 every step ran and passed; 1 a step failed (build, a failed test, a
# benchmark that crashed or matched no row); 2 bad usage; 3 nothing failed but a step was
# skipped or cut off by the time limit; 4 no NVIDIA GPU (and not --dry-run): only the
# machine record was written.
set -uo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
caller=$PWD
start=$(date +%s)

# --help prints this header, up to `set`; a usage error, its two usage lines.
usage() { sed -n '3,/^set /{/^set /d;s/^# \{0,1\}//;p}' "${BASH_SOURCE[0]}"; }
die_usage() {
  echo "device-check: $*" >&2
  usage | sed -n '/^  tools\/device-check.sh/p' >&2
  echo "(tools/device-check.sh --help says more)" >&2
  exit 2
}

build="" out_arg="" time_limit=480 dry_run=0 pack=""
while [ $# -gt 0 ]; do
  case "$1" in
    --build | --out | --time-limit | --pack)
      if [ $# -lt 2 ] || [ -z "$2" ]; then die_usage "$1 needs a value"; fi
      case "$1" in
        --build) build=$2 ;;
        --out) out_arg=$2 ;;
        --time-limit) time_limit=$2 ;;
        --pack) pack=$2 ;;
      esac
      shift 2
      ;;
    --dry-run)
      dry_run=1
      shift
      ;;
    -h | --help)
      usage
      exit 0
      ;;
    *) die_usage "unknown option '$1'" ;;
  esac
done
case "$time_limit" in '' | *[!0-9]*) die_usage "--time-limit wants whole seconds, not '$time_limit'" ;; esac
time_limit=$((10#$time_limit)) # "08" is eight seconds, not a bad octal number
# Paths given are the caller's; everything below runs from the repository root.
absolute() { case "$1" in '' | /*) echo "$1" ;; *) echo "$caller/$1" ;; esac; }
build=$(absolute "$build")
out_arg=$(absolute "$out_arg")
pack=$(absolute "$pack")
out_env=$(absolute "${OUT:-}")
cd "$root" || exit 2

# The binaries the check runs; the test binary is Cuda's, or Serial's in a dry run.
benches=(bench_kernels bench_round_loop bench_potts device_crossover)

if [ -n "$pack" ]; then
  tools/device_check_pack.sh "${build:-build-cuda}" "$pack" hamon_tests_cuda "${benches[@]}"
  exit $?
fi

if [ "$dry_run" -eq 1 ]; then
  build=${build:-build}
  [ -d "$build/bin" ] || die_usage "--dry-run needs a host build: no $build/bin"
fi
out=${out_env:-${out_arg:-build/device-check-$(date -u +%Y%m%dT%H%M%SZ)}}
mkdir -p "$out" || die_usage "cannot create the output folder '$out'"
out=$(cd "$out" && pwd)
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
trap 'write_summary; exit 3' TERM INT
steps="$scratch/steps.tsv" # name, status, seconds, budget, detail
: >"$steps"
reserve=$((dry_run ? 1 : 10)) # kept back for the summary

left() { echo $((start + time_limit - $(date +%s))); }

# record NAME STATUS SECONDS BUDGET DETAIL
# On a lent machine the summary is rewritten after every step, so that a call stopped from
# outside still brings one back; a dry run writes it once (python's start-up, ten times
# over, would be a third of its time on a busy machine).
record() {
  printf '%s\t%s\t%s\t%s\t%s\n' "$1" "$2" "$3" "$4" "$5" >>"$steps"
  if [ "$dry_run" -eq 0 ]; then write_summary; fi
}

write_summary() {
  python3 -B tools/device_check_report.py --out "$out" --steps "$steps" --parts "$scratch" \
    --mode "$([ "$dry_run" -eq 1 ] && echo dry-run || echo device)" --time-limit "$time_limit" \
    --elapsed $(($(date +%s) - start)) >"$scratch/summary.md" 2>>"$out/run.log" &&
    mv "$scratch/summary.md" "$out/summary.md"
}

# run_step NAME CAP MIN LOG COMMAND...: COMMAND under `timeout`, with what is left (less the
# reserve) up to CAP seconds; skipped when less than MIN is left. Its output goes to LOG.
run_step() {
  local name=$1 cap=$2 min=$3 log=$4
  shift 4
  local budget=$(($(left) - reserve))
  if [ "$budget" -lt 0 ]; then budget=0; fi
  if [ "$budget" -lt "$min" ]; then
    record "$name" skipped 0 "$budget" "needs ${min} s, had ${budget} s"
    return 0
  fi
  [ "$budget" -gt "$cap" ] && budget=$cap
  local t0 rc
  t0=$(date +%s)
  {
    echo "== $name ($(date -u +%FT%TZ), budget ${budget} s): $*"
    timeout --kill-after=5 "$budget" "$@"
  } >>"$log" 2>&1
  rc=$?
  local took=$(($(date +%s) - t0))
  if [ "$rc" -eq 124 ] || [ "$rc" -eq 137 ]; then
    record "$name" timeout "$took" "$budget" "stopped at its budget; partial results kept"
  elif [ "$rc" -ne 0 ]; then
    record "$name" failed "$took" "$budget" "exit status $rc"
  else
    record "$name" ok "$took" "$budget" ""
  fi
}

# --- 1. the machine -------------------------------------------------------------------------
have_gpu=0
if command -v nvidia-smi >/dev/null 2>&1 && timeout 20 nvidia-smi -L 2>/dev/null | grep -q '^GPU'; then
  have_gpu=1
fi
t0=$(date +%s)
{
  section() { echo "== $1"; }
  section "date"
  date -u +%FT%TZ
  section "git"
  git -C "$root" rev-parse HEAD 2>&1 || echo "(no git)"
  git -C "$root" status --short 2>/dev/null | head -20
  section "host"
  uname -a
  nproc
  section "nvidia-smi"
  if command -v nvidia-smi >/dev/null 2>&1; then
    timeout 20 nvidia-smi --query-gpu=name,driver_version,memory.total,compute_cap,clocks.max.sm \
      --format=csv 2>&1
    timeout 20 nvidia-smi -q 2>&1 | head -120
  else
    echo "(nvidia-smi not found)"
  fi
  section "nvcc"
  if command -v nvcc >/dev/null 2>&1; then timeout 20 nvcc --version 2>&1; else echo "(nvcc not found)"; fi
  section "lscpu"
  timeout 20 lscpu 2>&1 || echo "(lscpu failed)"
  section "build"
  if [ -n "$build" ] && [ -f "$build/CMakeCache.txt" ]; then
    grep -E '^(CMAKE_BUILD_TYPE|CMAKE_CXX_COMPILER|CMAKE_CXX_FLAGS|HAMON_[A-Z_]+|Kokkos_DIR):' \
      "$build/CMakeCache.txt"
  elif [ -n "$build" ] && [ -f "$build/build-settings.txt" ]; then
    cat "$build/build-settings.txt" # a --pack folder: the commit and settings it was built at
  else
    echo "${build:-(to be built in build-cuda/)}"
  fi
} >"$out/machine.txt" 2>&1
record machine ok $(($(date +%s) - t0)) - "$([ "$have_gpu" -eq 1 ] && timeout 20 nvidia-smi \
  --query-gpu=name --format=csv,noheader 2>/dev/null | head -1 || echo 'no NVIDIA GPU')"

if [ "$dry_run" -eq 0 ] && [ "$have_gpu" -eq 0 ]; then
  record gpu failed 0 - "no NVIDIA GPU visible (nvidia-smi -L); use --dry-run on a host build"
  write_summary
  exit 4
fi

# --- 2. the build -----------------------------------------------------------------------------
if [ "$dry_run" -eq 1 ]; then
  test_bin=hamon_tests_serial
else
  test_bin=hamon_tests_cuda
fi
built=1
if [ -z "$build" ]; then
  build="build-cuda"
  run_step build 100000 60 "$out/build.log" env HAMON_BUILD_JOBS="$(nproc)" \
    tools/dev.sh cuda hamon "$test_bin" "${benches[@]}"
  if [ "$(awk -F '\t' '$1 == "build" { print $2 }' "$steps")" != ok ]; then built=0; fi
else
  missing=""
  for b in "$test_bin" "${benches[@]}"; do [ -x "$build/bin/$b" ] || missing="$missing $b"; done
  if [ -n "$missing" ]; then
    record build failed 0 - "reused $build, which lacks:$missing"
  else
    record build ok 0 - "reused $build"
  fi
fi
if [ -d "$build/lib" ]; then
  LD_LIBRARY_PATH="$(cd "$build/lib" && pwd)${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
  export LD_LIBRARY_PATH
fi
bin=$build/bin

# --- 3. tests, then benchmarks, Cuda rows first -----------------------------------------------
# The steps in order, with their caps and minimums (seconds) below, one for one.
checks=(tests kernels_device round_loop_device potts_device crossover kernels_host
  round_loop_host potts_host)
if [ "$dry_run" -eq 1 ]; then
  export OMP_PROC_BIND=false OMP_NUM_THREADS=1
  gtest_filter=(--gtest_filter='*philox*')
  min_time=0.0001
  # The smallest Serial rows of each binary (a round-loop row costs 2 s whatever its size)
  # and the yardsticks' small rows: enough to catch a broken name, filter or path.
  device_rows='<Kokkos::Serial>/L:32/chains:8/(gaussian:0|n_expl:1)/|<Kokkos::Serial>/L:64/chains:8/q:3/path:0/'
  host_rows='^plain[a-z_]*/L:(32|64)/'
  crossover_args=(--quick)
  caps=(20 10 10 10 10 10 10 10) mins=(2 2 2 2 2 2 2 2)
else
  export OMP_PROC_BIND=spread OMP_PLACES=threads
  # Load each kernel at its first launch rather than every one at start (CUDA 11.7+): the
  # binaries carry sm_80 code and PTX, which the driver compiles for newer chips on load.
  export CUDA_MODULE_LOADING=LAZY
  gtest_filter=()
  min_time=0.05
  device_rows='<Kokkos::Cuda>'
  # The yardsticks and OpenMP on every core; Serial's rows are the host build's records.
  host_rows='^plain|<Kokkos::OpenMP>'
  crossover_args=(--repeats 3 --retries 1 --cold-repeats 1)
  caps=(120 40 60 40 150 20 20 20) mins=(20 10 10 10 30 10 10 10)
fi
export HAMON_CALIBRATION="$scratch/calibration.yaml" # never the user's calibration file

# binary_step NAME BINARY CAP MIN ARGS...: BINARY of the build with ARGS, or failed when the
# build lacks it.
binary_step() {
  local name=$1 binary=$2 cap=$3 min=$4
  shift 4
  if [ ! -x "$bin/$binary" ]; then
    record "$name" failed 0 - "no $bin/$binary"
  else
    run_step "$name" "$cap" "$min" "$out/run.log" "$bin/$binary" "$@"
  fi
}
# bench_step NAME BINARY FILTER CAP MIN: one Google Benchmark binary over FILTER's rows.
bench_step() {
  binary_step "$1" "$2" "$4" "$5" --benchmark_filter="$3" --benchmark_min_time="$min_time" \
    --benchmark_out="$scratch/bench-$1.json" --benchmark_out_format=json
}
for i in "${!checks[@]}"; do
  name=${checks[$i]} cap=${caps[$i]} min=${mins[$i]}
  if [ "$built" -eq 0 ]; then
    record "$name" skipped 0 - "the build did not finish"
    continue
  fi
  case "$name" in
    tests) binary_step tests "$test_bin" "$cap" "$min" "${gtest_filter[@]}" \
      --gtest_output="json:$out/tests.json" ;;
    crossover) binary_step crossover device_crossover "$cap" "$min" "${crossover_args[@]}" \
      --out "$out/crossover.csv" --write "$out/calibration.yaml" ;;
    *_device) bench_step "$name" "bench_${name%_device}" "$device_rows" "$cap" "$min" ;;
    *_host) bench_step "$name" "bench_${name%_host}" "$host_rows" "$cap" "$min" ;;
  esac
done

# --- 4. the verdict ---------------------------------------------------------------------------
write_summary
status=0
if [ ! -s "$out/summary.md" ]; then status=1; fi
if grep -q 'Verdict: failed' "$out/summary.md" 2>/dev/null; then
  status=1
elif grep -q 'Verdict: incomplete' "$out/summary.md" 2>/dev/null; then
  status=3
fi
echo "device-check: $(grep -m1 'Verdict:' "$out/summary.md" 2>/dev/null || echo 'no summary') ($out)" >&2
exit "$status"
