#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""What checkpoints cost, through `hamon run` (a resumable run must stay cheap to checkpoint):

1. Wall time: the 128 x 128 +-J glass, 32 chains, 4 sweeps/round, moments and energies on,
   run with `checkpoint: false` and with `checkpoint: {every: 1000}` (each checkpoint holds
   the spins, counters and moment batches, written to a new file, fsync'ed and renamed),
   alternating, --repeats times each; the median `timing.sampling_s` of each, and the
   overhead ratio. Both in the same minute on the same machine.
2. Memory: a 10^7-round run of a small model (4 x 4 lattice, 4 chains) with every observer
   on (samples every round, energies, index process, moments): the peak resident set while
   sampling (polled from /proc) and the peak of the whole command (ru_maxrss), against a
   run of 10^5 rounds (what does not grow with the run).

Run from the repository root after `tools/dev.sh test`:
    python3 perf/checkpoint/checkpoint_cost.py [--repeats 3] [--out FILE]

The record goes to perf/results/checkpoint_cost/DATE-host.md by default (DATE: today).
"""

import argparse
import datetime
import os
import platform
import resource
import shutil
import statistics
import subprocess
import tempfile
import time

import yaml

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))

GLASS = """seed: 1
device: {device}
model:
  kind: lattice
  shape: [128, 128]
  periodic: true
  coupling: {{distribution: pm_one, seed: 2}}
nrpt:
  chains: 32
  beta_max: 1.0
  rounds: {rounds}
  burn_in: 100
  explore_sweeps: 4
output:
  dir: run
  moments: true
  energies: true
  index_process: true
  checkpoint: {checkpoint}
"""

SMALL = """seed: 1
device: serial
model:
  kind: lattice
  shape: [4, 4]
  periodic: true
nrpt:
  chains: 4
  beta_max: 0.4
  rounds: {rounds}
  burn_in: 0
output:
  dir: run
  samples: {{every: 1, nodes: all}}
  moments: true
  energies: true
  index_process: true
  checkpoint: {{seconds: 600}}
"""


def cpu_model():
    with open("/proc/cpuinfo") as f:
        for line in f:
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    return platform.processor()


def run_hamon(hamon, text, env=None):
    work = tempfile.mkdtemp(prefix="hamon-ckpt-")
    try:
        with open(os.path.join(work, "exp.yaml"), "w") as f:
            f.write(text)
        start = time.monotonic()
        p = subprocess.Popen([hamon, "run", "exp.yaml", "--quiet"], cwd=work, env=env)
        peak_sampling = 0
        # Sampling ends with the final checkpoint (a new checkpoint.bin after round 0's);
        # what follows (reading traces back, diagnostics, the summary) is not sampling.
        checkpoint = os.path.join(work, "run.partial", "checkpoint.bin")
        inodes = set()
        while p.poll() is None:
            try:
                inodes.add(os.stat(checkpoint).st_ino)
            except FileNotFoundError:
                pass
            try:
                with open(f"/proc/{p.pid}/status") as f:
                    rss = next(int(line.split()[1]) for line in f if line.startswith("VmRSS:"))
                if len(inodes) < 2:
                    peak_sampling = max(peak_sampling, rss)
            except (FileNotFoundError, ProcessLookupError, StopIteration):
                pass
            time.sleep(0.02)
        wall = time.monotonic() - start
        if p.returncode != 0:
            raise RuntimeError(f"hamon run failed ({p.returncode})")
        with open(os.path.join(work, "run", "summary.yaml")) as f:
            summary = yaml.safe_load(f)
        size = os.path.getsize(os.path.join(work, "run", "checkpoint.bin")) \
            if os.path.exists(os.path.join(work, "run", "checkpoint.bin")) else 0
        return summary["timing"]["sampling_s"], wall, peak_sampling, size, \
            summary["timing"]["checkpoint_s"]
    finally:
        shutil.rmtree(work, ignore_errors=True)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--hamon", default=os.path.join(ROOT, "build", "bin", "hamon"))
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--rounds", type=int, default=10000)
    parser.add_argument("--device", default="openmp")
    parser.add_argument("--long-rounds", type=int, default=10**7)
    parser.add_argument("--memory-only", action="store_true", help="skip the wall-time part")
    parser.add_argument("--out", default=os.path.join(
        ROOT, "perf", "results", "checkpoint_cost", f"{datetime.date.today().isoformat()}-host.md"))
    args = parser.parse_args()
    env = dict(os.environ)
    env.setdefault("OMP_NUM_THREADS", "2")
    env.setdefault("OMP_PROC_BIND", "false")

    off, on, inside = [], [], []
    size = 0
    for _ in range(0 if args.memory_only else args.repeats):
        off.append(run_hamon(args.hamon, GLASS.format(device=args.device, rounds=args.rounds,
                                                      checkpoint="false"), env)[0])
        s, _, _, size, writing = run_hamon(
            args.hamon, GLASS.format(device=args.device, rounds=args.rounds,
                                     checkpoint="{every: 1000}"), env)
        on.append(s)
        inside.append(writing / s)
    m_off = statistics.median(off) if off else float("nan")
    m_on = statistics.median(on) if on else float("nan")
    n_checkpoints = (args.rounds + 100) // 1000 + 2  # round 0, every 1000, the end

    short = run_hamon(args.hamon, SMALL.format(rounds=10**5), env)
    before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    long = run_hamon(args.hamon, SMALL.format(rounds=args.long_rounds), env)
    whole_peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss

    lines = [
        "# Checkpoint cost (`hamon run`)",
        "",
        f"- date: {datetime.date.today().isoformat()}",
        f"- machine: {cpu_model()}, {os.cpu_count()} cores, {platform.platform()}",
        f"- command: `python3 perf/checkpoint/checkpoint_cost.py --repeats {args.repeats} "
        f"--rounds {args.rounds} --device {args.device} --long-rounds {args.long_rounds}` "
        f"(OMP_NUM_THREADS={env['OMP_NUM_THREADS']})",
        "",
        f"## Wall time: 128 x 128 +-J, 32 chains, 4 sweeps/round, {args.rounds} rounds + 100 "
        f"burn-in, moments + energies + index process on, device {args.device}",
        "",
        "| checkpoint | sampling_s per run (each repeat) | median |",
        "|---|---|---|",
        f"| false | {', '.join(f'{v:.3f}' for v in off)} | {m_off:.3f} |",
        f"| every: 1000 ({n_checkpoints} checkpoints of {size / 1e6:.1f} MB) | "
        f"{', '.join(f'{v:.3f}' for v in on)} | {m_on:.3f} |",
        "",
        f"Overhead: **{100 * (m_on - m_off) / m_off:+.2f} %** of the sampling time from the "
        "medians of alternating runs (the target is <= 1 %); measured inside each run "
        "(`timing.checkpoint_s` / `timing.sampling_s`, the time spent writing checkpoints): "
        f"{', '.join(f'{100 * v:.2f} %' for v in inside)}.",
        "",
        "## Memory: 4 x 4 lattice, 4 chains, every observer on (samples every round)",
        "",
        "| rounds | peak RSS while sampling (VmRSS polled every 20 ms) | sampling_s |",
        "|---|---|---|",
        f"| 10^5 | {short[2] / 1024:.1f} MB | {short[0]:.2f} |",
        f"| {args.long_rounds:.0e} | {long[2] / 1024:.1f} MB | {long[0]:.2f} |",
        "",
        f"Peak RSS of the whole {args.long_rounds:.0e}-round command (ru_maxrss, the "
        f"end-of-run diagnostics included): {whole_peak / 1024:.1f} MB "
        f"(earlier children: {before / 1024:.1f} MB). After the last round the diagnostics "
        "read the energy trace back (log Z, the ESS and the health report take it as a "
        "vector and copy parts of it): that part grows as a few times rounds x chains x 8 "
        "bytes.",
        "",
    ]
    os.makedirs(os.path.dirname(os.path.abspath(args.out)), exist_ok=True)
    with open(args.out, "w") as f:
        f.write("\n".join(lines))
    print("\n".join(lines))


if __name__ == "__main__":
    main()
