#!/usr/bin/env python3
"""Checks a run directory against the documented schema (examples/README.md, "The run
directory"): summary.yaml's keys, types and internal consistency, and the .npy files'
dtypes and shapes. Usable alone:  check_run.py RUN_DIR  (exit 1 with the failures)."""

import math
import os
import sys

import numpy as np
import yaml

TOP_KEYS = {"hamon", "config", "device", "model", "nrpt", "observables", "timing"}
NRPT_KEYS = {"n_chains", "rounds", "explore_sweeps", "betas", "acceptance", "Lambda",
             "tau_predicted", "tau_observed", "efficiency", "round_trips"}
OBSERVABLE_KEYS = {"energy_per_node", "abs_magnetization_per_node", "n_samples", "node_means",
                   "node_means_stderr"}
PLACEMENTS = {"leave_alone", "serial", "openmp", "cuda"}


def is_number(x):
    return isinstance(x, (int, float)) and not isinstance(x, bool)


def close(a, b, rel=1e-9, abs_tol=1e-12):
    return math.isclose(a, b, rel_tol=rel, abs_tol=abs_tol)


def check_run(directory, failures):
    """Appends messages to `failures` (a list); returns the summary (or None)."""

    def need(condition, message):
        if not condition:
            failures.append(f"{directory}: {message}")
        return condition

    path = os.path.join(directory, "summary.yaml")
    if not need(os.path.isfile(path), "no summary.yaml"):
        return None
    names = set(os.listdir(directory))
    need(not any(".partial-" in n for n in names), f"temporary files left: {sorted(names)}")
    for name in ("betas.npy", "energies.npy", "index_process.npy", "samples.npy"):
        need(name in names, f"missing {name}")
    with open(path) as f:
        s = yaml.safe_load(f)
    if not need(isinstance(s, dict) and set(s) == TOP_KEYS,
                f"top-level keys {sorted(s) if isinstance(s, dict) else s} != {sorted(TOP_KEYS)}"):
        return None

    # hamon: version and build
    h = s["hamon"]
    need(isinstance(h.get("version"), str), "hamon.version is not a string")
    build = h.get("build", {})
    need(isinstance(build.get("kokkos"), str), "hamon.build.kokkos is not a string")
    need(isinstance(build.get("backends"), list) and build["backends"]
         and all(isinstance(b, str) for b in build["backends"]), "hamon.build.backends")

    # config: the resolved experiment
    c = s["config"]
    need(set(c) == {"seed", "device", "model", "nrpt", "output"}, f"config keys {sorted(c)}")
    cn = c["nrpt"]

    # device
    d = s["device"]
    for key in ("spec", "placement", "reason", "score", "threshold"):
        need(key in d, f"device.{key} missing")
    need(d.get("placement") in PLACEMENTS, f"device.placement {d.get('placement')}")
    need(isinstance(d.get("reason"), str) and d["reason"], "device.reason")
    need(isinstance(d.get("score"), int) and d["score"] >= 0, "device.score")
    need(d.get("threshold") is None or is_number(d["threshold"]), "device.threshold")

    # model
    m = s["model"]
    need(set(m) == {"n_nodes", "n_free", "n_edges", "n_colors"}, f"model keys {sorted(m)}")
    n_nodes = m["n_nodes"]
    need(isinstance(n_nodes, int) and n_nodes >= 1, "model.n_nodes")
    need(0 <= m["n_free"] <= n_nodes, "model.n_free")
    need(m["n_edges"] >= 0 and m["n_colors"] >= 0, "model.n_edges / n_colors")

    # nrpt
    n = s["nrpt"]
    need(set(n) == NRPT_KEYS, f"nrpt keys {sorted(n)}")
    chains = n["n_chains"]
    rounds = n["rounds"]
    betas = n["betas"]
    acceptance = n["acceptance"]
    need(chains == cn["chains"] == len(betas), "nrpt.n_chains / betas / config chains disagree")
    need(rounds == cn["rounds"], "nrpt.rounds != config rounds")
    need(n["explore_sweeps"] == cn["explore_sweeps"], "nrpt.explore_sweeps")
    need(all(b2 > b1 for b1, b2 in zip(betas, betas[1:])), "betas not strictly ascending")
    target = cn["betas"][-1] if "betas" in cn else cn["beta_max"]
    need(close(betas[-1], target), f"coldest beta {betas[-1]} != target {target}")
    need(len(acceptance) == chains - 1 and all(0 <= a <= 1 for a in acceptance),
         "nrpt.acceptance")
    Lambda = sum(1 - a for a in acceptance)
    need(close(n["Lambda"], Lambda, 1e-9, 1e-9), f"Lambda {n['Lambda']} != sum(1-acc) {Lambda}")
    need(close(n["tau_predicted"], 1 / (2 + 2 * n["Lambda"])), "tau_predicted != 1/(2+2 Lambda)")
    need(isinstance(n["round_trips"], int) and n["round_trips"] >= 0, "round_trips")
    need(close(n["tau_observed"], n["round_trips"] / rounds), "tau_observed != trips/rounds")
    if chains > 1:
        need(close(n["efficiency"], n["tau_observed"] / n["tau_predicted"], 1e-9, 1e-12),
             "efficiency != tau_observed / tau_predicted")

    # arrays
    b = np.load(os.path.join(directory, "betas.npy"))
    need(b.dtype == np.float64 and b.shape == (chains,), f"betas.npy {b.dtype} {b.shape}")
    need(np.array_equal(b, np.asarray(betas)), "betas.npy != summary betas (bit for bit)")
    e = np.load(os.path.join(directory, "energies.npy"))
    expect = (rounds if c["output"]["energies"] else 0, chains)
    need(e.dtype == np.float64 and e.shape == expect, f"energies.npy {e.dtype} {e.shape} != {expect}")
    ip = np.load(os.path.join(directory, "index_process.npy"))
    expect = (rounds if c["output"]["index_process"] else 0, chains)
    need(ip.dtype == np.int32 and ip.shape == expect,
         f"index_process.npy {ip.dtype} {ip.shape} != {expect}")
    if ip.size:
        need(np.all(np.sort(ip, axis=1) == np.arange(chains)),
             "index_process rows are not permutations of the temperature indices")
    samples = np.load(os.path.join(directory, "samples.npy"))
    spec = c["output"]["samples"]
    if spec:
        observed = n_nodes if spec["nodes"] == "all" else len(spec["nodes"])
        expect = (rounds // spec["every"], observed)
    else:
        expect = (0, 0)
    need(samples.dtype == np.int8 and samples.shape == expect,
         f"samples.npy {samples.dtype} {samples.shape} != {expect}")
    need(np.all(np.abs(samples) == 1), "samples are not all +-1")

    # observables
    o = s["observables"]
    need(set(o) == OBSERVABLE_KEYS, f"observables keys {sorted(o)}")
    energy = o["energy_per_node"]
    if need(isinstance(energy, dict) and set(energy) == {"mean", "stderr"}, "energy_per_node"):
        need(math.isfinite(energy["mean"]) and energy["stderr"] >= 0, "energy_per_node values")
        if e.size:
            cold = e[:, -1].mean() / n_nodes
            need(close(energy["mean"], cold, 1e-9, 1e-9),
                 f"energy_per_node.mean {energy['mean']} != energies.npy cold mean {cold}")
    if c["output"]["moments"]:
        mag = o["abs_magnetization_per_node"]
        need(isinstance(mag, dict) and 0 <= mag["mean"] <= 1 and mag["stderr"] >= 0,
             "abs_magnetization_per_node")
        need(o["n_samples"] == rounds, "observables.n_samples != rounds")
        nm, ns = o["node_means"], o["node_means_stderr"]
        need(isinstance(nm, list) and len(nm) == n_nodes and all(-1 <= v <= 1 for v in nm),
             "node_means")
        need(isinstance(ns, list) and len(ns) == n_nodes and all(v >= 0 for v in ns),
             "node_means_stderr")
    else:
        need(o["node_means"] is None and o["node_means_stderr"] is None,
             "node_means should be null without moments")

    # timing
    t = s["timing"]
    need(set(t) == {"total_s", "sampling_s", "spin_updates_per_ns"}, f"timing keys {sorted(t)}")
    need(t["total_s"] >= t["sampling_s"] >= 0 and t["spin_updates_per_ns"] >= 0, "timing values")
    return s


if __name__ == "__main__":
    problems = []
    for run_dir in sys.argv[1:]:
        check_run(run_dir, problems)
    for p in problems:
        print(p)
    sys.exit(1 if problems else 0)
