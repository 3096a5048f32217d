#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""A search without hand tuning (`hamon run`), against exact enumeration:

  - nrpt.until without nrpt.rounds measures in chunks of 1000 rounds (max_rounds when
    less), and the resolved config records the chunk with its reason (nrpt.chosen);
    --rounds on the command line gives the chunk instead (then nothing is chosen);
  - beta_max: auto without nrpt.chains: the chain count is ceil(Lambda 1.05 / 0.5) + 1 for
    the barrier Lambda the model predicts between beta_min and beta_max; on spins in a
    uniform field (every defect costs 2h) Lambda is an integral computed here;
  - nrpt.goal: ground_state alone, on a 4 x 4 +-J torus and a 12-node glass with fields
    (ground states by enumeration of all 2^16 / 2^12 states): the run reaches the ground
    state, ends by its stop rule, and the resolved config holds every choice (geometric
    ladder from beta_min > 0 to the estimated beta_max, the estimated chain count,
    Houdayer moves with two replicas, until, the chunk), each with a reason;
  - each key set in the file wins over the goal's choice (and is then not listed as
    chosen);
  - a Potts model under the goal gets no Houdayer moves, with the reason, and still reaches
    its ground state (enumeration);
  - with tune: auto beside the goal the tuning runs have the two replicas and the Houdayer
    moves (no refusal), and the run still reaches the ground state;
  - the resolved config.yaml run again gives the same bits (energies.npy, best_state.npy,
    the config with its reasons).
