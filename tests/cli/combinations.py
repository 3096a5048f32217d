#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Every model kind x feature combination is either checked against an exact answer or
refused at `hamon validate` time: the table in docs/combinations.md, walked cell by cell.

One case per model kind (cli.combinations.KIND) and one for the table itself:

  - table: the table has exactly this script's kinds (rows) and features (columns), and
    every cell says `exact` or `refused`, so a new row or column cannot be left blank;
  - KIND: for each feature, a small model of that kind (3 x 3 lattices, a 2-site double
    well, a 6 x 3 RBM: small enough to enumerate) is written with the feature on.
      `refused`: `hamon validate` exits 2 with a located error that names the feature's key
        and the kind, and writes no run directory;
      `exact`: `hamon validate` accepts it, `hamon run` (under mpirun for `mpi`; run, then
        `hamon extend` for `extend`) completes, and the cold chain's energy per node and
        the preferred log Z (and, for Ising replicas, q^2 at the cold end; for `goal`, a
        search, the best energy instead, to the exact ground state) agree with the
        exact values computed here from the run's realized model (DIR/model/: every drawn
        number): |run - exact| <= 5 x the run's own error (+ 1e-9 relative for rounding). Five errors because each error
        is itself estimated from a few dozen batches (uncertain by ~15 %) and about a
        hundred values are compared; a calibrated error exceeds 5 about once in 10^6.
        Ensembles check every instance against its own realized model. A cold chain the run
        reports frozen (health: cold_chain_frozen) must sit at the exact ground energy.
