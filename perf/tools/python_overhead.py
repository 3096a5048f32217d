#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""What a call through the Python module costs, on the 32 x 32 +-J lattice of
bench_round_loop (seed 1 couplings, 8 chains, one sweep per round, beta_max 1, seed 7,
observers off, Kokkos::Serial):

  - the round loop from Python, one run(n) call, against the same run from C++
    (bench_round_loop's round_loop<Kokkos::Serial>/32/8/1, run in the same script);
  - the cost of a call: n calls of run(1) against one run(n), which give the same bits.

    PYTHONPATH=build/python python3 perf/tools/python_overhead.py [--bench build/bin/bench_round_loop]

Prints a Markdown record (machine, date, command, numbers) for perf/results/python_overhead/."""

import argparse
import datetime
import json
import os
import platform
import subprocess
import sys
import time

import hamon_kokkos as hk

ROUNDS = 12207  # bench_round_loop's: 1e8 updates / (1024 nodes x 8 chains)


def sampler(n_rounds):
    model = hk.lattice([32, 32], coupling=hk.Distribution.pm_one(1))
    return hk.Sampler(model, n_chains=8, beta_max=1.0, seed=7, n_rounds=n_rounds,
                      device="serial")


def best_of(repeats, f):
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        f()
        times.append(time.perf_counter() - start)
    return min(times)


def cpu_model():
    out = subprocess.run(["lscpu"], capture_output=True, text=True, check=False).stdout
    for line in out.splitlines():
        if line.startswith("Model name:"):
            return line.split(":", 1)[1].strip()
    return platform.processor()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--bench", default="build/bin/bench_round_loop")
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    updates = 1024 * 8 * ROUNDS

    def whole():
        s = sampler(ROUNDS)
        s.run(ROUNDS)

    python_s = best_of(args.repeats, whole)

    cpp = subprocess.run([args.bench, "--benchmark_filter=round_loop<Kokkos::Serial>/L:32/chains:8/n_expl:1/manual_time$",
                          "--benchmark_format=json", f"--benchmark_repetitions={args.repeats}"],
                         capture_output=True, text=True, check=True, env=dict(os.environ))
    runs = [b for b in json.loads(cpp.stdout)["benchmarks"] if b.get("run_type") == "iteration"]
    cpp_rate = max(b["spin_updates_per_ns"] for b in runs)

    n_calls = 2000
    one = sampler(n_calls)
    many = sampler(n_calls)
    one_s = best_of(1, lambda: one.run(n_calls))
    many_s = best_of(1, lambda: [many.run(1) for _ in range(n_calls)])
    assert one.checkpoint() == many.checkpoint()  # the same bits either way

    load = os.getloadavg()
    print(f"# Python module overhead, 32 x 32 +-J lattice\n")
    print(f"- machine: {cpu_model()}, {os.cpu_count()} CPUs; load average {load[0]:.2f} "
          f"{load[1]:.2f} {load[2]:.2f} at the start of the record")
    print(f"- date: {datetime.datetime.now(datetime.timezone.utc):%Y-%m-%d %H:%M} UTC")
    print(f"- command: `PYTHONPATH=build/python python3 {' '.join(sys.argv)}`")
    print(f"- Python {platform.python_version()}, hamon_kokkos {hk.__version__}, Kokkos::Serial\n")
    print("| what | time | rate |")
    print("|---|---|---|")
    print(f"| Python: Sampler + run({ROUNDS}), best of {args.repeats} | {python_s * 1e3:.1f} ms | "
          f"{updates / python_s / 1e9:.3f} updates/ns |")
    print(f"| C++: bench_round_loop round_loop<Serial>/32/8/1, best of {args.repeats} | | "
          f"{cpp_rate:.3f} updates/ns |")
    print(f"| Python: one run({n_calls}) | {one_s * 1e3:.1f} ms | {one_s / n_calls * 1e6:.2f} us/round |")
    print(f"| Python: {n_calls} x run(1) | {many_s * 1e3:.1f} ms | {many_s / n_calls * 1e6:.2f} us/round |")
    print(f"\nPer call of run(1) beyond the round itself: "
          f"{(many_s - one_s) / n_calls * 1e6:.2f} us. Python over C++ on the whole run: "
          f"{cpp_rate / (updates / python_s / 1e9):.3f}x the time.")


if __name__ == "__main__":
    main()
