#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""The host kernels on every instruction set this build dispatches to and this CPU runs.

    python3 perf/tools/vector_targets.py [--bin build/bin] [--baseline OLD/bin]
        [--repeats 3] [--min-time 0.3] [--out perf/results/vector_targets/DATE-WHAT.md]

Runs the Serial benchmarks of bench_kernels (and bench_potts, where built) once per target
(--vector-target=NAME), the portable loops (sweep_lattice_portable) and the plain yardstick
(plain_sweep, one thread) in the same process family, the targets interleaved repeat by
repeat so a drifting machine moves them alike, and prints (or writes) a table of the median
rates with each target's ratio to AVX3, to the portable loops and to the yardstick. With
--baseline, the same benchmarks of an older build (e.g. the hand-written AVX-512 intrinsics)
run in the same rounds, for an A/B of the best target against it.
"""
import argparse
import datetime
import json
import os
import statistics
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from record_benchmark import machine_description  # noqa: E402

SWEEPS = ("sweep_lattice<Kokkos::Serial>/L:(32|128)/chains:(1|8|16|32)/gaussian:0/"
          "|sweep_csr<Kokkos::Serial>/L:128/chains:32/gaussian:1/")
PORTABLE = "sweep_lattice_portable<Kokkos::Serial>/L:(32|128)/chains:(1|8|16|32)/gaussian:0/"
PLAIN = "plain_sweep/L:(32|128)/chains:32/threads:1/"
POTTS = "potts_sweep<Kokkos::Serial>/"
COUNTERS = ("updates_per_ns", "node_machines_per_ns")


def run(binary, pattern, min_time, extra=()):
    cmd = [binary, f"--benchmark_filter={pattern}", f"--benchmark_min_time={min_time}",
           "--benchmark_format=json", *extra]
    env = dict(os.environ, OMP_PROC_BIND="false", OMP_NUM_THREADS="1")  # Kokkos says nothing
    out = subprocess.run(cmd, check=True, capture_output=True, text=True, env=env).stdout
    rates = {}
    for b in json.loads(out[out.index("{"):])["benchmarks"]:
        for counter in COUNTERS:
            if counter in b:
                rates[b["name"].replace("/manual_time", "")] = b[counter]
    return rates


def targets_of(binary):
    """The targets the binary accepts: it names them when given one it does not know."""
    probe = subprocess.run([binary, "--vector-target=?", "--benchmark_filter=^$"],
                           capture_output=True, text=True,
                           env=dict(os.environ, OMP_PROC_BIND="false"))
    line = probe.stderr.strip().splitlines()[-1] if probe.stderr.strip() else ""
    if "targets on this CPU:" not in line:
        sys.exit(f"{binary}: no vector targets ({line or 'no message'})")
    return line.split("targets on this CPU:")[1].split()


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bin", default="build/bin")
    parser.add_argument("--baseline", help="bin folder of an older build to compare with")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--min-time", type=float, default=0.3)
    parser.add_argument("--out", help="write the record here (Markdown) instead of stdout")
    args = parser.parse_args()

    kernels = os.path.join(args.bin, "bench_kernels")
    potts = os.path.join(args.bin, "bench_potts")
    targets = targets_of(kernels)
    samples = {}  # (column, benchmark) -> [rates]

    def add(column, rates):
        for name, rate in rates.items():
            samples.setdefault((column, name), []).append(rate)

    for _ in range(args.repeats):
        for target in targets:
            add(target, run(kernels, SWEEPS, args.min_time, [f"--vector-target={target}"]))
            if os.path.exists(potts):
                add(target, run(potts, POTTS, args.min_time, [f"--vector-target={target}"]))
        add("portable", run(kernels, PORTABLE, args.min_time))
        add("plain", run(kernels, PLAIN, args.min_time))
        if args.baseline:
            add("baseline", run(os.path.join(args.baseline, "bench_kernels"), SWEEPS, args.min_time))
            if os.path.exists(os.path.join(args.baseline, "bench_potts")):
                add("baseline", run(os.path.join(args.baseline, "bench_potts"), POTTS,
                                    args.min_time))

    median = {key: statistics.median(v) for key, v in samples.items()}
    rows = sorted({name for (column, name) in median if column in targets})
    columns = targets + (["baseline"] if args.baseline else [])
    lines = [
        "# Host kernels per vector target",
        "",
        f"- Machine: {machine_description()}",
        f"- Date: {datetime.datetime.now(datetime.timezone.utc):%Y-%m-%d %H:%M} UTC, "
        f"load average at the end {os.getloadavg()[0]:.1f}",
        f"- Command: `python3 perf/tools/vector_targets.py {' '.join(sys.argv[1:])}`",
        f"- Medians of {args.repeats} interleaved repeats, Serial (one thread); rates in "
        "updates/ns. `portable`: the portable loops (HostKernel::portable) of the same "
        "lattice sweep; `plain`: the plain yardstick (plain_sweep, one thread, 32 chains, "
        "same L).",
        "",
        "| benchmark | " + " | ".join(columns) + " | portable | plain | "
        + " | ".join(f"{t}/{targets[0]}" for t in targets[1:]) + f" | {targets[0]}/portable"
        f" | {targets[0]}/plain |",
        "|---" * (len(columns) + 3 + len(targets) + 1) + "|",
    ]
    for name in rows:
        def rate(column, benchmark=name):
            return median.get((column, benchmark))

        portable_name = name.replace("sweep_lattice<", "sweep_lattice_portable<")
        side = next((p for p in name.split("/") if p.startswith("L:")), None)
        plain_name = f"plain_sweep/{side}/chains:32/threads:1" if side else None
        portable = rate("portable", portable_name) if portable_name != name else None
        plain = rate("plain", plain_name) if plain_name else None
        best = rate(targets[0])

        def fmt(x, digits=3):
            return "—" if x is None else f"{x:.{digits}f}"

        cells = [fmt(rate(c)) for c in columns] + [fmt(portable), fmt(plain)]
        cells += [fmt(rate(t) / best if rate(t) and best else None, 2) for t in targets[1:]]
        cells += [fmt(best / portable if best and portable else None, 2),
                  fmt(best / plain if best and plain else None, 2)]
        lines.append(f"| {name} | " + " | ".join(cells) + " |")
    text = "\n".join(lines) + "\n"
    if args.out:
        os.makedirs(os.path.dirname(args.out), exist_ok=True)
        with open(args.out, "w") as f:
            f.write(text)
    print(text)


if __name__ == "__main__":
    main()
