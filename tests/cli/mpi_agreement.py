#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""`mpirun hamon run|resume` whose ranks did not read the same files (a build with
HAMON_ENABLE_MPI), started as two programs of one job (`mpiexec -np 1 A : -np 1 B`):
  - rank 1 reads an experiment with another seed: every rank exits 2 before anything is
    created, and the error, printed once, names rank 1 and the experiment;
  - rank 1 resumes from an older checkpoint of the same run (its own copy of the run
    directory): every rank exits 2, the error names rank 1 and the checkpoint, and the
    interrupted run is left as it was (rank 0's directory still resumes);
  - the same experiment on both ranks runs (the check passes what should pass);
  - with `replicas: 2` (twice the machines, more blocks) the two ranks' run has the bytes of
    one process's, but for the overlaps, which over ranks are off and named in
    `overlap_skipped`;
  - `nrpt.cluster_moves: houdayer` over two ranks is refused (exit 2, the key named),
    before anything is created."""

import os
import shutil
import signal
import subprocess

import yaml

import checkpoint_resume as cr
import clitest
import mpi_run


def two_programs(args, first, second, cwd, timeout=300):
    """One job of two ranks: rank 0 runs `hamon first` in cwd[0], rank 1 `hamon second` in
    cwd[1]."""
    command = [args.mpiexec, "-np", "1", "--oversubscribe", "-wdir", cwd[0], args.hamon] + first
    command += [":", "-np", "1", "-wdir", cwd[1], args.hamon] + second
    return subprocess.run(command, env=mpi_run.mpi_env(), stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, errors="replace", timeout=timeout)


def edited_experiment(work, name, edit):
    """mpi_run's experiment, edited (`edit`: text -> text), in a fresh directory `name`."""
    d = cr.fresh(work, name)
    config = os.path.join(d, "glass.yaml")
    mpi_run.experiment(config)
    with open(config) as f:
        text = f.read()
    with open(config, "w") as f:
        f.write(edit(text))
    return d, config


def main():
    args = clitest.arguments(__doc__, lambda p: p.add_argument("--mpiexec", required=True))
    failures = clitest.Failures()

    # Another experiment on rank 1: refused before any directory exists.
    d = cr.fresh(args.work, "experiments")
    config = os.path.join(d, "glass.yaml")
    mpi_run.experiment(config)
    with open(config) as f:
        text = f.read()
    other = os.path.join(d, "other.yaml")
    with open(other, "w") as f:
        f.write(text.replace("seed: 20261202", "seed: 20261203"))
    got = two_programs(args, ["run", config], ["run", other], [d, d])
    failures.check(got.returncode == 2, f"other experiments: exit {got.returncode}: "
                   f"{got.stderr[-2000:]}")
    failures.check(got.stderr.count("rank 1 differs from rank 0 in the experiment") == 1,
                   f"other experiments: the error does not name rank 1 once:\n{got.stderr}")
    failures.check(sorted(os.listdir(d)) == ["glass.yaml", "other.yaml"],
                   f"other experiments: created {sorted(os.listdir(d))}")

    # The same experiment twice: the run goes ahead.
    got = two_programs(args, ["run", config, "--quiet"], ["run", config, "--quiet"], [d, d])
    failures.check(got.returncode == 0, f"the same experiment: exit {got.returncode}: "
                   f"{got.stderr[-2000:]}")
    failures.check(os.path.isfile(os.path.join(d, "run", "summary.yaml")),
                   "the same experiment: no complete run")

    # Replicas over the ranks: the bytes of one process.
    d, config = edited_experiment(
        args.work, "replicas",
        lambda text: "replicas: 2\n" + text.replace("checkpoint: {every: 25}", "checkpoint: false"))
    got = two_programs(args, ["run", config, "--quiet"], ["run", config, "--quiet"], [d, d])
    alone = clitest.run(args.hamon, ["run", config, "--quiet", "--out", "alone"], cwd=d,
                        timeout=300)
    if failures.check(got.returncode == 0 and alone.returncode == 0,
                      f"replicas: exit {got.returncode} over ranks, {alone.returncode} alone: "
                      f"{got.stderr[-2000:]} {alone.stderr[-2000:]}"):
        for name in ("energies.npy", "samples.npy", "index_process.npy"):
            with open(os.path.join(d, "run", name), "rb") as a, \
                    open(os.path.join(d, "alone", name), "rb") as b:
                failures.check(a.read() == b.read(), f"replicas: {name} differs over ranks")
        # The overlaps need one process: absent over ranks, and the summary says why.
        with open(os.path.join(d, "run", "summary.yaml")) as f:
            spread = yaml.safe_load(f)
        with open(os.path.join(d, "alone", "summary.yaml")) as f:
            one = yaml.safe_load(f)
        failures.check("overlap" in one and "overlap_skipped" not in one,
                       "replicas: one process's summary has no overlap section")
        failures.check("overlap" not in spread and "one process" in
                       spread.get("overlap_skipped", ""),
                       f"replicas over ranks: overlap_skipped is {spread.get('overlap_skipped')!r}")

    # Cluster moves over ranks: refused at the key.
    d, config = edited_experiment(args.work, "houdayer", lambda text: text.replace(
        "  explore_sweeps: 2\n", "  explore_sweeps: 2\n  cluster_moves: houdayer\n"))
    got = two_programs(args, ["run", config], ["run", config], [d, d])
    failures.check(got.returncode == 2 and "nrpt.cluster_moves" in got.stderr,
                   f"houdayer over ranks: exit {got.returncode}: {got.stderr[-2000:]}")
    failures.check(sorted(os.listdir(d)) == ["glass.yaml"],
                   f"houdayer over ranks: created {sorted(os.listdir(d))}")

    # An older checkpoint on rank 1: an interrupted run (one process), copied, and the
    # copy's newest checkpoint replaced by its previous one.
    first = cr.fresh(args.work, "checkpoints0")
    second = os.path.join(args.work, "checkpoints1")
    shutil.rmtree(second, ignore_errors=True)
    config = os.path.join(first, "glass.yaml")
    mpi_run.experiment(config)
    p = cr.stopped_run(args.hamon, first, config, sig=signal.SIGUSR1)
    if not failures.check(p.returncode == 3, f"the interrupted run: exit {p.returncode}"):
        failures.finish("mpi agreement")
    shutil.copytree(first, second)
    partial = os.path.join(second, "run.partial")
    os.replace(os.path.join(partial, "checkpoint.bin.prev"),
               os.path.join(partial, "checkpoint.bin"))
    with open(os.path.join(first, "run.partial", "checkpoint.bin"), "rb") as f:
        before = f.read()
    got = two_programs(args, ["resume", "run"], ["resume", "run"], [first, second])
    failures.check(got.returncode == 2, f"other checkpoints: exit {got.returncode}: "
                   f"{got.stderr[-2000:]}")
    failures.check(got.stderr.count("rank 1 differs from rank 0 in the checkpoint") == 1,
                   f"other checkpoints: the error does not name rank 1 once:\n{got.stderr}")
    with open(os.path.join(first, "run.partial", "checkpoint.bin"), "rb") as f:
        failures.check(f.read() == before, "other checkpoints: rank 0's checkpoint changed")
    last = clitest.run(args.hamon, ["resume", "run", "--quiet"], cwd=first, timeout=300)
    failures.check(last.returncode == 0, f"rank 0's run no longer resumes: {last.stderr}")

    failures.finish("mpi agreement")


if __name__ == "__main__":
    main()