Every summary passes check_run.py."""

import itertools
import math
import os
import random

import numpy as np
import yaml

import clitest
from check_run import check_run
import potts_exact

# A 4 x 4 periodic +-J lattice, written as a graph (its couplings are then known here).
L = 4
_rng = random.Random(7)
TORUS_EDGES = []
for _y in range(L):
    for _x in range(L):
        _i = _y * L + _x
        for _j in (_y * L + (_x + 1) % L, ((_y + 1) % L) * L + _x):
            TORUS_EDGES.append((_i, _j, _rng.choice((-1.0, 1.0))))
TORUS_FIELDS = [0.0] * (L * L)

# A 12-node glass with Gaussian couplings and small fields.
_rng = random.Random(23)
N12 = 12
GLASS_EDGES = [(i, j, round(_rng.gauss(0.0, 1.0), 3)) for i in range(N12)
               for j in range(i + 1, N12) if _rng.random() < 0.35]
GLASS_FIELDS = [round(_rng.gauss(0.0, 0.1), 3) for _ in range(N12)]


def graph_model(n, edges, fields):
    text = ", ".join(f"[{i}, {j}, {J}]" for i, j, J in edges)
    return f"{{kind: graph, nodes: {n}, edges: [{text}], field: {fields}}}"


def ground_energy(n, edges, fields):
    """min over all 2^n states of E(s) = -(sum h_i s_i + sum J s_i s_j)."""
    states = np.array(list(itertools.product((-1.0, 1.0), repeat=n)))
    e = -(states @ np.array(fields))
    for i, j, J in edges:
        e -= J * states[:, i] * states[:, j]
    return float(e.min())


def energy_of(state, edges, fields):
    return -(sum(h * s for h, s in zip(fields, state)) +
             sum(J * state[i] * state[j] for i, j, J in edges))


TORUS = graph_model(L * L, TORUS_EDGES, TORUS_FIELDS)
GLASS = graph_model(N12, GLASS_EDGES, GLASS_FIELDS)


def experiment(model, nrpt, top=""):
    return f"seed: 3\n{top}model: {model}\nnrpt: {nrpt}\noutput: {{samples: false}}\n"


class Runner:
    def __init__(self, args, failures):
        self.hamon, self.work, self.failures = args.hamon, args.work, failures

    def __call__(self, name, text, extra=()):
        config = os.path.join(self.work, name + ".yaml")
        out = os.path.join(self.work, name)
        with open(config, "w") as f:
            f.write(text)
        result = clitest.run(self.hamon, ["run", config, "--out", out, "--quiet", *extra],
                             timeout=300)
        if not self.failures.check(result.returncode == 0,
                                   f"{name}: exit {result.returncode}: {result.stderr.strip()}"):
            return None, out
        problems = []
        summary = check_run(out, problems)
        for p in problems:
            self.failures.check(False, f"{name}: {p}")
        return summary, out


def chosen_of(summary):
    return {c["key"]: c for c in summary["config"]["nrpt"].get("chosen", [])}


def check_chunk(run, failures):
    """Step 1: the chunk of an until without rounds."""
    for name, max_rounds, want in (("chunk", 5000, 1000), ("chunk_short", 300, 300)):
        summary, _ = run(name, experiment(
            GLASS, f"{{chains: 6, beta_max: 2.0, until: {{stable_round_trips: 20, "
                   f"max_rounds: {max_rounds}}}}}"))
        if summary is None:
            continue
        cn = summary["config"]["nrpt"]
        chosen = chosen_of(summary)
        failures.check(cn["rounds"] == want, f"{name}: chunk {cn['rounds']}, want {want}")
        failures.check("nrpt.rounds" in chosen and chosen["nrpt.rounds"]["value"] == str(want)
                       and "until" in chosen["nrpt.rounds"]["reason"],
                       f"{name}: chosen {chosen}")
    summary, _ = run("chunk_option", experiment(
        GLASS, "{chains: 6, beta_max: 2.0, until: {stable_round_trips: 20, max_rounds: 5000}}"),
        ["--rounds", "50"])
    if summary is not None:
        failures.check(summary["config"]["nrpt"]["rounds"] == 50 and
                       "nrpt.rounds" not in chosen_of(summary),
                       f"chunk_option: {summary['config']['nrpt']}")


def barrier(cost, n, beta_lo, beta_hi, steps=200000):
    """integral of sqrt(n c^2 p (1 - p)) / sqrt(pi), p = 1 / (1 + e^(beta c))."""
    beta = np.linspace(beta_lo, beta_hi, steps + 1)
    p = 1.0 / (1.0 + np.exp(beta * cost))
    sigma = np.sqrt(n * cost * cost * p * (1.0 - p)) / math.sqrt(math.pi)
    return float(np.trapz(sigma, beta))


def check_chain_count(run, failures):
    """Step 2: the chain count from beta_max: auto's model."""
    h = 0.5
    for name, beta_min in (("estimate_chains", 0.0), ("estimate_chains_min", 0.5)):
        summary, _ = run(name, experiment(
            f"{{kind: lattice, shape: [4, 4], coupling: 0.0, field: {h}}}",
            f"{{beta_min: {beta_min}, beta_max: auto, rounds: 100}}"))
        if summary is None:
            continue
        cn = summary["config"]["nrpt"]
        Lambda = barrier(2 * h, 16, beta_min, cn["beta_max"])
        x = Lambda * 1.05 / 0.5
        want = max(2, math.ceil(x) + 1)
        chosen = chosen_of(summary).get("nrpt.chains", {})
        failures.check(abs(x - round(x)) < 1e-6 or cn["chains"] == want,
                       f"{name}: {cn['chains']} chains, want {want} (Lambda {Lambda})")
        failures.check(summary["nrpt"]["n_chains"] == cn["chains"], f"{name}: ran other chains")
        failures.check(chosen.get("value") == str(cn["chains"]) and
                       "Lambda" in chosen.get("reason", ""), f"{name}: chosen {chosen}")


GOAL_CHOICES = {"nrpt.beta_max", "nrpt.beta_min", "nrpt.spacing", "nrpt.chains",
                "nrpt.cluster_moves", "replicas", "nrpt.until", "nrpt.rounds"}


