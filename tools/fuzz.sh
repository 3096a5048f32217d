#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Builds the libFuzzer harnesses (tests/fuzz, clang) in build-fuzz/ and runs each one (as
# many at once as HAMON_BUILD_JOBS, default the core count: each is one process).
#
#   tools/fuzz.sh smoke          every harness for HAMON_FUZZ_SECONDS (default 20) seconds
#   tools/fuzz.sh long [RUNS]    every harness for RUNS executions (default 1000000)
#
# Each run starts from the seeds in tests/fuzz/corpus/NAME and the examples (copied to
# build-fuzz/corpus/NAME, which keeps what the fuzzer adds), with a 2 GiB RSS limit and a
# 10 s per-input timeout; a crash, leak, sanitizer report, timeout or out-of-memory stops
# with a non-zero status and leaves the input in build-fuzz/findings/. clang and
# libclang-rt come from `tools/provision-deps.sh fuzz`.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
mode=${1:-smoke}
case "$mode" in smoke | long) ;; *)
  echo "usage: tools/fuzz.sh smoke|long [RUNS]" >&2
  exit 2
  ;;
esac
tools/provision-deps.sh fuzz >/dev/null
# The harnesses link the main build's libraries: built first (the whole build when there is
# none yet, else brought up to date: hamon_apps_run needs every library below it).
prefix=$(tools/provision-deps.sh host)
if [ -f build/CMakeCache.txt ]; then
  cmake --build build -j "${HAMON_BUILD_JOBS:-$(nproc)}" --target hamon_apps_run >/dev/null
else
  tools/dev.sh test >/dev/null
fi
cmake -S tests/fuzz -B build-fuzz -DCMAKE_CXX_COMPILER=clang++ -DHAMON_BUILD_DIR="$PWD/build" \
  -DHAMON_DEPS_PREFIX="$prefix" >/dev/null
cmake --build build-fuzz -j "${HAMON_BUILD_JOBS:-$(nproc)}"
harnesses=$(tr ';' ' ' <build-fuzz/harnesses.txt) # what tests/fuzz/CMakeLists.txt declares
mkdir -p build-fuzz/findings
# run_harness NAME: one harness on its corpus; its log in build-fuzz/NAME.log.
run_harness() {
  local name=$1 corpus=build-fuzz/corpus/$1
  mkdir -p "$corpus"
  cp -n tests/fuzz/corpus/"$name"/* "$corpus"/ 2>/dev/null || true
  # The examples seed the parsers they belong to (one copy of each, in examples/).
  case "$name" in
    experiment_file) cp -n examples/*.yaml "$corpus"/ ;;
    training_file) cp -n examples/mnist_rbm.yaml "$corpus"/ ;;
    npy_file) cp -n examples/data/mnist/digits_0.npy "$corpus"/ ;;
    graph_file) cp -n examples/graph_file.txt "$corpus"/ ;;
  esac
  local limit
  if [ "$mode" = smoke ]; then
    limit=(-max_total_time="${HAMON_FUZZ_SECONDS:-20}")
  else
    limit=(-runs="${runs}")
  fi
  if ! build-fuzz/fuzz_"$name" "${limit[@]}" -rss_limit_mb=2048 -timeout=10 \
    -print_final_stats=1 -artifact_prefix=build-fuzz/findings/"$name"- "$corpus" \
    2>build-fuzz/"$name".log; then
    tail -40 build-fuzz/"$name".log >&2
    echo "fuzz $name: FAILED (log: build-fuzz/$name.log, input: build-fuzz/findings/)" >&2
    return 1
  fi
  {
    echo "== fuzz $name (${limit[*]})"
    grep -E "^#[0-9]+.*DONE|stat::number_of_executed_units|cov:" build-fuzz/"$name".log | tail -2
    echo "corpus: $(find "$corpus" -type f | wc -l) files"
  }
}
runs=${2:-1000000}
# Each harness is one process on one core: as many at once as there are build jobs.
parallel=${HAMON_BUILD_JOBS:-$(nproc)}
failed=0
pids=()
for name in $harnesses; do
  run_harness "$name" &
  pids+=($!)
  if [ "${#pids[@]}" -ge "$parallel" ]; then
    wait "${pids[0]}" || failed=1
    pids=("${pids[@]:1}")
  fi
done
for pid in "${pids[@]}"; do wait "$pid" || failed=1; done
exit "$failed"
