#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""The ground-state search's outputs end to end (`hamon run`):
  - best_state.npy is one configuration of every node (int8 +-1 spins; uint8 Potts states),
    and summary.yaml's search.best_energy is its energy computed here from the model;
  - on a 12-node Ising glass with fields and a 7-node Potts graph the search reaches the
    ground state found here by enumeration, and no energy of energies.npy lies below it;
  - search.found_round, found_beta and round_trips_since_improvement are consistent with
    the run (a round of the run, a beta of the ladder's range, at most the run's trips);
  - nrpt.until: a run that ends when its best has not improved for K round trips
    (search.ended_by: stable, after a whole number of chunks of `rounds`), one that ends at
    max_rounds (ended_by: max_rounds, exactly max_rounds measured), and one stopped by
    SIGTERM in its first chunk and resumed: every output file is the uninterrupted run's
    (summary.yaml but its timing lines), so the resumed run ends at the same round."""

import itertools
import os
import random

import numpy as np

import clitest
from check_run import check_run
from checkpoint_resume import outputs, stopped_run
import potts_exact

N = 12
rng = random.Random(11)
EDGES = [(i, j, round(rng.gauss(0.0, 1.0), 3)) for i in range(N) for j in range(i + 1, N)
         if rng.random() < 0.35]
FIELDS = [round(rng.gauss(0.0, 0.1), 3) for _ in range(N)]

def ising_energy(s):
    """E(s) = -(sum_i h_i s_i + sum_edges J s_i s_j)."""
    return -(sum(h * x for h, x in zip(FIELDS, s)) + sum(J * s[i] * s[j] for i, j, J in EDGES))


def ising_model():
    edges = ", ".join(f"[{i}, {j}, {J}]" for i, j, J in EDGES)
    return f"  kind: graph\n  nodes: {N}\n  edges: [{edges}]\n  field: {FIELDS}"


def experiment(path, model, out, rounds=400, until=None, every=0, chains=5, beta_max=3.0):
    """100 rounds of burn-in, then `rounds` (under nrpt.until {stable_round_trips: K,
    max_rounds: N} given as (K, N): the chunk length); checkpoints every `every` rounds
    (0: the default)."""
    lines = [f"  until: {{stable_round_trips: {until[0]}, max_rounds: {until[1]}}}"] if until else []
    lines += ["output:", f"  dir: {out}"] + ([f"  checkpoint: {{every: {every}}}"] if every else [])
    with open(path, "w") as f:
        f.write(f"""seed: 7
device: serial
model:
{model}
nrpt:
  chains: {chains}
  beta_max: {beta_max}
  rounds: {rounds}
  burn_in: 100
  explore_sweeps: 1
