#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""A Gaussian graph end to end against its closed forms: `hamon run` on a 10-node model with
couplings of both signs and fields (given inline, and again as a graph text file with
'diag I D' lines), then

  - observables.node_means, node_variances and energy_per_node match the exact
    mean P^-1 h, variances diag (beta P)^-1 and <E> = n / (2 beta) - h' P^-1 h / 2:
    |run - exact| <= 5 * (the run's own reported stderr). Five standard errors because the
    batch-means stderr (32 batches) is itself uncertain by ~13% and 21 values are compared;
  - log_z (from the annealing reference's exact log Z, stepping stone) matches
    n/2 log(2 pi / beta) - 1/2 log det P + beta/2 h' P^-1 h within 5 of its errors;
  - search.best_energy is E of best_state.npy, between E's minimum and its mean;
  - samples.npy is float64, and its column means agree with node_means;
  - the same model from a graph file gives the same model and the same bits (samples.npy,
    energies.npy, node_means);
  - tuned (`tune: auto`: chains, ladder and sweeps, on the annealing path from the
    independent-site reference): the plan's ladder keeps the ends 0 and beta_max exactly,
    and the tuned run meets the same closed forms with the same tolerances; a repeat run
    with the same inputs loads the plan from the tuning cache (under --work), the same plan
    bit for bit.
"""

import math
import os

import numpy as np
import yaml

import clitest
from check_run import check_run

N = 10
EDGES = [(0, 1, 0.4), (1, 2, -0.3), (2, 3, 0.5), (3, 4, 0.2), (4, 0, -0.4), (5, 6, 0.3),
         (6, 7, 0.3), (7, 8, -0.5), (8, 9, 0.4), (9, 5, 0.2), (0, 5, 0.3), (2, 7, -0.2)]
DIAG = [1.2, 1.5, 1.1, 1.3, 1.4, 1.0, 1.6, 1.2, 1.3, 1.1]
FIELD = [0.5, -0.2, 0.0, 0.3, -0.6, 0.1, 0.0, 0.4, -0.3, 0.2]
BETA = 1.0


def precision():
    p = np.diag(DIAG)
    for i, j, w in EDGES:
        p[i, j] = p[j, i] = -w
    return p


def exact():
    p = precision()
    h = np.array(FIELD)
    mean = np.linalg.solve(p, h)
    cov = np.linalg.inv(BETA * p)
    h_mu = float(h @ mean)
    log_z = 0.5 * N * math.log(2 * math.pi / BETA) - 0.5 * np.linalg.slogdet(p)[1] + 0.5 * BETA * h_mu
    energy = N / (2 * BETA) - 0.5 * h_mu
    return mean, np.diag(cov), energy / N, log_z


def experiment(model, out):
    return f"""seed: 3
model:
{model}
nrpt:
  chains: 5
  beta_max: {BETA}
  rounds: 8000
  burn_in: 500
output:
  dir: {out}
  samples: {{every: 4, nodes: all}}
  moments: true
"""


TUNED = """seed: 3
model:
{model}
nrpt:
  tune: auto
  beta_max: {beta}
  max_chains: 8
  tune_rounds: 100
  rounds: 8000
  burn_in: 500
output:
  dir: {out}
  moments: true
"""


def check_exact(s, label, directory, failures):
    """The summary's moments, energy and log Z against the closed forms (5 of their errors)."""
    o = s["observables"]
    mean, var, energy, log_z = exact()
    worst = 0.0
    for key, want in (("node_means", mean), ("node_variances", var)):
        got, err = np.array(o[key]), np.array(o[key + "_stderr"])
        z = np.abs(got - want) / err
        worst = max(worst, float(z.max()))
        failures.check(np.all(z <= 5), f"{label}: {key}: {got} vs exact {want} (z {z})")
    e = o["energy_per_node"]
    failures.check(abs(e["mean"] - energy) <= 5 * e["stderr"],
                   f"{label}: energy_per_node {e} vs exact {energy}")
    ss = s["log_z"]["stepping_stone"]
    failures.check(abs(ss["value"] - log_z) <= 5 * ss["error"],
                   f"{label}: log_z {ss} vs exact {log_z}")
    # The best state is the model's lowest E reached (never the swap energy E - E_ref,
    # unbounded below): E of best_state.npy (to the fixed point's 2^-24 per term), between
    # E's minimum -h'P^-1 h / 2 and its mean at beta, n / (2 beta) above that minimum.
    best, p, h = s["search"]["best_energy"], precision(), np.array(FIELD)
    x = np.load(os.path.join(directory, "best_state.npy"))[0]
    e_min = -0.5 * float(h @ np.linalg.solve(p, h))
    failures.check(abs(best - (0.5 * x @ p @ x - h @ x)) <= 1e-5 and
                   e_min - 1e-9 <= best <= e_min + N / (2 * BETA),
                   f"{label}: best_energy {best}, E(best_state) {0.5 * x @ p @ x - h @ x}, "
                   f"E_min {e_min}")
    print(f"{label}: largest |z| of means and variances {worst:.2f}; energy {e['mean']:.4f} +- "
          f"{e['stderr']:.4f} (exact {energy:.4f}); log Z {ss['value']:.4f} +- {ss['error']:.4f} "
          f"(exact {log_z:.4f})")


def run_and_check(args, name, text, failures):
    config = os.path.join(args.work, name + ".yaml")
    with open(config, "w") as f:
        f.write(text)
    r = clitest.run(args.hamon, ["run", config, "--quiet", "--device", "serial"], cwd=args.work)
    if not failures.check(r.returncode == 0, f"{name}: exit {r.returncode}: {r.stderr}"):
        failures.finish("Gaussian closed forms")
    problems = []
    summary = check_run(os.path.join(args.work, name), problems)
    for p in problems:
        failures.check(False, p)
    return summary


def main():
    args = clitest.arguments(__doc__.split("\n")[0])
    failures = clitest.Failures()
    inline = ("  kind: gaussian\n  nodes: 10\n  edges: " + str([list(e) for e in EDGES]) +
              "\n  diag: " + str(DIAG) + "\n  field: " + str(FIELD))
    with open(os.path.join(args.work, "g.txt"), "w") as f:
        f.write("nodes 10\n" + "".join(f"edge {i} {j} {w}\n" for i, j, w in EDGES) +
                "".join(f"diag {i} {d}\n" for i, d in enumerate(DIAG)) +
                "".join(f"field {i} {h}\n" for i, h in enumerate(FIELD)))
    runs = {}
    for name, model in (("inline", inline), ("file", "  kind: gaussian\n  file: g.txt")):
        runs[name] = run_and_check(args, name, experiment(model, name), failures)
    o = runs["inline"]["observables"]
    check_exact(runs["inline"], "fixed ladder", os.path.join(args.work, "inline"), failures)
    samples = np.load(os.path.join(args.work, "inline", "samples.npy"))
    failures.check(samples.dtype == np.float64 and samples.shape == (2000, N),
                   f"samples.npy {samples.dtype} {samples.shape}")
    failures.check(np.all(np.abs(samples.mean(axis=0) - np.array(o["node_means"])) < 0.1),
                   "samples' column means disagree with node_means")
    for name in ("samples.npy", "energies.npy"):
        with open(os.path.join(args.work, "inline", name), "rb") as a, \
                open(os.path.join(args.work, "file", name), "rb") as b:
            failures.check(a.read() == b.read(), f"{name}: inline and graph file differ")
    failures.check(runs["file"]["observables"]["node_means"] == o["node_means"],
                   "node_means: inline and graph file differ")

    tuned = run_and_check(args, "tuned", TUNED.format(model=inline, beta=BETA, out="tuned"),
                          failures)
    plan = tuned["tuning"]["plan"]
    failures.check(not tuned["tuning"]["cache_hit"], "tuned: the first run hit the cache")
    failures.check(plan["betas"][0] == 0.0 and plan["betas"][-1] == BETA,
                   f"tuned: the ladder's ends moved: {plan['betas']}")
    check_exact(tuned, "tuned", os.path.join(args.work, "tuned"), failures)
    again = run_and_check(args, "tuned_again", TUNED.format(model=inline, beta=BETA,
                                                            out="tuned_again"), failures)
    failures.check(again["tuning"]["cache_hit"], "tuned_again: the repeat run tuned again")
    failures.check(again["tuning"]["plan"]["betas"] == plan["betas"] and
                   again["tuning"]["plan"]["explore_sweeps"] == plan["explore_sweeps"],
                   f"tuned_again: another plan: {again['tuning']['plan']} vs {plan}")
    failures.finish("Gaussian closed forms")


if __name__ == "__main__":
    main()
