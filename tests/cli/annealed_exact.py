#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""An Ising graph on the annealing path end to end (`nrpt.reference: independent`): `hamon
run` on a 10-node model with strong fields and one clamped node, against enumeration of its
2^9 free configurations here:

  - the summary says model.annealed: true, and log_z.log_z0 is the reference's exact
    log Z at beta_max: log 2 cosh(beta h_i) per free node, beta h_c c for the clamped one;
  - log_z (stepping stone and thermodynamic integration) matches the enumerated log Z, and
    observables.node_means and energy_per_node the enumerated moments, within 5 of the
    run's own errors (32..64 batch means: the error is itself uncertain by ~13%, and 13
    values are compared; a calibrated error exceeds 5 about once in 10^4 values);
  - the same run on openmp (2 threads) gives the same bits (energies.npy, samples.npy), and
    a run of half the rounds extended by the other half gives the straight run's bits (the
    reference is recorded with the run and taken up by `extend`);
  - tuned (`chains: auto`, `betas: auto`), the ladder is tuned on the annealing path and
    log Z still matches enumeration within 5 errors.
"""

import itertools
import math
import os

import numpy as np

import clitest
from check_run import check_run

N = 10
EDGES = [(0, 1, 0.8), (1, 2, -0.6), (2, 3, 0.9), (3, 4, -0.7), (4, 0, 0.5), (5, 6, 0.7),
         (6, 7, -0.9), (7, 8, 0.6), (8, 5, -0.5), (0, 5, 0.4), (2, 7, -0.8), (9, 1, 0.6),
         (9, 6, -0.7)]
FIELD = [1.8, -1.5, 2.0, -0.4, 1.2, -1.9, 0.7, 1.6, -1.1, 1.4]
CLAMPED = {9: -1}
BETA = 1.0
ROUNDS = 8000


def energy(s):
    e = -sum(h * x for h, x in zip(FIELD, s))
    return e - sum(w * s[i] * s[j] for i, j, w in EDGES)


def exact():
    free = [i for i in range(N) if i not in CLAMPED]
    z, mean_e, means = 0.0, 0.0, np.zeros(N)
    for bits in itertools.product((-1, 1), repeat=len(free)):
        s = [CLAMPED.get(i, 0) for i in range(N)]
        for i, b in zip(free, bits):
            s[i] = b
        e = energy(s)
        w = math.exp(-BETA * e)
        z += w
        mean_e += w * e
        means += w * np.array(s)
    log_z0 = sum(math.log(2 * math.cosh(BETA * FIELD[i])) for i in free)
    log_z0 += sum(BETA * FIELD[i] * c for i, c in CLAMPED.items())
    return math.log(z), log_z0, means / z, mean_e / z / N


def experiment(path, out, rounds, chains="5"):
    edges = ", ".join(f"[{i}, {j}, {w}]" for i, j, w in EDGES)
    clamped = ", ".join(f"{i}: {c}" for i, c in CLAMPED.items())
    with open(path, "w") as f:
        f.write(f"""seed: 5
model:
  kind: graph
  nodes: {N}
  edges: [{edges}]
  field: {FIELD}
  clamped: {{{clamped}}}
nrpt:
  chains: {chains}
  beta_max: {BETA}
  rounds: {rounds}
  burn_in: 500
  reference: independent
output:
  dir: {out}
  samples: {{every: 4, nodes: all}}
  moments: true
""")


def run(hamon, work, failures, name, args, env=None):
    r = clitest.run(hamon, args, cwd=work, env=env, timeout=300)
    if not failures.check(r.returncode == 0, f"{name}: exit {r.returncode}: {r.stderr}"):
        failures.finish("annealed Ising against enumeration")
    problems = []
    summary = check_run(os.path.join(work, name), problems)
    for p in problems:
        failures.check(False, f"{name}: {p}")
    return summary


def same_files(failures, what, a, b):
    for name in ("energies.npy", "samples.npy"):
        with open(os.path.join(a, name), "rb") as x, open(os.path.join(b, name), "rb") as y:
            failures.check(x.read() == y.read(), f"{what}: {name} differs")


def main():
    args = clitest.arguments(__doc__.split("\n")[0])
    failures = clitest.Failures()
    os.makedirs(args.work, exist_ok=True)
    config = os.path.join(args.work, "annealed.yaml")
    experiment(config, "serial", ROUNDS)
    s = run(args.hamon, args.work, failures, "serial",
            ["run", config, "--quiet", "--device", "serial"])
    log_z, log_z0, means, energy_per_node = exact()
    failures.check(s["model"].get("annealed") is True, f"model section {s['model']}")
    z = s["log_z"]
    failures.check(z["log_z0_exact"] is True and abs(z["log_z0"] - log_z0) <= 1e-9,
                   f"log_z0 {z['log_z0']} ({z['log_z0_exact']}), exact {log_z0}")
    for method in ("stepping_stone", "thermodynamic_integration"):
        est = z[method]
        failures.check(abs(est["value"] - log_z) <= 5 * est["error"],
                       f"{method} {est['value']} +- {est['error']}, exact {log_z}")
    o = s["observables"]
    got, err = np.array(o["node_means"]), np.array(o["node_means_stderr"])
    free = [i for i in range(N) if i not in CLAMPED]
    zs = np.abs(got[free] - means[free]) / err[free]
    failures.check(np.all(zs <= 5), f"node_means {got} vs exact {means} (z {zs})")
    for i, c in CLAMPED.items():
        failures.check(got[i] == c, f"clamped node {i}: mean {got[i]}")
    e = o["energy_per_node"]
    failures.check(abs(e["mean"] - energy_per_node) <= 5 * e["stderr"],
                   f"energy_per_node {e} vs exact {energy_per_node}")
    ss = z["stepping_stone"]
    print(f"log Z {ss['value']:.4f} +- {ss['error']:.4f} (exact {log_z:.4f}, log Z0 "
          f"{log_z0:.4f}); largest |z| of node means {zs.max():.2f}; energy per node "
          f"{e['mean']:.4f} +- {e['stderr']:.4f} (exact {energy_per_node:.4f})")

    experiment(config, "openmp", ROUNDS)
    run(args.hamon, args.work, failures, "openmp",
        ["run", config, "--quiet", "--device", "openmp"], env=clitest.clean_env(OMP_NUM_THREADS="2"))
    same_files(failures, "openmp (2 threads)", os.path.join(args.work, "serial"),
               os.path.join(args.work, "openmp"))

    experiment(config, "extended", ROUNDS // 2)
    run(args.hamon, args.work, failures, "extended",
        ["run", config, "--quiet", "--device", "serial"])
    extended = run(args.hamon, args.work, failures, "extended",
                   ["extend", "extended", "--rounds", str(ROUNDS // 2), "--quiet"])
    same_files(failures, "half the rounds, extended", os.path.join(args.work, "serial"),
               os.path.join(args.work, "extended"))
    failures.check(extended["log_z"]["stepping_stone"] == ss,
                   f"extended log Z {extended['log_z']['stepping_stone']} vs {ss}")

    experiment(config, "tuned", ROUNDS // 2, chains="auto\n  betas: auto")
    tuned = run(args.hamon, args.work, failures, "tuned",
                ["run", config, "--quiet", "--device", "serial"])
    failures.check("tuning" in tuned, "the tuned run's summary has no tuning section")
    est = tuned["log_z"]["stepping_stone"]
    failures.check(abs(est["value"] - log_z) <= 5 * est["error"],
                   f"tuned: stepping stone {est['value']} +- {est['error']}, exact {log_z}")
    failures.finish("annealed Ising against enumeration")


if __name__ == "__main__":
    main()
