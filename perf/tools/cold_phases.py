#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Where a whole `hamon run` spends its wall time, phase by phase, from strace timestamps.

    python3 perf/tools/cold_phases.py BIN CONFIG.yaml [N]

Runs `BIN run CONFIG --out <tmp> --quiet --overwrite` N times (default 5) under
`strace -f --seccomp-bpf -tt`, tracing only the calls that mark the phases (execve, openat,
mkdir, rename, fsync, exit_group), so the tracing itself costs little, and prints a Markdown
table of the median of each phase: process start (to the config's open), parse + model +
Kokkos initialisation (to the run directory's mkdir), set-up writes (to the round-0
checkpoint's rename), sampling (to the final checkpoint's rename), diagnostics and the last
files (to summary.yaml's rename), the commit, and the previous run's removal + Kokkos
finalisation + exit; then the whole process and the number of fsync calls. OMP_NUM_THREADS
and OMP_PROC_BIND are taken from the environment (default 2 and false).
"""
import os
import statistics
import subprocess
import sys
import tempfile

PHASES = ["process start (exec -> config read)", "parse, model, Kokkos init (-> run dir made)",
          "set-up writes (config, traces, round-0 checkpoint)", "sampling + final checkpoint",
          "diagnostics, betas.npy, summary.yaml", "commit (rename into place)",
          "old run removed, Kokkos finalize, exit"]


def seconds(stamp):
    h, m, s = stamp.split(":")
    return int(h) * 3600 + int(m) * 60 + float(s)


def one_run(binary, config, work):
    log = os.path.join(work, "strace.txt")
    env = dict(os.environ)
    env.setdefault("OMP_NUM_THREADS", "2")
    env.setdefault("OMP_PROC_BIND", "false")
    subprocess.run(["strace", "-f", "--seccomp-bpf", "-tt", "-o", log, "-e",
                    "trace=execve,openat,mkdir,rename,exit_group,fsync", binary, "run", config,
                    "--out", os.path.join(work, "run"), "--quiet", "--overwrite"],
                   check=True, env=env)
    t, fsyncs, checkpoints = {}, 0, 0
    with open(log) as f:
        for line in f:
            parts = line.split(None, 2)
            if len(parts) < 3:
                continue
            ts, call = seconds(parts[1]), parts[2]
            if call.startswith("execve"):
                t.setdefault("exec", ts)
            elif call.startswith("openat") and os.path.basename(config) in call:
                t.setdefault("config", ts)
            elif call.startswith("mkdir") and ".partial" in call:
                t.setdefault("mkdir", ts)
            elif call.startswith("rename") and "checkpoint.bin.new" in call:
                checkpoints += 1
                t[f"checkpoint{checkpoints}"] = ts
            elif call.startswith("rename") and "summary.yaml" in call:
                t["summary"] = ts
            elif call.startswith("rename") and '.partial", ' in call:
                t["commit"] = ts
            elif call.startswith("exit_group"):
                t["exit"] = ts
            elif call.startswith("fsync"):
                fsyncs += 1
    marks = ["exec", "config", "mkdir", "checkpoint1", f"checkpoint{checkpoints}", "summary",
             "commit", "exit"]
    return [t[marks[k + 1]] - t[marks[k]] for k in range(len(PHASES))] + [t["exit"] - t["exec"],
                                                                           fsyncs]


def main():
    if len(sys.argv) < 3:
        raise SystemExit(__doc__)
    binary, config = sys.argv[1], os.path.abspath(sys.argv[2])
    n = int(sys.argv[3]) if len(sys.argv) > 3 else 5
    with tempfile.TemporaryDirectory() as work:
        rows = [one_run(binary, config, work) for _ in range(n)]
    print(f"| phase ({binary}, {os.path.basename(config)}, median of {n}) | |\n|---|---|")
    for k, name in enumerate(PHASES + ["whole process", "fsync calls"]):
        value = statistics.median(r[k] for r in rows)
        print(f"| {name} | " + (f"{value * 1e3:.1f} ms" if k <= len(PHASES) else f"{value:.0f}") + " |")


if __name__ == "__main__":
    main()