Exact values: enumeration (Ising, annealed, Potts, RBM), closed forms (Gaussian), a fine
2-D grid (double well)."""

import math
import os
import subprocess
import sys

import numpy as np
import yaml

import clitest

SOURCE_DIR = clitest.SOURCE_DIR
TABLE = os.path.join(SOURCE_DIR, "docs", "combinations.md")

LATTICE = {"kind": "lattice", "shape": [3, 3], "periodic": True}
KINDS = {
    "spin": dict(LATTICE, coupling={"distribution": "gaussian", "seed": 3},
                 field={"distribution": "gaussian", "std": 0.3, "seed": 4}),
    "potts": dict(LATTICE, potts=3, coupling={"distribution": "gaussian", "mean": 0.8,
                                              "std": 0.3, "seed": 3}, field=[0.2, 0.0, -0.1]),
    "gaussian": dict(LATTICE, kind="gaussian", coupling=0.2, diag=1.0,
                     field={"distribution": "gaussian", "std": 0.3, "seed": 11}),
    "double_well": {"kind": "double_well", "nodes": 2, "edges": [[0, 1, 0.5]],
                    "field": [0.3, -0.2]},
    "rbm": {"kind": "rbm", "visible": 6, "hidden": 3,
            "random": {"seed": 1, "std": 0.5, "bias_std": 0.5}},
    "annealed": dict(LATTICE, coupling={"distribution": "gaussian", "seed": 3},
                     field={"distribution": "gaussian", "std": 1.0, "seed": 4}),
}
# The words a refusal names a kind by.
KIND_WORDS = {"spin": ("Ising", "spin"), "potts": ("Potts",), "gaussian": ("gaussian",),
              "double_well": ("double_well",), "rbm": ("rbm", "RBM"),
              "annealed": ("reference", "annealing")}
# Each feature: (top-level keys, nrpt keys, nrpt keys it removes, the key a refusal names).
FEATURES = {
    "replicas": ({"replicas": 2}, {}, (), "replicas"),
    "houdayer": ({"replicas": 2}, {"cluster_moves": "houdayer"}, (), "nrpt.cluster_moves"),
    "instances": ({"instances": 3}, {}, (), "instances"),
    "beta_max_auto": ({}, {"beta_max": "auto"}, (), "nrpt.beta_max"),
    "until": ({}, {"rounds": 1000, "until": {"stable_round_trips": 20, "max_rounds": 6000}},
              (), "nrpt.until"),
    "tune": ({}, {"tune": "auto"}, ("chains", "adapt_schedule", "explore_sweeps"), "nrpt.tune"),
    "goal": ({}, {"goal": "ground_state"},
             ("chains", "beta_min", "beta_max", "rounds", "burn_in", "explore_sweeps",
              "adapt_schedule"), "nrpt.goal"),
    "mpi": ({}, {}, (), None),
    "extend": ({}, {}, (), None),
}
BETA = 1.0
ROUNDS = 3000


def experiment(kind, feature, out):
    top, nrpt_keys, dropped, _ = FEATURES[feature]
    nrpt = {"chains": 6, "beta_min": 0.0, "beta_max": BETA, "rounds": ROUNDS, "burn_in": 300,
            "explore_sweeps": 2, "adapt_schedule": True}
    if kind == "annealed":
        nrpt["reference"] = "independent"
    nrpt.update(nrpt_keys)
    for key in dropped:
        nrpt.pop(key, None)
    config = {"seed": 17, "device": "serial", "model": KINDS[kind], "nrpt": nrpt,
              "output": {"dir": out, "moments": True}}
    config.update(top)
    return config


def read_table():
    """{kind: {feature: cell}} from the Markdown table of docs/combinations.md."""
    rows, header = {}, None
    with open(TABLE) as f:
        for line in f:
            cells = [c.strip().strip("`") for c in line.strip().strip("|").split("|")]
            if not line.startswith("|") or set(cells[0]) <= set("-: "):
                continue
            if header is None:
                header = cells[1:]
                continue
            rows[cells[0]] = dict(zip(header, cells[1:]))
    return header or [], rows


# ---- exact answers from a run's realized model ----------------------------------------

def read_graph(path):
    g = {"n": 0, "q": 0, "edges": [], "field": {}, "clamp": {}, "diag": {}, "barrier": {}}
    with open(path) as f:
        for line in f:
            t = line.split("#")[0].split()
            if not t:
                continue
            if t[0] == "nodes":
                g["n"] = int(t[1])
            elif t[0] == "potts":
                g["q"] = int(t[1])
            elif t[0] == "edge":
                g["edges"].append((int(t[1]), int(t[2]), float(t[3])))
            elif t[0] == "field" and len(t) == 4:
                g["field"][(int(t[1]), int(t[2]))] = float(t[3])
            elif t[0] in ("field", "diag", "barrier", "clamp"):
                g[t[0]][int(t[1])] = float(t[2])
    return g


def boltzmann(energies, beta, observables=None):
    """log Z, <E> and the means of `observables` (rows per configuration) at beta."""
    a = -beta * energies
    top = a.max()
    w = np.exp(a - top)
    z = w.sum()
    means = None if observables is None else (w[:, None] * observables).sum(0) / z
    return math.log(z) + top, float((w * energies).sum() / z), means


def all_spins(n):
    return 1 - 2 * ((np.arange(2 ** n)[:, None] >> np.arange(n)) & 1)


def ising_exact(g, beta, replicas):
    s = all_spins(g["n"]).astype(float)
    for i, c in g["clamp"].items():
        s = s[s[:, i] == c]
    e = -sum(h * s[:, i] for i, h in g["field"].items())
    e = e - sum(w * s[:, i] * s[:, j] for i, j, w in g["edges"])
    pairs = (s[:, :, None] * s[:, None, :]).reshape(len(s), -1) if replicas else None
    log_z, mean_e, c = boltzmann(e, beta, pairs)
    exact = {"energy": mean_e / g["n"], "log_z": log_z, "ground": e.min() / g["n"]}
    if replicas:
        exact["q2"] = float((c ** 2).sum() / g["n"] ** 2)
    return exact


def potts_exact(g, beta):
    n, q = g["n"], g["q"]
    x = (np.arange(q ** n)[:, None] // q ** np.arange(n)) % q
    e = -sum(h * (x[:, i] == s) for (i, s), h in g["field"].items())
    e = e - sum(w * (x[:, i] == x[:, j]) for i, j, w in g["edges"])
    log_z, mean_e, _ = boltzmann(np.asarray(e, float), beta)
    return {"energy": mean_e / n, "log_z": log_z, "ground": e.min() / n}


def rbm_exact(model_dir, beta):
    w = np.load(os.path.join(model_dir, "weights.npy"))
    b = np.load(os.path.join(model_dir, "visible_bias.npy"))
    c = np.load(os.path.join(model_dir, "hidden_bias.npy"))
    nv, nh = w.shape
    s = all_spins(nv + nh).astype(float)
    v, h = s[:, :nv], s[:, nv:]
    e = -(v @ b + h @ c + ((v @ w) * h).sum(1))
    log_z, mean_e, _ = boltzmann(e, beta)
    return {"energy": mean_e / (nv + nh), "log_z": log_z, "ground": e.min() / (nv + nh)}


def gaussian_exact(g, beta):
    n = g["n"]
    p = np.diag([g["diag"][i] for i in range(n)])
    for i, j, w in g["edges"]:
        p[i, j] -= w
        p[j, i] -= w
    h = np.array([g["field"].get(i, 0.0) for i in range(n)])
    h_mu = float(h @ np.linalg.solve(p, h))
    log_z = 0.5 * n * math.log(2 * math.pi / beta) - 0.5 * np.linalg.slogdet(p)[1]
    return {"energy": (n / (2 * beta) - 0.5 * h_mu) / n, "log_z": log_z + 0.5 * beta * h_mu}


def double_well_exact(g, beta):
    assert g["n"] == 2, "the double-well oracle integrates two sites"
    x = np.linspace(-3.0, 3.0, 1501)
    dx = x[1] - x[0]
    x0, x1 = np.meshgrid(x, x, indexing="ij")
    e = sum(g["barrier"].get(i, 1.0) * (xi ** 2 - 1) ** 2 - g["field"].get(i, 0.0) * xi
            for i, xi in enumerate((x0, x1)))
    e = e - sum(w * (x0 if i == 0 else x1) * (x1 if j == 1 else x0) for i, j, w in g["edges"])
    log_z, mean_e, _ = boltzmann(e.ravel(), beta)
    return {"energy": mean_e / 2, "log_z": log_z + 2 * math.log(dx)}


def exact_for(kind, run_dir, beta, replicas):
    model_dir = os.path.join(run_dir, "model")
    if kind == "rbm":
        return rbm_exact(model_dir, beta)
    g = read_graph(os.path.join(model_dir, "model.graph"))
    if kind == "potts":
        return potts_exact(g, beta)
    if kind == "gaussian":
        return gaussian_exact(g, beta)
    if kind == "double_well":
        return double_well_exact(g, beta)
    return ising_exact(g, beta, replicas)


def check_against_exact(failures, kind, feature, run_dir, replicas):
    where = f"{kind} x {feature} ({run_dir})"
    with open(os.path.join(run_dir, "summary.yaml")) as f:
        summary = yaml.safe_load(f)
    beta = summary["nrpt"]["betas"][-1]
    exact = exact_for(kind, run_dir, beta, replicas)
    energy = summary["observables"]["energy_per_node"]
    frozen = summary["health"]["checks"]["cold_chain_frozen"]["status"] != "pass"
    if frozen and "ground" in exact:
        # A cold chain the run itself reports frozen (at a beta_max: auto, say) sits in one
        # configuration: it must be the ground state, which is what a search asks of it.
        got = [("frozen cold chain's energy per node", energy["mean"], 0.0, exact["ground"])]
    else:
        got = [("energy per node", energy["mean"], energy["stderr"], exact["energy"])]
    log_z = summary.get("log_z") or {}
    preferred = log_z.get(log_z.get("preferred"))
    if failures.check(preferred is not None, f"{where}: no preferred log Z in the summary"):
        got.append(("log Z", preferred["value"], preferred["error"], exact["log_z"]))
    if "q2" in exact:
        overlap = summary.get("overlap")
        if failures.check(overlap is not None, f"{where}: replicas but no overlap section"):
            got.append(("q2 at the cold end", overlap["q2"][-1], overlap["q2_stderr"][-1],
                        exact["q2"]))
    for name, value, error, want in got:
        # 1e-9 relative: the rounding of a chain that sits in its ground state (error ~1e-16).
        failures.check(abs(value - want) <= 5 * error + 1e-9 * max(1.0, abs(want)),
                       f"{where}: {name} {value:.6g} +- {error:.3g}, exact {want:.6g} "
                       f"(z = {(value - want) / error if error > 0 else math.inf:.3g})")


def check_ground_state(failures, kind, run_dir):
    """A search (goal: ground_state) holds the exact ground energy as its best."""
    with open(os.path.join(run_dir, "summary.yaml")) as f:
        summary = yaml.safe_load(f)
    exact = exact_for(kind, run_dir, 1.0, False)
    n = len(np.load(os.path.join(run_dir, "best_state.npy"))[0])
    best = summary["search"]["best_energy"] / n
    failures.check(abs(best - exact["ground"]) <= 1e-9 * max(1.0, abs(exact["ground"])),
                   f"{kind} x goal: best energy per node {best:.9g}, exact ground state "
                   f"{exact['ground']:.9g}")


# ---- the walk ---------------------------------------------------------------------------

def mpirun(args, hamon_args, cwd):
    """Two ranks, with the Open MPI settings of tests/mpi/CMakeLists.txt's environment."""
    env = clitest.clean_env(OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1",
                            OMPI_MCA_rmaps_base_oversubscribe="1",
                            OMPI_MCA_hwloc_base_binding_policy="none",
                            OMPI_MCA_mpi_yield_when_idle="1",
                            OMPI_MCA_btl_vader_single_copy_mechanism="none")
    return subprocess.run([args.mpiexec, "-np", "2", args.hamon] + hamon_args, cwd=cwd, env=env,
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE, errors="replace",
                          timeout=300)