""" + "\n".join(lines) + "\n")


def run(hamon, work, name, model, failures):
    config = os.path.join(work, name + ".yaml")
    out = os.path.join(work, name)
    experiment(config, model, out)
    result = clitest.run(hamon, ["run", config, "--quiet"], timeout=300)
    if not failures.check(result.returncode == 0,
                          f"{name}: exit {result.returncode}: {result.stderr.strip()}"):
        return None, None
    problems = []
    summary = check_run(out, problems)
    for p in problems:
        failures.check(False, f"{name}: {p}")
    return summary, out


def check_search(name, summary, out, energy_of, ground, dtype, n, failures):
    search = summary.get("search")
    if not failures.check(isinstance(search, dict), f"{name}: no search section"):
        return
    best = np.load(os.path.join(out, "best_state.npy"))
    failures.check(best.dtype == dtype and best.shape == (1, n),
                   f"{name}: best_state.npy is {best.dtype} {best.shape}")
    e = energy_of([int(v) for v in best[0]])
    failures.check(abs(e - search["best_energy"]) <= 1e-9,
                   f"{name}: best_energy {search['best_energy']}, best_state.npy's energy {e}")
    failures.check(abs(search["best_energy"] - ground) <= 1e-9,
                   f"{name}: best_energy {search['best_energy']}, ground state {ground}")
    energies = np.load(os.path.join(out, "energies.npy"))
    failures.check(energies.min() >= search["best_energy"] - 1e-9,
                   f"{name}: energies.npy holds {energies.min()} below the best")
    betas = summary["nrpt"]["betas"]
    failures.check(0 <= search["found_round"] < 500, f"{name}: found_round {search}")
    failures.check(betas[0] <= search["found_beta"] <= betas[-1], f"{name}: found_beta {search}")
    failures.check(0 <= search["round_trips_since_improvement"] <= summary["nrpt"]["round_trips"],
                   f"{name}: round_trips_since_improvement {search}")
    failures.check("ended_by" not in search, f"{name}: ended_by in a run of fixed length")


GLASS = """  kind: lattice
  shape: [10, 10]
  periodic: true
  coupling: {distribution: gaussian, seed: 3}
  field: {distribution: gaussian, seed: 4, std: 0.1}"""


BIG_GLASS = GLASS.replace("[10, 10]", "[48, 48]")


def until_run(hamon, work, name, chunk, stable, max_rounds, failures):
    d = os.path.join(work, name)
    os.makedirs(d)
    config = os.path.join(d, "until.yaml")
    experiment(config, GLASS, "run", chunk, (stable, max_rounds), chains=16, beta_max=2.0)
    result = clitest.run(hamon, ["run", config, "--quiet"], cwd=d, timeout=300)
    if not failures.check(result.returncode == 0,
                          f"{name}: exit {result.returncode}: {result.stderr.strip()}"):
        return None
    problems = []
    summary = check_run(os.path.join(d, "run"), problems)
    for p in problems:
        failures.check(False, f"{name}: {p}")
    return summary


def check_until(hamon, work, failures):
    stable = until_run(hamon, work, "until_stable", 100, 40, 1000000, failures)
    if stable is not None:
        search, measured = stable["search"], stable["nrpt"]["rounds"]
        failures.check(search.get("ended_by") == "stable", f"until_stable: search {search}")
        failures.check(search["round_trips_since_improvement"] >= 40,
                       f"until_stable: ended at {search['round_trips_since_improvement']} trips")
        failures.check(measured % 100 == 0 and measured < 1000000,
                       f"until_stable: {measured} measured rounds, not whole chunks")
        failures.check(stable["config"]["nrpt"]["until"] ==
                       {"stable_round_trips": 40, "max_rounds": 1000000},
                       f"until_stable: resolved config {stable['config']['nrpt']}")
    capped = until_run(hamon, work, "until_max", 100, 10**9, 250, failures)
    if capped is not None:
        failures.check(capped["search"].get("ended_by") == "max_rounds",
                       f"until_max: search {capped['search']}")
        failures.check(capped["nrpt"]["rounds"] == 250,
                       f"until_max: {capped['nrpt']['rounds']} measured rounds, want 250")
    # Resumed from a SIGTERM in the first chunk: a glass large enough that the signal lands
    # long before the end (thousands of rounds of 48x48x6 spins).
    runs = {}
    for name in ("until_whole", "until_resumed"):
        d = os.path.join(work, name)
        os.makedirs(d)
        config = os.path.join(d, "until.yaml")
        experiment(config, BIG_GLASS, "run", 200, (2, 2000), every=20, chains=6, beta_max=2.0)
        if name == "until_whole":
            result = clitest.run(hamon, ["run", config, "--quiet"], cwd=d, timeout=300)
            failures.check(result.returncode == 0, f"{name}: exit {result.returncode}")
        else:
            p = stopped_run(hamon, d, config, delay=0.0)
            failures.check(p.returncode == 3, f"{name}: exit {p.returncode}, want 3")
            result = clitest.run(hamon, ["resume", "run", "--quiet"], cwd=d, timeout=300)
            failures.check(result.returncode == 0,
                           f"{name}: resume exit {result.returncode}: {result.stderr.strip()}")
        runs[name] = outputs(os.path.join(d, "run"))
    want, got = runs["until_whole"], runs["until_resumed"]
    failures.check(sorted(got) == sorted(want), f"until_resumed: files {sorted(got)}")
    failures.check(b"ended_by:" in want.get("summary.yaml", b""), "until_whole: no ended_by")
    for name, data in want.items():
        failures.check(got.get(name) == data, f"until_resumed: {name} differs from uninterrupted")


def main():
    args = clitest.arguments(__doc__)
    failures = clitest.Failures()
    ground = min(ising_energy(s) for s in itertools.product((-1, 1), repeat=N))
    summary, out = run(args.hamon, args.work, "ising", ising_model(), failures)
    if summary is not None:
        check_search("ising", summary, out, ising_energy, ground, np.int8, N, failures)
    # The Potts graph of potts_exact.py (a clamped node among them).
    pground = min(potts_exact.energy(x) for x in itertools.product(range(potts_exact.Q),
                                                                   repeat=potts_exact.N)
                  if all(x[i] == v for i, v in potts_exact.CLAMPED.items()))
    summary, out = run(args.hamon, args.work, "potts", potts_exact.inline_model(), failures)
    if summary is not None:
        check_search("potts", summary, out, potts_exact.energy, pground, np.uint8, potts_exact.N,
                     failures)
    check_until(args.hamon, args.work, failures)
    failures.finish("search outputs")


if __name__ == "__main__":
    main()
