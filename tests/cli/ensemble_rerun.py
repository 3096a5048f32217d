#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""An ensemble stays whole when one of its instances is run again:

  - no file of a complete ensemble names DIR.partial (the directory it ran in, gone once
    it completes): each instance's config.yaml and summary.yaml record output.dir
    DIR-instance-k;
  - `hamon run DIR/instances/0/config.yaml` (run where the ensemble was run, as the
    documentation says) writes DIR-instance-0 beside the ensemble, with the bytes of
    DIR/instances/0, and creates no DIR.partial; with --out it writes there, the same bytes;
  - afterwards the complete ensemble is still one: `hamon resume DIR` says it is complete
    (and names no `hamon extend`, which refuses ensembles), `hamon run --overwrite`
    replaces it;
  - `--out DIR/instances/k` (an instance or a k to come) is refused with exit 2 and the
    ensemble unchanged: a run of its own would change it under its tables."""

import os

import clitest

CONFIG = """seed: 11
instances: 2
model:
  kind: lattice
  shape: [4, 4]
  coupling: {distribution: pm_one, seed: 2}
nrpt:
  chains: 4
  beta_max: 1.0
  rounds: 200
  burn_in: 20
output:
  dir: ens
  samples: {every: 10}
"""
RESULTS = ("energies.npy", "index_process.npy", "samples.npy", "betas.npy", "best_state.npy",
           "checkpoint.bin")


def tree(directory):
    """{relative path: bytes} of every file under `directory`."""
    found = {}
    for root, _, files in os.walk(directory):
        for name in files:
            path = os.path.join(root, name)
            with open(path, "rb") as f:
                found[os.path.relpath(path, directory)] = f.read()
    return found


def same_results(failures, a, b, what):
    for name in RESULTS:
        with open(os.path.join(a, name), "rb") as x, open(os.path.join(b, name), "rb") as y:
            failures.check(x.read() == y.read(), f"{what}: {name} differs from the instance's")


def main():
    args = clitest.arguments(__doc__)
    failures = clitest.Failures()
    work = args.work
    with open(os.path.join(work, "e.yaml"), "w") as f:
        f.write(CONFIG)
    result = clitest.run(args.hamon, ["run", "e.yaml", "--quiet"], cwd=work)
    if not failures.check(result.returncode == 0, f"ensemble: {result.stderr}"):
        failures.finish("ensemble_rerun")
    ens = os.path.join(work, "ens")
    for rel, data in tree(ens).items():
        failures.check(b".partial" not in data, f"ens/{rel} names a .partial path")
    # The documented re-run, from where the ensemble was run.
    result = clitest.run(args.hamon, ["run", os.path.join("ens", "instances", "0", "config.yaml"),
                                      "--quiet"], cwd=work)
    failures.check(result.returncode == 0, f"re-run of instance 0: {result.stderr}")
    failures.check(not os.path.exists(ens + ".partial"),
                   "re-running instance 0 created ens.partial beside the complete ensemble")
    rerun = os.path.join(work, "ens-instance-0")
    if failures.check(os.path.isdir(rerun), f"no {rerun} after the re-run: {os.listdir(work)}"):
        same_results(failures, rerun, os.path.join(ens, "instances", "0"), "ens-instance-0")
    # With --out: where the user says.
    there = os.path.join(work, "elsewhere", "one")
    result = clitest.run(args.hamon, ["run", os.path.join(ens, "instances", "1", "config.yaml"),
                                      "--out", there, "--quiet"], cwd=work)
    if failures.check(result.returncode == 0, f"re-run of instance 1 --out: {result.stderr}"):
        same_results(failures, there, os.path.join(ens, "instances", "1"), "--out")
    # The ensemble is still whole and hamon's.
    before = tree(ens)
    result = clitest.run(args.hamon, ["resume", "ens"], cwd=work)
    failures.check(result.returncode == 2 and "complete ensemble, nothing to resume" in
                   result.stderr and "extend" not in result.stderr,
                   f"resume of the complete ensemble: exit {result.returncode}: {result.stderr}")
    for out in (os.path.join("ens", "instances", "1"), os.path.join("ens", "instances", "5")):
        result = clitest.run(args.hamon, ["run", os.path.join(ens, "instances", "1", "config.yaml"),
                                          "--out", out, "--overwrite", "--quiet"], cwd=work)
        failures.check(result.returncode == 2 and "inside the complete ensemble" in result.stderr,
                       f"--out {out}: exit {result.returncode}: {result.stderr}")
    failures.check(tree(ens) == before, "a refused command changed the ensemble")
    failures.check(not os.path.exists(ens + ".partial"), "a refused command left ens.partial")
    result = clitest.run(args.hamon, ["run", "e.yaml", "--overwrite", "--quiet"], cwd=work)
    failures.check(result.returncode == 0, f"--overwrite of the ensemble: {result.stderr}")
    failures.check(tree(ens).keys() == before.keys() and not os.path.exists(ens + ".partial"),
                   "--overwrite did not replace the ensemble whole")
    failures.finish("ensemble_rerun")


if __name__ == "__main__":
    main()