def walk_cell(failures, args, kind, feature, cell, work):
    out = os.path.join(work, f"{kind}-{feature}")
    config_path = out + ".yaml"
    with open(config_path, "w") as f:
        yaml.safe_dump(experiment(kind, feature, out), f, sort_keys=False)
    checked = clitest.run(args.hamon, ["validate", config_path])
    key = FEATURES[feature][3]
    if cell == "refused":
        match = clitest.LOCATED_ERROR.match(checked.stderr.strip().splitlines()[0]
                                            if checked.stderr.strip() else "")
        failures.check(checked.returncode == 2 and match is not None and key is not None and
                       match["rest"].startswith(key + ":"),
                       f"{kind} x {feature}: the table says refused, but validate gave exit "
                       f"{checked.returncode}, {checked.stderr.strip()!r} (want an error at {key})")
        failures.check(match is None or any(w in match["rest"] for w in KIND_WORDS[kind]),
                       f"{kind} x {feature}: the refusal does not name the kind: {checked.stderr!r}")
        failures.check(not os.path.exists(out), f"{kind} x {feature}: a refusal left {out}")
        return
    if not failures.check(checked.returncode == 0,
                          f"{kind} x {feature}: the table says exact, but validate refused: "
                          f"{checked.stderr.strip()}"):
        return
    if feature == "mpi":
        if args.mpiexec is None:
            print(f"{kind} x mpi: skipped (a build without MPI)")
            return
        done = mpirun(args, ["run", config_path, "--quiet"], work)
    elif feature == "extend":
        config = experiment(kind, feature, out)
        config["nrpt"]["rounds"] = ROUNDS // 2
        with open(config_path, "w") as f:
            yaml.safe_dump(config, f, sort_keys=False)
        done = clitest.run(args.hamon, ["run", config_path, "--quiet"])
        if done.returncode == 0:
            done = clitest.run(args.hamon, ["extend", out, "--rounds", str(ROUNDS - ROUNDS // 2),
                                            "--quiet"])
    else:
        done = clitest.run(args.hamon, ["run", config_path, "--quiet"], timeout=300)
    if not failures.check(done.returncode == 0,
                          f"{kind} x {feature}: the run failed: {done.stderr.strip()}"):
        return
    replicas = feature in ("replicas", "houdayer") and kind in ("spin", "annealed")
    if feature == "goal":
        check_ground_state(failures, kind, out)
    elif feature == "instances":
        root = os.path.join(out, "instances")
        for k in sorted(os.listdir(root)):
            check_against_exact(failures, kind, f"instance {k}", os.path.join(root, k), replicas)
    else:
        check_against_exact(failures, kind, feature, out, replicas)


def case_table(failures, hamon, work):
    del hamon, work
    header, rows = read_table()
    failures.check(header == list(FEATURES),
                   f"{TABLE}: columns {header}, the walker knows {list(FEATURES)}")
    failures.check(list(rows) == list(KINDS),
                   f"{TABLE}: rows {list(rows)}, the walker knows {list(KINDS)}")
    for kind, cells in rows.items():
        for feature in header:
            failures.check(cells.get(feature) in ("exact", "refused"),
                           f"{TABLE}: {kind} x {feature} is {cells.get(feature)!r}, "
                           "not exact or refused")


def walk_kind(kind):
    def case(failures, hamon, work):
        del hamon
        _, rows = read_table()
        for feature in FEATURES:
            cell = rows.get(kind, {}).get(feature)
            if failures.check(cell in ("exact", "refused"),
                              f"{kind} x {feature}: no cell in {TABLE}"):
                walk_cell(failures, ARGS, kind, feature, cell, work)
    return case


ARGS = None
for _kind in KINDS:
    globals()["case_" + _kind] = walk_kind(_kind)


if __name__ == "__main__":
    if "--list" not in sys.argv:
        import argparse
        parser = argparse.ArgumentParser(add_help=False)
        parser.add_argument("--hamon")
        parser.add_argument("--mpiexec")
        ARGS, rest = parser.parse_known_args()
        sys.argv = [sys.argv[0]] + [a for a in sys.argv[1:]
                                    if not a.startswith("--mpiexec") and a != ARGS.mpiexec]
    clitest.run_cases(__doc__, globals(), "combinations")
