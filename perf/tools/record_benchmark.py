#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Run a Google Benchmark binary of perf/ and record its results in perf/results/.

    python3 perf/tools/record_benchmark.py BINARY NAME [--filter REGEX] [-- extra args]

Writes perf/results/NAME.json (the raw benchmark output) and perf/results/NAME.md (machine,
date, exact command, and a table of every benchmark with its counters). NAME is
BENCHMARK/DATE-WHAT, one folder per benchmark (perf/results/README.md), e.g.
kernels/2026-12-01-quiet-evening; the folder is created if it is missing.
"""
import argparse
import datetime
import json
import os
import platform
import statistics
import subprocess
import sys


def machine_description():
    model = platform.processor() or "unknown cpu"
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    model = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    return f"{model}, {os.cpu_count()} cores, {platform.system()} {platform.release()}"


def lattice_side(name):
    """L of a benchmark named .../L:<L>/..., or None."""
    for part in name.split("/"):
        if part.startswith("L:"):
            return int(part[2:])
    return None


def name_arg(name, arg):
    """The integer value of argument `arg` in a benchmark named .../arg:<v>/..., or None."""
    for part in name.split("/"):
        if part.startswith(arg + ":"):
            return int(part[len(arg) + 1:])
    return None


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("binary")
    parser.add_argument("name")
    parser.add_argument("--filter", default="")
    parser.add_argument("extra", nargs="*")
    # Google Benchmark's own flags (--benchmark_min_time=...) pass through to the binary.
    args, passed = parser.parse_known_args()
    args.extra += [x for x in passed if x != "--"]

    results_dir = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "results")
    os.makedirs(results_dir, exist_ok=True)
    json_path = os.path.join(results_dir, args.name + ".json")
    os.makedirs(os.path.dirname(json_path), exist_ok=True)
    command = [args.binary, "--benchmark_format=json"]
    if args.filter:
        command.append("--benchmark_filter=" + args.filter)
    command += args.extra
    env = dict(os.environ)
    env.setdefault("OMP_PROC_BIND", "false")
    env.setdefault("OMP_NUM_THREADS", str(os.cpu_count()))
    started = datetime.datetime.now(datetime.timezone.utc)
    output = subprocess.run(command, env=env, check=True, stdout=subprocess.PIPE).stdout
    data = json.loads(output)
    with open(json_path + ".tmp", "w") as f:
        json.dump(data, f, indent=1)
    os.replace(json_path + ".tmp", json_path)

    counters = []
    for b in data["benchmarks"]:
        for key in b:
            if key not in counters and key not in (
                "name", "family_index", "per_family_instance_index", "run_name", "run_type",
                "repetitions", "repetition_index", "threads", "iterations", "real_time",
                "cpu_time", "time_unit", "aggregate_name", "aggregate_unit", "label"):
                counters.append(key)
    # The yardstick (perf/plain_sweep.hpp) at its best (its rate is the faster of its two
    # builds, perf/plain_yardstick.hpp), when the binary ran it: every rate also as a
    # ratio to the plain sweep of the same L and the same thread count in this run
    # (x_plain; plain_threads says which one), so a two-thread row is never divided by a
    # one-thread baseline.
    rate_keys = ("updates_per_ns", "spin_updates_per_ns")
    omp_threads = int(env["OMP_NUM_THREADS"])

    # Potts benchmarks (perf/bench_potts.cpp) against the Potts yardstick
    # (perf/plain_potts_sweep.hpp), everything else against the Ising one.
    def yardstick(name):
        return "potts" if "potts" in name else "ising"

    # With --benchmark_repetitions, the yardstick is the median of its repetitions, and
    # the spread rows (stddev, cv) get no ratio.
    plain_runs = {}
    for b in data["benchmarks"]:
        if b["name"].startswith(("plain_sweep", "plain_potts_sweep")) and b.get("run_type") != "aggregate":
            rate = next((b[k] for k in rate_keys if k in b), None)
            key = (yardstick(b["name"]), lattice_side(b["name"]), name_arg(b["name"], "threads") or 1)
            if key[1] is not None and rate:
                plain_runs.setdefault(key, {}).setdefault(name_arg(b["name"], "chains"), []).append(rate)
    plain = {key: {chains: statistics.median(rates) for chains, rates in by_chains.items()}
             for key, by_chains in plain_runs.items()}

    def row_threads(name, sides_threads):
        """The thread count a row ran with: Serial 1, OpenMP OMP_NUM_THREADS, else (a GPU
        space) the most threads a yardstick of this run had."""
        if "<Kokkos::Serial>" in name:
            return 1
        if "<Kokkos::OpenMP>" in name or "<Kokkos::Threads>" in name:
            return omp_threads
        return max(sides_threads, default=1)

    if plain:
        counters += ["x_plain", "plain_threads"]
        for b in data["benchmarks"]:
            rate = next((b[k] for k in rate_keys if k in b), None)
            if (rate is None or b["name"].startswith(("plain_sweep", "plain_potts_sweep"))
                    or b.get("aggregate_name") in ("stddev", "cv")):
                continue
            kind, side = yardstick(b["name"]), lattice_side(b["name"])
            threads = row_threads(b["name"], [t for (k, s, t) in plain if (k, s) == (kind, side)])
            by_chains = plain.get((kind, side, threads))
            if not by_chains:
                continue
            chains = name_arg(b["name"], "chains")
            base = by_chains.get(chains, by_chains.get(32, next(iter(by_chains.values()))))
            b["x_plain"] = rate / base
            b["plain_threads"] = threads
    lines = [
        f"# {args.name}",
        "",
        f"- machine: {machine_description()}",
        f"- date: {started.strftime('%Y-%m-%d %H:%M UTC')}",
        f"- command: `OMP_PROC_BIND={env['OMP_PROC_BIND']} OMP_NUM_THREADS={env['OMP_NUM_THREADS']} "
        + " ".join(command) + "`",
        f"- re-run: `python3 perf/tools/record_benchmark.py {' '.join(sys.argv[1:])}`",
        "",
        "| benchmark | time | " + " | ".join(counters) + " |",
        "|---|---|" + "---|" * len(counters),
    ]
    for b in data["benchmarks"]:
        row = [b["name"], f"{b['real_time']:.3g} {b['time_unit']}"]
        row += [f"{b[c]:.4g}" if isinstance(b.get(c), (int, float)) else str(b.get(c, "")) for c in counters]
        lines.append("| " + " | ".join(row) + " |")
    md_path = os.path.join(results_dir, args.name + ".md")
    with open(md_path + ".tmp", "w") as f:
        f.write("\n".join(lines) + "\n")
    os.replace(md_path + ".tmp", md_path)
    print("\n".join(lines))


if __name__ == "__main__":
    main()
