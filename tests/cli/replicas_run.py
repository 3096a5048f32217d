#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""`replicas` and `nrpt.cluster_moves` end to end:

  - `replicas: 1` is the run without the key: the same bytes in every result file and the
    checkpoint, and the same summary but for its timings;
  - `replicas: 3`: replica 0 is that run (energies.npy, samples.npy, index_process.npy are
    replica 0's, byte for byte), the summary says `replicas: 3` with three round-trip
    counts that add up to `round_trips`, each > 0, and `replicas: 3` in config.yaml;
  - `replicas: 3` also writes the replica overlaps: summary `overlap:` over the 3 pairs and
    overlap_histograms.npy, consistent with each other (check_run.py); one replica has none;
  - `cluster_moves: houdayer` without `replicas` runs two replicas, writes both keys into
    config.yaml, and `hamon extend` of it gives the bytes of a run configured longer (the
    overlaps too: their histograms and summary section).
"""

import os

import numpy as np
import yaml

import check_run
import clitest

BASE = """seed: 5
model:
  kind: lattice
  shape: [8, 8]
  coupling: {distribution: gaussian, seed: 3}
  field: {distribution: gaussian, std: 0.1, seed: 4}
nrpt:
  chains: 6
  beta_max: 1.0
  rounds: ROUNDS
  burn_in: 100
output:
  samples: {every: 5}
"""
RESULTS = ("energies.npy", "index_process.npy", "samples.npy", "betas.npy")


def run(args, failures, name, top="", nrpt="", rounds=400):
    path = os.path.join(args.work, name + ".yaml")
    with open(path, "w") as f:
        f.write(top + BASE.replace("ROUNDS", str(rounds)).replace("output:", nrpt + "output:"))
    out = os.path.join(args.work, name)
    result = clitest.run(args.hamon, ["run", path, "--out", out, "--quiet"])
    if not failures.check(result.returncode == 0, f"{name}: exit {result.returncode}: "
                          f"{result.stderr}"):
        return None
    with open(os.path.join(out, "summary.yaml")) as f:
        return out, yaml.safe_load(f)


GAUSSIAN = """seed: 3
replicas: 2
model:
  kind: gaussian
  shape: [4, 4]
  periodic: true
  coupling: 0.2
  diag: 1.0
nrpt:
  chains: 4
  beta_max: 1.0
  rounds: 200
"""


def check_gaussian_replicas(args, failures):
    path = os.path.join(args.work, "gaussian.yaml")
    with open(path, "w") as f:
        f.write(GAUSSIAN)
    out = os.path.join(args.work, "gaussian")
    result = clitest.run(args.hamon, ["run", path, "--out", out, "--quiet"])
    if not failures.check(result.returncode == 0, f"gaussian replicas: {result.stderr}"):
        return
    with open(os.path.join(out, "summary.yaml")) as f:
        summary = yaml.safe_load(f)
    skipped = summary.get("overlap_skipped", "")
    failures.check("overlap" not in summary and "continuous" in skipped and "MPI" not in skipped,
                   f"gaussian replicas in one process: overlap_skipped is {skipped!r}")


def file_bytes(directory, name):
    with open(os.path.join(directory, name), "rb") as f:
        return f.read()


def without_timings(summary):
    """The summary without its timings and its output directory (each run has its own)."""
    kept = {k: v for k, v in summary.items() if k != "timing"}
    kept["config"] = dict(kept["config"], output=dict(kept["config"]["output"], dir=None))
    return kept


def main():
    args = clitest.arguments(__doc__)
    failures = clitest.Failures()
    plain = run(args, failures, "plain")
    one = run(args, failures, "one", top="replicas: 1\n")
    three = run(args, failures, "three", top="replicas: 3\n")
    if None in (plain, one, three):
        failures.finish("replicas")
    for name in RESULTS + ("checkpoint.bin",):
        failures.check(file_bytes(plain[0], name) == file_bytes(one[0], name),
                       f"replicas: 1 changed {name}")
    failures.check(without_timings(plain[1]) == without_timings(one[1]),
                   "replicas: 1 changed the summary")
    failures.check("replicas" not in plain[1]["nrpt"], "a one-replica summary names replicas")
    for name in RESULTS:
        failures.check(file_bytes(plain[0], name) == file_bytes(three[0], name),
                       f"replicas: 3: {name} is not replica 0's, the one-replica run's")
    nrpt = three[1]["nrpt"]
    per = nrpt.get("round_trips_per_replica", [])
    failures.check(nrpt.get("replicas") == 3 and len(per) == 3, f"summary nrpt: {nrpt}")
    failures.check(sum(per) == nrpt["round_trips"] and min(per, default=0) > 0,
                   f"round trips per replica {per}, total {nrpt['round_trips']}")
    with open(os.path.join(three[0], "config.yaml")) as f:
        failures.check(yaml.safe_load(f).get("replicas") == 3, "config.yaml lacks replicas: 3")
    failures.check("overlap" not in plain[1], "a one-replica run has an overlap section")
    overlap = three[1].get("overlap", {})
    failures.check(overlap.get("replica_pairs") == 3 and overlap.get("betas") == nrpt["betas"],
                   f"replicas: 3: overlap section {overlap}")
    problems = []
    check_run.check_run(three[0], problems)
    for p in problems:
        failures.check(False, p)

    check_gaussian_replicas(args, failures)

    houdayer = "  cluster_moves: houdayer\n"
    short = run(args, failures, "houdayer", nrpt=houdayer, rounds=300)
    longer = run(args, failures, "houdayer_long", nrpt=houdayer, rounds=400)
    if short is not None and longer is not None:
        failures.check(short[1]["nrpt"].get("replicas") == 2, f"houdayer: {short[1]['nrpt']}")
        with open(os.path.join(short[0], "config.yaml")) as f:
            config = yaml.safe_load(f)
        failures.check(config.get("replicas") == 2 and
                       config["nrpt"].get("cluster_moves") == "houdayer",
                       f"houdayer config.yaml: {config}")
        moved = np.load(os.path.join(short[0], "energies.npy"))
        unmoved = np.load(os.path.join(plain[0], "energies.npy"))[:len(moved)]
        failures.check(not np.array_equal(moved, unmoved), "the cluster moves changed nothing")
        extended = clitest.run(args.hamon, ["extend", short[0], "--rounds", "100", "--quiet"])
        if failures.check(extended.returncode == 0, f"extend: {extended.stderr}"):
            for name in RESULTS + ("checkpoint.bin", "overlap_histograms.npy"):
                failures.check(file_bytes(short[0], name) == file_bytes(longer[0], name),
                               f"houdayer: extended {name} differs from the longer run's")
            with open(os.path.join(short[0], "summary.yaml")) as f:
                extended_overlap = yaml.safe_load(f).get("overlap")
            failures.check(extended_overlap is not None and
                           extended_overlap == longer[1].get("overlap"),
                           "houdayer: the extended run's overlaps differ from the longer run's")
    failures.finish("replicas")


if __name__ == "__main__":
    main()
