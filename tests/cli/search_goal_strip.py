#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""`nrpt: {goal: ground_state}` alone, against the exact ground state of Gaussian spin-glass
strips (periodic across 8, open along 25, Gaussian couplings, Gaussian fields of std 0.1:
200 spins, beyond enumeration). The oracle is a min-sum transfer over the strip's columns
(2^8 states each), itself checked against enumeration on a 3 x 4 strip. For each of three
strips the run

  - reaches the exact ground-state energy, and best_state.npy has that energy;
  - ends by its stop rule (`stable`): the best has held for 1.5 times the rounds it took to
    find it and for at least one round trip (the goal's rule, checked every 100 rounds).
Every summary passes check_run.py."""

import itertools
import os
import random

import numpy as np

import clitest
from check_run import check_run
from search_goal import energy_of

WIDTH, LENGTH = 8, 25
RATIO, TRIPS, CHUNK = 1.5, 1, 100  # the goal's until (examples/README.md)


def strip(width, length, seed):
    """Nodes x * width + y; couplings across (y, y+1 mod width) and along (x, x+1)."""
    rng = random.Random(seed)
    edges = []
    for x in range(length):
        for y in range(width):
            i = x * width + y
            if width > 2 or y + 1 < width:
                edges.append((i, x * width + (y + 1) % width, rng.gauss(0.0, 1.0)))
            if x + 1 < length:
                edges.append((i, i + width, rng.gauss(0.0, 1.0)))
    fields = [rng.gauss(0.0, 0.1) for _ in range(width * length)]
    return edges, fields


def transfer_ground(width, length, edges, fields):
    """min E by min-sum over columns: cost[c] the lowest energy of columns 0..x ending in
    column state c (spin y of c is +1 where bit y is set)."""
    states = np.array([[1.0 if (c >> y) & 1 else -1.0 for y in range(width)]
                       for c in range(2 ** width)])
    within = [np.zeros(2 ** width) for _ in range(length)]
    between = [np.zeros((2 ** width, 2 ** width)) for _ in range(length - 1)]
    for x in range(length):
        for y in range(width):
            within[x] -= fields[x * width + y] * states[:, y]
    for i, j, J in edges:
        xi, yi, xj, yj = i // width, i % width, j // width, j % width
        if xi == xj:
            within[xi] -= J * states[:, yi] * states[:, yj]
        else:
            between[xi] -= J * np.outer(states[:, yi], states[:, yj])
    cost = within[0]
    for x in range(1, length):
        cost = (cost[:, None] + between[x - 1]).min(axis=0) + within[x]
    return float(cost.min())


def enumerated_ground(n, edges, fields):
    return min(energy_of(s, edges, fields) for s in itertools.product((-1, 1), repeat=n))


def graph_model(n, edges, fields):
    text = ", ".join(f"[{i}, {j}, {J!r}]" for i, j, J in edges)
    return f"{{kind: graph, nodes: {n}, edges: [{text}], field: [{', '.join(map(repr, fields))}]}}"


def check_strip(args, failures, seed):
    name = f"strip_{seed}"
    edges, fields = strip(WIDTH, LENGTH, seed)
    ground = transfer_ground(WIDTH, LENGTH, edges, fields)
    config = os.path.join(args.work, name + ".yaml")
    out = os.path.join(args.work, name)
    with open(config, "w") as f:
        f.write(f"seed: {seed}\nmodel: {graph_model(WIDTH * LENGTH, edges, fields)}\n"
                "nrpt: {goal: ground_state}\noutput: {samples: false}\n")
    r = clitest.run(args.hamon, ["run", config, "--out", out, "--quiet"], timeout=600)
    if not failures.check(r.returncode == 0, f"{name}: exit {r.returncode}: {r.stderr.strip()}"):
        return
    problems = []
    summary = check_run(out, problems)
    for p in problems:
        failures.check(False, f"{name}: {p}")
    if summary is None:
        return
    search = summary["search"]
    tolerance = 1e-9 * abs(ground)
    failures.check(abs(search["best_energy"] - ground) <= tolerance,
                   f"{name}: best {search['best_energy']}, exact ground state {ground}")
    best = np.load(os.path.join(out, "best_state.npy"))
    e = energy_of([int(v) for v in best[0]], edges, fields)
    failures.check(abs(e - ground) <= tolerance, f"{name}: best_state.npy's energy {e}")
    failures.check(search.get("ended_by") == "stable", f"{name}: ended by {search.get('ended_by')}")
    # Rounds counted from the first, burn-in included, as the rule counts them.
    to_best = search["found_round"] + 1
    stop = summary["config"]["nrpt"].get("burn_in", 0) + summary["nrpt"]["rounds"]
    failures.check((1 + RATIO) * to_best <= stop and stop % CHUNK == 0,
                   f"{name}: stopped in round {stop}, best found in {to_best}: not at a chunk "
                   f"boundary where it held {RATIO} times as long")
    failures.check(search["round_trips_since_improvement"] >= TRIPS,
                   f"{name}: stopped {search['round_trips_since_improvement']} round trips "
                   f"after its best, want {TRIPS}")
    print(f"{name}: exact {ground:.6f}, found in round {to_best}, stopped in {stop} "
          f"({stop / to_best:.2f}x)")


def main():
    args = clitest.arguments(__doc__)
    failures = clitest.Failures()
    edges, fields = strip(3, 4, 1)
    failures.check(abs(transfer_ground(3, 4, edges, fields) - enumerated_ground(12, edges, fields))
                   <= 1e-12, "the transfer oracle disagrees with enumeration on a 3 x 4 strip")
    for seed in (1, 2, 3):
        check_strip(args, failures, seed)
    failures.finish("goal: ground_state on strips")


if __name__ == "__main__":
    main()
