#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""An ensemble (`instances: K`) under `mpirun`, in rank groups (instance k on group
k mod G, G = min(ranks, K); a group of one rank runs the one-process path):
  - K = 3 under 1, 2, 3 ranks and K = 2 under 3 ranks (one group of two ranks, one of
    one): every file's bytes are one process's (YAML files without their directory);
  - Houdayer moves and overlaps (replicas: one process per ladder) in an ensemble of K = 2
    on 2 ranks and on 3 ranks (one rank waits): one process's bytes;
  - stopped by SIGUSR1 (what mpirun forwards) under 3 ranks (every group stops its instance, exit 3, no DIR),
    resumed under 2 ranks: the bytes of the uninterrupted ensemble of one process."""

import os
import signal
import time

import clitest
import ensemble_run
import mpi_run


def compare(failures, what, mine, theirs):
    failures.check(sorted(mine) == sorted(theirs),
                   f"{what}: files differ: {sorted(set(mine) ^ set(theirs))}")
    for rel in sorted(set(mine) & set(theirs)):
        failures.check(mine[rel] == theirs[rel], f"{what}: {rel} differs from one process's")


def main():
    args = clitest.arguments(__doc__, lambda p: p.add_argument("--mpiexec", required=True))
    failures = clitest.Failures()
    references = {}
    for k in (2, 3):
        config = ensemble_run.write_config(args, f"k{k}", f"instances: {k}\n", rounds=2000)
        out = os.path.join(args.work, f"k{k}_one")
        result = clitest.run(args.hamon, ["run", config, "--out", out, "--quiet"], timeout=300)
        if not failures.check(result.returncode == 0, f"one process, K={k}: {result.stderr}"):
            failures.finish("ensemble mpi")
        references[k] = (config, ensemble_run.digest(out))
    for k, ranks in ((3, 1), (3, 2), (3, 3), (2, 3)):
        config, want = references[k]
        out = os.path.join(args.work, f"k{k}_np{ranks}")
        result = mpi_run.mpirun(args, ranks, ["run", config, "--out", out, "--quiet"],
                                cwd=args.work)
        if failures.check(result.returncode == 0, f"K={k} on {ranks} ranks: {result.stderr}"):
            compare(failures, f"K={k} on {ranks} ranks", ensemble_run.digest(out), want)

    # Houdayer moves need both replicas in one process: an ensemble of K >= ranks instances
    # has one rank per group, so it runs them under mpirun, with one process's bytes.
    houdayer = ensemble_run.write_config(args, "houdayer", "instances: 2\n", rounds=1000)
    with open(houdayer) as f:
        text = f.read().replace("  burn_in: 50\n", "  burn_in: 50\n  cluster_moves: houdayer\n")
    with open(houdayer, "w") as f:
        f.write(text)
    one = os.path.join(args.work, "houdayer_one")
    result = clitest.run(args.hamon, ["run", houdayer, "--out", one, "--quiet"], timeout=300)
    failures.check(result.returncode == 0, f"houdayer, one process: {result.stderr}")
    failures.check("overlap_q2.npy" in ensemble_run.digest(one),
                   "houdayer, one process: no overlap tables to compare")
    out = os.path.join(args.work, "houdayer_np2")
    result = mpi_run.mpirun(args, 2, ["run", houdayer, "--out", out, "--quiet"], cwd=args.work)
    if failures.check(result.returncode == 0, f"houdayer ensemble on 2 ranks: {result.stderr}"):
        compare(failures, "houdayer K=2 on 2 ranks", ensemble_run.digest(out),
                ensemble_run.digest(one))
    # More ranks than instances: with replicas every group stays one rank and rank 2 waits,
    # so the overlaps (absent over ranks) and the moves are still one process's.
    result = mpi_run.mpirun(args, 3, ["run", houdayer, "--out", out + "3"], cwd=args.work)
    if failures.check(result.returncode == 0, f"houdayer K=2 on 3 ranks: {result.stderr}"):
        compare(failures, "houdayer K=2 on 3 ranks", ensemble_run.digest(out + "3"),
                ensemble_run.digest(one))
        failures.check("1 rank ran nothing" in result.stdout,
                       f"houdayer K=2 on 3 ranks: no word of the idle rank: {result.stdout}")

    # Long enough instances that the signal lands while every group samples.
    config = ensemble_run.write_config(args, "long", "instances: 3\n", rounds=40000)
    reference = os.path.join(args.work, "long_one")
    result = clitest.run(args.hamon, ["run", config, "--out", reference, "--quiet"], timeout=300)
    failures.check(result.returncode == 0, f"one process, long: {result.stderr}")
    want = ensemble_run.digest(reference)
    out = os.path.join(args.work, "stopped")
    p = mpi_run.start_mpirun(args, 3, ["run", config, "--out", out, "--quiet"], args.work)
    # Every group has begun its instance (its first checkpoint is written at round 0).
    markers = [os.path.join(out + ".partial", "instances", f"{k}.partial", "checkpoint.bin")
               for k in range(3)]
    deadline = time.monotonic() + 120
    while (not all(os.path.exists(m) for m in markers) and p.poll() is None and
           time.monotonic() < deadline):
        time.sleep(0.005)
    time.sleep(0.05)
    p.send_signal(signal.SIGUSR1)
    _, err = p.communicate(timeout=120)
    failures.check(p.returncode == 3, f"stopped under 3 ranks: exit {p.returncode}: {err}")
    failures.check(not os.path.exists(out), "a stopped ensemble left DIR")
    failures.check(os.path.isdir(os.path.join(out + ".partial", "instances", "1.partial")),
                   "group 1 did not leave its instance resumable")
    result = mpi_run.mpirun(args, 2, ["resume", out, "--quiet"], cwd=args.work)
    if failures.check(result.returncode == 0, f"resume under 2 ranks: {result.stderr}"):
        compare(failures, "stopped under 3, resumed under 2", ensemble_run.digest(out), want)
    failures.finish("ensemble mpi")


if __name__ == "__main__":
    main()
