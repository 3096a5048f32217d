#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""A q = 3 Potts graph end to end against exact enumeration: `hamon run` on a small graph
with per-state fields, a clamp and couplings of both signs (given inline, and again as a
graph text file), then

  - observables.node_marginals (P(x_i = s), one list of q per node) match the exact
    marginals at the coldest beta, and energy_per_node the exact mean energy per node:
    |run - exact| <= 5 * (the run's own reported stderr) + 0.004. Five standard errors
    because the batch-means stderr (32 batches) is itself uncertain by ~1/sqrt(2*31) = 13%,
    and a few dozen values are compared at once; the floor covers a stderr estimated as
    near 0 for a rare state;
  - clamped nodes have the marginal of their state exactly (1 there, 0 elsewhere);
  - samples.npy is uint8 states 0..q-1, the clamped column constant, and the state
    frequencies of the samples (every round) agree with node_marginals;
  - the same model from a graph file (potts 3 / field I S H / clamp I S) gives the same
    model and the same bits (node_marginals, energies.npy, samples.npy).
"""

import itertools
import math
import os

import numpy as np
import yaml

import clitest

Q = 3
N = 7
EDGES = [(0, 1, 1.0), (1, 2, 1.0), (0, 2, 0.5), (2, 3, 0.8), (3, 4, -1.0), (4, 5, -1.0),
         (5, 6, -0.6), (6, 3, 1.2), (1, 4, 0.3)]
FIELDS = [[0.5, 0.0, 0.0], [0.0, 0.0, 0.0], [0.0, 0.3, -0.2], [0.0, 0.0, 0.0],
          [0.0, 0.0, 0.4], [-0.5, 0.0, 0.0], [0.0, 0.0, 0.0]]
CLAMPED = {6: 2}
BETAS = [0.0, 0.35, 0.7, 1.1]
ROUNDS = 20000
BURN_IN = 1000


def energy(x):
    """E(x) = -(sum_i h_i(x_i) + sum_edges J delta(x_i, x_j))."""
    e = -sum(FIELDS[i][x[i]] for i in range(N))
    e -= sum(J for i, j, J in EDGES if x[i] == x[j])
    return e


def exact(beta):
    """Marginals P(x_i = s) (N x Q) and <E> / N at beta, enumerating the free nodes."""
    free = [i for i in range(N) if i not in CLAMPED]
    marginals = np.zeros((N, Q))
    z, mean_e = 0.0, 0.0
    for states in itertools.product(range(Q), repeat=len(free)):
        x = [0] * N
        for i, s in zip(free, states):
            x[i] = s
        for i, s in CLAMPED.items():
            x[i] = s
        e = energy(x)
        w = math.exp(-beta * e)
        z += w
        mean_e += w * e
        for i in range(N):
            marginals[i, x[i]] += w
    return marginals / z, mean_e / z / N


def experiment(path, model, out):
    with open(path, "w") as f:
        f.write(f"""seed: 3
device: serial
model:
{model}
nrpt:
  betas: {BETAS}
  rounds: {ROUNDS}
  burn_in: {BURN_IN}
  explore_sweeps: 1
output:
  dir: {out}
  samples: {{every: 1, nodes: all}}
  moments: true
""")


def inline_model():
    edges = ", ".join(f"[{i}, {j}, {J}]" for i, j, J in EDGES)
    fields = ", ".join(str(row) for row in FIELDS)
    clamped = ", ".join(f"{i}: {s}" for i, s in CLAMPED.items())
    return (f"  kind: graph\n  potts: {Q}\n  nodes: {N}\n  edges: [{edges}]\n"
            f"  field: [{fields}]\n  clamped: {{{clamped}}}")


def graph_file(path):
    with open(path, "w") as f:
        f.write(f"# the same model as the inline one\nnodes {N}\npotts {Q}\n")
        for i, j, J in EDGES:
            f.write(f"edge {i} {j} {J}\n")
        for i, row in enumerate(FIELDS):
            for s, h in enumerate(row):
                if h != 0.0:
                    f.write(f"field {i} {s} {h}\n")
        for i, s in CLAMPED.items():
            f.write(f"clamp {i} {s}\n")


def run(hamon, work, name, model, failures):
    config = os.path.join(work, name + ".yaml")
    out = os.path.join(work, name)
    experiment(config, model, out)
    return clitest.run_checked(hamon, config, out, name, failures)


def main():
    args = clitest.arguments(__doc__)
    failures = clitest.Failures()
    os.makedirs(args.work, exist_ok=True)
    summary = run(args.hamon, args.work, "inline", inline_model(), failures)
    if summary is None:
        failures.finish("Potts exact enumeration")
    want, want_e = exact(BETAS[-1])
    o = summary["observables"]
    failures.check(summary["model"].get("n_states") == Q, f"model.n_states {summary['model']}")
    p = np.array(o["node_marginals"])
    err = np.array(o["node_marginals_stderr"])
    if not failures.check(p.shape == (N, Q) and err.shape == (N, Q),
                          f"node_marginals {p.shape}, stderr {err.shape}: expected {(N, Q)}"):
        failures.finish("Potts exact enumeration")
    worst = 0.0
    for i in range(N):
        for s in range(Q):
            if i in CLAMPED:
                failures.check(p[i, s] == (1.0 if s == CLAMPED[i] else 0.0),
                               f"clamped node {i}: P(x = {s}) = {p[i, s]}")
                continue
            tolerance = 5.0 * err[i, s] + 0.004
            worst = max(worst, abs(p[i, s] - want[i, s]) / tolerance)
            failures.check(abs(p[i, s] - want[i, s]) <= tolerance,
                           f"P(x_{i} = {s}) = {p[i, s]:.5f} +- {err[i, s]:.5f}, "
                           f"exact {want[i, s]:.5f}")
    e = o["energy_per_node"]
    failures.check(abs(e["mean"] - want_e) <= 5.0 * e["stderr"] + 0.004,
                   f"energy_per_node {e['mean']:.5f} +- {e['stderr']:.5f}, exact {want_e:.5f}")
    print(f"node marginals: worst |run - exact| / tolerance = {worst:.3f}; energy per node "
          f"{e['mean']:.5f} +- {e['stderr']:.5f}, exact {want_e:.5f}")

    samples = np.load(os.path.join(args.work, "inline", "samples.npy"))
    failures.check(samples.dtype == np.uint8 and samples.shape == (ROUNDS, N),
                   f"samples.npy {samples.dtype} {samples.shape}")
    failures.check(np.all(samples < Q), "samples.npy holds a state >= q")
    for i, s in CLAMPED.items():
        failures.check(np.all(samples[:, i] == s), f"clamped node {i} moved in samples.npy")
    freq = np.stack([(samples == s).mean(axis=0) for s in range(Q)], axis=1)
    failures.check(np.allclose(freq, p, atol=1e-9),
                   f"sample frequencies {freq.tolist()} != node_marginals {p.tolist()}")

    # The same model from a graph file: the same bits.
    path = os.path.join(args.work, "potts.txt")
    graph_file(path)
    from_file = run(args.hamon, args.work, "file", f"  kind: graph\n  file: {path}", failures)
    if from_file is not None:
        failures.check(from_file["model"] == summary["model"],
                       f"model {from_file['model']} != {summary['model']}")
        failures.check(from_file["observables"] == o, "graph file: observables differ from inline")
        for name in ("energies.npy", "samples.npy"):
            a = np.load(os.path.join(args.work, "inline", name))
            b = np.load(os.path.join(args.work, "file", name))
            failures.check(a.dtype == b.dtype and np.array_equal(a, b),
                           f"graph file: {name} differs from inline")
        resolved = from_file["config"]["model"]
        failures.check(resolved.get("kind") == "graph" and "file" in resolved,
                       f"resolved graph-file config {resolved}")
    failures.finish("Potts exact enumeration")


if __name__ == "__main__":
    main()
