#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""The magnetisation per temperature in `hamon run`'s summary (docs/magnetization.md):

  - a periodic 4x4 Ising ferromagnet and a periodic 3x3 q = 3 Potts ferromagnet: the
    summary has a `magnetization:` section with the documented keys (check_run checks them
    and their identities), `definition` spin_mean / potts_order_parameter, and at every beta
    of the ladder <m>, <|m|>, <m^2>, <m^4>, U4, chi and chi_m2 match exact enumeration
    (numpy, 2^16 and 3^9 states): |run - exact| <= 5 * (the run's own stderr) + 1e-9.
    Five standard errors as the engine's tests (tstMagnetization.hpp): ~70 values are
    compared, each error bar uncertain by ~13 % (32 batches); the seed is fixed;
    (`output.magnetization: true`, which the resolved config repeats);
  - a Gaussian model (real values) has no `magnetization` section even when asked, nor does
    a spin run without `output.magnetization` (nor its resolved config the key).
"""

import itertools
import os

import numpy as np
import yaml

import clitest

BETAS_ISING = [0.0, 0.2, 0.35, 0.45, 0.6]
BETAS_POTTS = [0.0, 0.6, 1.0, 1.4]
KEYS = ["m", "abs_m", "m2", "m4", "binder", "chi", "chi_m2"]


def torus_bonds(rows, cols):
    return [(r * cols + c, r * cols + (c + 1) % cols) for r in range(rows) for c in range(cols)] + \
        [(r * cols + c, ((r + 1) % rows) * cols + c) for r in range(rows) for c in range(cols)]


def exact(q, rows, cols, beta):
    """The exact statistics of the uniform ferromagnet (J = 1) on a rows x cols torus."""
    n = rows * cols
    bonds = np.array(torus_bonds(rows, cols))
    x = np.array(list(itertools.product(range(q), repeat=n)), dtype=np.int64)
    agree = (x[:, bonds[:, 0]] == x[:, bonds[:, 1]])
    if q == 2:
        s = 2 * x - 1
        energy = -(s[:, bonds[:, 0]] * s[:, bonds[:, 1]]).sum(axis=1)
        m = s.sum(axis=1) / n
    else:
        energy = -agree.sum(axis=1)
        counts = np.stack([(x == k).sum(axis=1) for k in range(q)], axis=1)
        m = (q * counts.max(axis=1) / n - 1) / (q - 1)
    w = np.exp(-beta * (energy - energy.min()))
    w /= w.sum()
    mean = {"m": w @ m, "abs_m": w @ np.abs(m), "m2": w @ m**2, "m4": w @ m**4}
    mean["binder"] = 1 - mean["m4"] / (3 * mean["m2"] ** 2)
    mean["chi"] = beta * n * (mean["m2"] - mean["abs_m"] ** 2)
    mean["chi_m2"] = beta * n * mean["m2"]
    return mean


def experiment(path, model, betas, out, asked=True):
    with open(path, "w") as f:
        f.write(f"""seed: 5
device: serial
model:
{model}
nrpt:
  betas: {betas}
  rounds: 20000
  burn_in: 1000
  explore_sweeps: 1
output:
  dir: {out}
  magnetization: {str(asked).lower()}
""")


def run(hamon, work, name, model, betas, failures, asked=True):
    config = os.path.join(work, name + ".yaml")
    out = os.path.join(work, name)
    experiment(config, model, betas, out, asked)
    return clitest.run_checked(hamon, config, out, name, failures)


def against_exact(name, summary, q, rows, cols, failures):
    mg = summary.get("magnetization")
    if not failures.check(isinstance(mg, dict), f"{name}: no magnetization section"):
        return
    failures.check(mg["definition"] == ("spin_mean" if q == 2 else "potts_order_parameter"),
                   f"{name}: definition {mg['definition']}")
    for i, beta in enumerate(mg["betas"]):
        want = exact(q, rows, cols, beta)
        for key in KEYS:
            got, err = mg[key][i], mg[key + "_stderr"][i]
            failures.check(abs(got - want[key]) <= 5 * err + 1e-9,
                           f"{name} beta {beta} {key}: {got} +- {err}, exact {want[key]}")


def main():
    args = clitest.arguments(__doc__)
    failures = clitest.Failures()
    os.makedirs(args.work, exist_ok=True)
    ising = ("  kind: lattice\n  shape: [4, 4]\n  periodic: true\n"
             "  coupling: {distribution: constant, value: 1.0}\n  field: 0.0")
    potts = ("  kind: lattice\n  shape: [3, 3]\n  periodic: true\n  potts: 3\n"
             "  coupling: {distribution: constant, value: 1.0}")
    gaussian = ("  kind: gaussian\n  shape: [4, 4]\n  periodic: true\n  coupling: 0.2\n"
                "  diag: 1.0\n  field: 0.0")
    summary = run(args.hamon, args.work, "ising", ising, BETAS_ISING, failures)
    if summary is not None:
        against_exact("ising", summary, 2, 4, 4, failures)
    summary = run(args.hamon, args.work, "potts", potts, BETAS_POTTS, failures)
    if summary is not None:
        against_exact("potts", summary, 3, 3, 3, failures)
    summary = run(args.hamon, args.work, "gaussian", gaussian, [0.1, 0.5, 1.0], failures)
    if summary is not None:
        failures.check("magnetization" not in summary and "magnetization_skipped" not in summary,
                       "gaussian: a magnetization section for real values")
    summary = run(args.hamon, args.work, "not_asked", ising, BETAS_ISING, failures, False)
    if summary is not None:
        failures.check("magnetization" not in summary and
                       "magnetization" not in summary["config"]["output"],
                       "output.magnetization false: a magnetization section or config key")
    failures.finish("magnetisation outputs")


if __name__ == "__main__":
    main()