def check_goal(run, failures, name, model, ground, edges, fields, n):
    """Step 3: the goal alone reaches the ground state, with every choice recorded."""
    summary, out = run(name, experiment(model, "{goal: ground_state}"))
    if summary is None:
        return None
    c, cn = summary["config"], summary["config"]["nrpt"]
    chosen = chosen_of(summary)
    failures.check(set(chosen) == GOAL_CHOICES, f"{name}: chose {sorted(chosen)}")
    failures.check(all(e["reason"].startswith("goal: ground_state") or k == "nrpt.rounds"
                       or k == "nrpt.chains" for k, e in chosen.items()),
                   f"{name}: reasons {chosen}")
    failures.check(cn["goal"] == "ground_state" and cn["spacing"] == "geometric" and
                   cn["cluster_moves"] == "houdayer" and c.get("replicas") == 2 and
                   0.0 < cn["beta_min"] < cn["beta_max"] and "gap_tol" in cn and
                   cn["until"] == {"stable_round_trips": 1, "stable_ratio": 1.5,
                                   "max_rounds": 1000000} and
                   cn["rounds"] == 100, f"{name}: resolved {cn}")
    search = summary["search"]
    failures.check(search.get("ended_by") == "stable", f"{name}: search {search}")
    failures.check(abs(search["best_energy"] - ground) <= 1e-9 * max(1.0, abs(ground)),
                   f"{name}: best {search['best_energy']}, ground state {ground}")
    best = np.load(os.path.join(out, "best_state.npy"))
    e = energy_of([int(v) for v in best[0]], edges, fields)
    failures.check(abs(e - ground) <= 1e-9 * max(1.0, abs(ground)),
                   f"{name}: best_state.npy's energy {e}, ground {ground}")
    return out


OVERRIDES = [
    # (name, nrpt entries or top-level line, key, where in the resolved config, value)
    ("beta_min", "beta_min: 0.05", "nrpt.beta_min", ("nrpt", "beta_min"), 0.05),
    ("beta_max", "beta_max: 3.0", "nrpt.beta_max", ("nrpt", "beta_max"), 3.0),
    ("chains", "chains: 5", "nrpt.chains", ("nrpt", "chains"), 5),
    ("spacing", "spacing: linear", "nrpt.spacing", ("nrpt", "spacing"), "linear"),
    ("cluster_moves", "cluster_moves: none", "nrpt.cluster_moves", ("nrpt", "cluster_moves"),
     "none"),
    ("until", "until: {stable_round_trips: 7, stable_ratio: 1.5, max_rounds: 3000}",
     "nrpt.until", ("nrpt", "until"),
     {"stable_round_trips": 7, "stable_ratio": 1.5, "max_rounds": 3000}),
    ("rounds", "rounds: 250", "nrpt.rounds", ("nrpt", "rounds"), 250),
    ("replicas", "replicas: 4", "replicas", ("replicas",), 4),
]


def check_overrides(run, failures):
    for name, entry, key, where, value in OVERRIDES:
        top = entry + "\n" if key == "replicas" else ""
        nrpt = "{goal: ground_state" + ("" if top else ", " + entry) + "}"
        summary, _ = run("override_" + name, experiment(TORUS, nrpt, top))
        if summary is None:
            continue
        held = summary["config"]
        for part in where:
            held = held.get(part) if isinstance(held, dict) else None
        chosen = chosen_of(summary)
        failures.check(held == value, f"override {name}: config has {held}, want {value}")
        failures.check(key not in chosen, f"override {name}: {key} listed as chosen")
        if name == "cluster_moves":
            failures.check("replicas" not in summary["config"],
                           f"override {name}: replicas {summary['config'].get('replicas')}")
        if name == "replicas":
            failures.check(summary["config"]["nrpt"]["cluster_moves"] == "houdayer",
                           f"override {name}: {summary['config']['nrpt']}")


def check_potts(run, failures):
    ground = min(potts_exact.energy(x) for x in itertools.product(range(potts_exact.Q),
                                                                  repeat=potts_exact.N)
                 if all(x[i] == v for i, v in potts_exact.CLAMPED.items()))
    model = "\n" + potts_exact.inline_model()
    summary, _ = run("goal_potts", experiment(model, "{goal: ground_state}"))
    if summary is None:
        return
    chosen = chosen_of(summary)
    moves = chosen.get("nrpt.cluster_moves", {})
    failures.check(moves.get("value") == "none" and "Potts" in moves.get("reason", ""),
                   f"goal_potts: cluster_moves chosen {moves}")
    failures.check(summary["config"]["nrpt"]["cluster_moves"] == "none" and
                   "replicas" not in summary["config"], f"goal_potts: {summary['config']}")
    failures.check(abs(summary["search"]["best_energy"] - ground) <= 1e-9,
                   f"goal_potts: best {summary['search']['best_energy']}, ground {ground}")


def check_tuned(run, failures):
    """Automatic tuning beside the goal: tuned on the production path, replicas and Houdayer
    moves included, and still the ground state."""
    ground = ground_energy(N12, GLASS_EDGES, GLASS_FIELDS)
    summary, _ = run("goal_tuned", experiment(
        GLASS, "{goal: ground_state, tune: auto, tune_rounds: 50, max_chains: 16}"))
    if summary is None:
        return
    chosen = chosen_of(summary)
    failures.check(set(chosen) == GOAL_CHOICES - {"nrpt.spacing", "nrpt.chains"},
                   f"goal_tuned: chose {sorted(chosen)}")
    failures.check(summary["config"]["nrpt"]["cluster_moves"] == "houdayer" and
                   summary["config"].get("replicas") == 2 and "tuning" in summary and
                   summary["nrpt"].get("replicas") == 2, f"goal_tuned: {summary['config']}")
    failures.check(abs(summary["search"]["best_energy"] - ground) <= 1e-9 * abs(ground),
                   f"goal_tuned: best {summary['search']['best_energy']}, ground {ground}")


def check_rerun(args, failures, out):
    """The resolved config.yaml, run again: the same bits and the same recorded choices."""
    again = out + "_again"
    result = clitest.run(args.hamon, ["run", os.path.join(out, "config.yaml"), "--out", again,
                                      "--quiet"], timeout=300)
    if not failures.check(result.returncode == 0, f"rerun: exit {result.returncode}: "
                                                  f"{result.stderr.strip()}"):
        return
    for name in ("energies.npy", "best_state.npy", "betas.npy"):
        with open(os.path.join(out, name), "rb") as a, open(os.path.join(again, name), "rb") as b:
            failures.check(a.read() == b.read(), f"rerun: {name} differs")
    with open(os.path.join(out, "config.yaml")) as a, open(os.path.join(again, "config.yaml")) as b:
        first, second = yaml.safe_load(a), yaml.safe_load(b)
    first["output"].pop("dir")
    second["output"].pop("dir")
    failures.check(first == second, "rerun: config.yaml differs")


def main():
    args = clitest.arguments(__doc__)
    failures = clitest.Failures()
    run = Runner(args, failures)
    check_chunk(run, failures)
    check_chain_count(run, failures)
    torus = check_goal(run, failures, "goal_torus", TORUS,
                       ground_energy(L * L, TORUS_EDGES, TORUS_FIELDS), TORUS_EDGES,
                       TORUS_FIELDS, L * L)
    check_goal(run, failures, "goal_glass", GLASS, ground_energy(N12, GLASS_EDGES, GLASS_FIELDS),
               GLASS_EDGES, GLASS_FIELDS, N12)
    check_overrides(run, failures)
    check_potts(run, failures)
    check_tuned(run, failures)
    if torus is not None:
        check_rerun(args, failures, torus)
    failures.finish("search without hand tuning")


if __name__ == "__main__":
    main()
