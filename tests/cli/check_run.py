#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Checks a run directory against the documented schema (examples/README.md, "The run
directory"): summary.yaml's keys, types and internal consistency (the tuning, health and
log_z sections included), and the .npy files' dtypes and shapes. Usable alone:
check_run.py RUN_DIR  (exit 1 with the failures)."""

import math
import os
import sys

import numpy as np
import yaml

TOP_KEYS = {"hamon", "config", "device", "model", "nrpt", "search", "observables", "health",
            "timing"}
SEARCH_KEYS = {"best_energy", "found_round", "found_beta", "round_trips_since_improvement"}
ADVICE_KEYS = {"beta_max_estimate", "diagnosis"}  # checked by check_search_advice
OBJECTIVE_KEYS = {"best_objective", "objective"}  # model.kind qubo / maxcut: check_objective
# tuning: a tuned run; log_z: when log Z(beta_0) is known; overlap: two replicas or more in
# one process (overlap_skipped: over ranks, or a continuous model's replicas)
# magnetization: spin and Potts models with output.magnetization in one process (magnetization_skipped:
# over ranks)
OPTIONAL_TOP_KEYS = {"tuning", "log_z", "overlap", "overlap_skipped", "magnetization",
                     "magnetization_skipped"}
# The magnetisation per temperature (docs/magnetization.md): an estimate and its stderr each.
MAGNETIZATION_LISTS = [k + e for k in ("m", "abs_m", "m2", "m4", "binder", "chi", "chi_m2")
                       for e in ("", "_stderr")]
TUNING_KEYS = {"tuned", "plan", "seconds", "cache_hit", "cache_entry", "tuned_seconds", "Lambda",
               "barrier_identified", "conveyor_alive"}
TUNED_KEYS = ["chains", "betas", "explore_sweeps"]  # config keys that may say "auto"
HEALTH_CHECKS = {"swap_attempts", "round_trip_rate", "efficiency", "rejection_std", "error_bars",
                 "cold_chain_frozen", "cold_chain_uniform"}
STATUSES = ["skipped", "pass", "warn", "fail"]  # in order of severity
LOG_Z_KEYS = {"beta", "log_z0", "log_z0_exact", "log_z0_error", "thermodynamic_integration",
              "stepping_stone", "preferred", "preferred_reason", "batches", "warnings", "notes"}
NRPT_KEYS = {"n_chains", "rounds", "explore_sweeps", "betas", "acceptance", "Lambda",
             "tau_predicted", "tau_predicted_fine_ladder", "tau_observed", "efficiency",
             "round_trips"}
OBSERVABLE_KEYS = {"energy_per_node", "abs_magnetization_per_node", "n_samples", "node_means",
                   "node_means_stderr"}
# A continuous model's (summary model.variables): <x_i>, Var(x_i) and |sum_i x_i| / N.
CONTINUOUS_OBSERVABLE_KEYS = {"energy_per_node", "abs_mean_per_node", "n_samples", "node_means",
                              "node_means_stderr", "node_variances", "node_variances_stderr"}
# A Potts model's (summary model.n_states = q): marginals P(x_i = s), one list of q per node.
POTTS_OBSERVABLE_KEYS = {"energy_per_node", "potts_order_parameter", "n_samples",
                         "node_marginals", "node_marginals_stderr"}
# The replica overlaps per temperature (docs/overlaps.md); the chi(k_min) lists and xi on
# lattices only.
OVERLAP_LISTS = ["betas", "q2", "q2_stderr", "q4", "q4_stderr", "abs_q", "abs_q_stderr", "binder",
                 "binder_stderr", "chi_sg", "link_overlap", "link_overlap_stderr"]
OVERLAP_LATTICE_LISTS = ["chi_kmin", "chi_kmin_stderr", "xi"]
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
    for name in ("betas.npy", "energies.npy", "index_process.npy", "samples.npy",
                 "best_state.npy"):
        need(name in names, f"missing {name}")
    with open(path) as f:
        s = yaml.safe_load(f)
    if not need(isinstance(s, dict) and TOP_KEYS <= set(s) <= TOP_KEYS | OPTIONAL_TOP_KEYS,
                f"top-level keys {sorted(s) if isinstance(s, dict) else s}: expected "
                f"{sorted(TOP_KEYS)} and optionally {sorted(OPTIONAL_TOP_KEYS)}"):
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
    need(set(c) - {"replicas"} == {"seed", "device", "model", "nrpt", "output"},
         f"config keys {sorted(c)}")
    replicas = c.get("replicas", 1)
    need(isinstance(replicas, int) and replicas >= 2 if "replicas" in c else True,
         f"config.replicas {replicas} (written only when not 1)")
    cn = c["nrpt"]
    # nrpt.chosen: values the run chose for keys the file left out, each with its reason
    chosen = cn.get("chosen", [])
    need(isinstance(chosen, list) and chosen if "chosen" in cn else True, "chosen is empty")
    for entry in chosen if isinstance(chosen, list) else []:
        if not need(isinstance(entry, dict) and set(entry) == {"key", "value", "reason"} and
                    isinstance(entry["reason"], str) and entry["reason"], f"chosen entry {entry}"):
            continue
        section, _, key = str(entry["key"]).partition(".")
        held = cn.get(key) if section == "nrpt" else c.get(entry["key"])
        if isinstance(held, int) and not isinstance(held, bool):
            need(str(held) == str(entry["value"]),
                 f"chosen {entry['key']} = {entry['value']}, but config has {held}")

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
    q = m.get("n_states")  # a Potts model's q; absent for Ising spins
    continuous = m.get("variables")  # gaussian or double_well; absent for discrete models
    annealed = m.get("annealed", False)  # then energies.npy holds E - E_ref
    need(set(m) - {"n_states", "variables", "annealed"} == {"n_nodes", "n_free", "n_edges",
                                                           "n_colors"},
         f"model keys {sorted(m)}")
    # Continuous models always say whether they anneal; Ising models only when they do.
    need(continuous in (None, "gaussian", "double_well") and
         (("annealed" in m) == (continuous is not None or annealed is True)),
         f"model.variables {continuous}, annealed {m.get('annealed')}")
    need(not annealed or q is None, "a Potts model annealed")
    need(q is None or (isinstance(q, int) and 2 <= q <= 256), f"model.n_states {q}")
    n_nodes = m["n_nodes"]
    need(isinstance(n_nodes, int) and n_nodes >= 1, "model.n_nodes")
    need(0 <= m["n_free"] <= n_nodes, "model.n_free")
    need(m["n_edges"] >= 0 and m["n_colors"] >= 0, "model.n_edges / n_colors")

    # nrpt
    n = s["nrpt"]
    replica_keys = {"replicas", "round_trips_per_replica"} if replicas > 1 else set()
    need(set(n) == NRPT_KEYS | replica_keys, f"nrpt keys {sorted(n)}")
    if replicas > 1:
        need(n["replicas"] == replicas and len(n["round_trips_per_replica"]) == replicas and
             sum(n["round_trips_per_replica"]) == n["round_trips"],
             f"nrpt.replicas {n['replicas']}, round_trips_per_replica "
             f"{n['round_trips_per_replica']} (sum: round_trips {n['round_trips']})")
    chains = n["n_chains"]
    rounds = n["rounds"]
    betas = n["betas"]
    acceptance = n["acceptance"]
    tuned = [key for key in TUNED_KEYS if cn.get(key) == "auto"]
    plan = check_tuning(s, tuned, need)
    check_search_advice(s["search"], cn, n, need)
    if tuned and plan is None:
        return s
    need(chains == len(betas), "nrpt.n_chains != len(betas)")
    need(chains == (plan["n_chains"] if "chains" in tuned else cn["chains"]),
         "nrpt.n_chains disagrees with the config's chains (or the tuned plan's)")
    if "until" in cn:  # measured in chunks of `rounds`, up to max_rounds
        need(rounds <= cn["until"]["max_rounds"] and
             (rounds % cn["rounds"] == 0 or rounds == cn["until"]["max_rounds"]),
             f"nrpt.rounds {rounds}: not whole chunks of {cn['rounds']} up to max_rounds")
    else:
        need(rounds == cn["rounds"], "nrpt.rounds != config rounds")
    need(n["explore_sweeps"] == (plan["explore_sweeps"] if "explore_sweeps" in tuned
                                 else cn["explore_sweeps"]), "nrpt.explore_sweeps")
    need(all(b2 > b1 for b1, b2 in zip(betas, betas[1:])), "betas not strictly ascending")
    explicit_ladder = isinstance(cn.get("betas"), list)
    target = cn["betas"][-1] if explicit_ladder else cn["beta_max"]
    need(close(betas[-1], target), f"coldest beta {betas[-1]} != target {target}")
    if plan is not None:
        need(plan["betas"] == betas, "tuning.plan.betas != nrpt.betas (bit for bit)")
        if "chains" in tuned or "betas" in tuned:
            # A tuned ladder keeps the configured ends exactly.
            need(betas[0] == cn["beta_min"] and betas[-1] == cn["beta_max"],
                 f"tuned ladder ends {betas[0]}, {betas[-1]} != beta_min {cn['beta_min']}, "
                 f"beta_max {cn['beta_max']} exactly")
    need(len(acceptance) == chains - 1 and all(0 <= a <= 1 for a in acceptance),
         "nrpt.acceptance")
    Lambda = sum(1 - a for a in acceptance)
    need(close(n["Lambda"], Lambda, 1e-9, 1e-9), f"Lambda {n['Lambda']} != sum(1-acc) {Lambda}")
    odds = sum((1 - a) / max(a, 1e-12) for a in acceptance)
    need(close(n["tau_predicted"], 1 / (2 + 2 * odds)), "tau_predicted != 1/(2+2 sum r/(1-r))")
    need(close(n["tau_predicted_fine_ladder"], 1 / (2 + 2 * n["Lambda"])),
         "tau_predicted_fine_ladder != 1/(2+2 Lambda)")
    need(isinstance(n["round_trips"], int) and n["round_trips"] >= 0, "round_trips")
    # round_trips counts every replica's; tau_observed is per replica.
    need(close(n["tau_observed"], n["round_trips"] / replicas / rounds),
         "tau_observed != trips/replicas/rounds")
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
    sample_type = np.float64 if continuous else np.uint8 if q else np.int8
    need(samples.dtype == sample_type and samples.shape == expect,
         f"samples.npy {samples.dtype} {samples.shape} != {expect}")
    if continuous:
        need(np.all(np.isfinite(samples)), "samples are not all finite")
    elif q:
        need(np.all(samples < q), f"samples are not all states 0 .. {q - 1}")
    else:
        need(np.all(np.abs(samples) == 1), "samples are not all +-1")

    # observables
    o = s["observables"]
    need(set(o) == (CONTINUOUS_OBSERVABLE_KEYS if continuous else
                    POTTS_OBSERVABLE_KEYS if q else OBSERVABLE_KEYS),
         f"observables keys {sorted(o)}")
    energy = o["energy_per_node"]
    if need(isinstance(energy, dict) and set(energy) == {"mean", "stderr"}, "energy_per_node"):
        need(math.isfinite(energy["mean"]) and energy["stderr"] >= 0, "energy_per_node values")
        if e.size and not annealed:
            cold = e[:, -1].mean() / n_nodes
            need(close(energy["mean"], cold, 1e-9, 1e-9),
                 f"energy_per_node.mean {energy['mean']} != energies.npy cold mean {cold}")
    if q:
        check_potts_observables(o, c["output"]["moments"], n_nodes, q, rounds, need)
    elif continuous:
        check_continuous_observables(o, c["output"]["moments"], n_nodes, rounds, need)
    elif c["output"]["moments"]:
        mag = o["abs_magnetization_per_node"]
        need(isinstance(mag, dict) and 0 <= mag["mean"] <= 1 and mag["stderr"] >= 0,
             "abs_magnetization_per_node")
        need(o["n_samples"] == rounds, "observables.n_samples != rounds")
        nm, ns = o["node_means"], o["node_means_stderr"]
        need(isinstance(nm, list) and len(nm) == n_nodes and all(-1 <= v <= 1 for v in nm),
             "node_means")
        # .nan: a free node that never changed (its error is unknown).
        need(isinstance(ns, list) and len(ns) == n_nodes and
             all(v >= 0 or math.isnan(v) for v in ns), "node_means_stderr")
    else:
        need(o["node_means"] is None and o["node_means_stderr"] is None,
             "node_means should be null without moments")

    problem = c["model"].get("kind") in ("qubo", "maxcut")
    check_search_best(s["search"], "until" in cn, e, sample_type, n_nodes, n["round_trips"],
                      directory, need, annealed=bool(s["model"].get("annealed")),
                      problem=problem)
    if problem:
        check_objective(s["search"], c["model"]["kind"], n_nodes, directory, need)
    check_health(s["health"], c["output"]["energies"] and rounds >= 4, need)
    # log Z: known exactly when the ladder starts at beta = 0 (the CLI takes no reference
    # log Z), and estimated from the energies.
    want_log_z = c["output"]["energies"] and rounds >= 2 and betas[0] == 0.0
    need(("log_z" in s) == want_log_z,
         f"log_z {'missing' if want_log_z else 'present'} (energies "
         f"{c['output']['energies']}, rounds {rounds}, beta_0 {betas[0]})")
    if "log_z" in s:
        # On an annealing path log Z(0) is the reference's (not n_free log q): exact but for
        # a double well's, a quadrature with its error.
        check_log_z(s["log_z"], betas, m["n_free"], None if annealed else q or 2, need,
                    quadrature=continuous == "double_well")

    # Two replicas or more in one process (over ranks the section is absent).
    if "overlap" in s:
        need(replicas > 1, "an overlap section with one replica")
        check_overlap(s.get("overlap"), directory, names, betas, m["n_free"], q or 2, rounds,
                      replicas, need)

    # Spin and Potts models with output.magnetization: in one process the section, over
    # ranks the note.
    want_magnetization = c["output"].get("magnetization", False) and "variables" not in m
    need(("magnetization" in s or "magnetization_skipped" in s) == want_magnetization,
         f"magnetization {'missing' if want_magnetization else 'present'}")
    if "magnetization" in s:
        check_magnetization(s["magnetization"], s["observables"], betas, q, rounds, replicas,
                            need)

    # timing
    t = s["timing"]
    need(set(t) == {"total_s", "sampling_s", "checkpoint_s", "spin_updates_per_ns"},
         f"timing keys {sorted(t)}")
    need(t["total_s"] >= t["sampling_s"] >= t["checkpoint_s"] >= 0 and
         t["spin_updates_per_ns"] >= 0, "timing values")
    return s


def check_magnetization(mg, observables, betas, q, rounds, replicas, need):
    """The magnetization section: its keys, one value per chain, and the identities that tie
    its statistics together and to the cold chain's order parameter."""
    if not need(isinstance(mg, dict), "magnetization is not a map"):
        return
    need(set(mg) == set(MAGNETIZATION_LISTS) | {"definition", "n_rounds", "replicas", "betas"},
         f"magnetization keys {sorted(mg)}")
    need(mg.get("definition") == ("potts_order_parameter" if q else "spin_mean"),
         f"magnetization.definition {mg.get('definition')!r}")
    need(mg.get("betas") == betas and mg.get("n_rounds") == rounds and
         mg.get("replicas") == replicas,
         f"magnetization betas / n_rounds {mg.get('n_rounds')} / replicas {mg.get('replicas')}")
    for k in MAGNETIZATION_LISTS:
        v = mg.get(k)
        if not need(isinstance(v, list) and len(v) == (len(betas) if rounds else 0),
                    f"magnetization.{k} is not a list per chain"):
            return
    if rounds == 0:
        return
    for i in range(len(betas)):
        m, a, m2, m4 = mg["m"][i], mg["abs_m"][i], mg["m2"][i], mg["m4"][i]
        need(abs(m) <= a + 1e-12 and a * a <= m2 * (1 + 1e-9) + 1e-15 and
             m2 * m2 <= m4 * (1 + 1e-9) + 1e-15 and m4 <= 1 + 1e-12,
             f"magnetization moments at chain {i} break |<m>| <= <|m|>, <|m|>^2 <= <m^2>, "
             f"<m^2>^2 <= <m^4> <= 1")
        if q:
            need(close(m, a, 1e-12, 1e-15), f"Potts magnetization.m[{i}] != abs_m")
        if m2 > 0:
            need(close(mg["binder"][i], 1 - m4 / (3 * m2 * m2), 1e-9, 1e-12),
                 f"magnetization.binder[{i}] != 1 - m4 / (3 m2^2)")
    # One replica: the cold chain's entry is the observables' (replica 0's) order parameter.
    cold = observables.get("potts_order_parameter" if q else "abs_magnetization_per_node")
    if replicas == 1 and isinstance(cold, dict):
        need(close(mg["abs_m"][-1], cold["mean"], 1e-9, 1e-12),
             "magnetization.abs_m at the cold chain != the observables' order parameter")


def check_overlap(ov, directory, names, betas, n_free, q, rounds, replicas, need):
    """The overlap section and overlap_histograms.npy agree with each other and the run."""
    if not need(isinstance(ov, dict), "overlap is not a map"):
        return
    lattice = "xi" in ov
    keys = set(OVERLAP_LISTS) | (set(OVERLAP_LATTICE_LISTS) if lattice else set())
    need(set(ov) == keys | {"n_rounds", "replica_pairs"}, f"overlap keys {sorted(ov)}")
    need(ov.get("betas") == betas, "overlap.betas != nrpt.betas")
    pairs = replicas * (replicas - 1) // 2
    need(ov.get("replica_pairs") == pairs and ov.get("n_rounds") == rounds,
         f"overlap.replica_pairs {ov.get('replica_pairs')}, n_rounds {ov.get('n_rounds')}")
    for k in keys:
        v = ov.get(k)
        need(isinstance(v, list) and len(v) == len(betas), f"overlap.{k} is not a list per chain")
    if not need("overlap_histograms.npy" in names, "missing overlap_histograms.npy"):
        return
    h = np.load(os.path.join(directory, "overlap_histograms.npy"))
    if not need(h.dtype == np.int64 and h.shape == (len(betas), n_free + 1),
                f"overlap_histograms.npy {h.dtype} {h.shape}"):
        return
    need(np.all(h.sum(axis=1) == rounds * pairs), "overlap histogram totals != rounds x pairs")
    qs = (q * np.arange(n_free + 1) - n_free) / (n_free * (q - 1))
    for i in range(len(betas)):
        p = h[i] / max(1, h[i].sum())
        if rounds == 0:
            continue
        q2, q4 = float(p @ qs**2), float(p @ qs**4)
        need(close(ov["q2"][i], q2, 1e-9, 1e-12), f"overlap.q2[{i}] != the histogram's {q2}")
        need(close(ov["q4"][i], q4, 1e-9, 1e-12), f"overlap.q4[{i}] != the histogram's {q4}")
        need(close(ov["abs_q"][i], float(p @ np.abs(qs)), 1e-9, 1e-12),
             f"overlap.abs_q[{i}] != the histogram's")
        need(close(ov["chi_sg"][i], n_free * q2, 1e-9, 1e-12), f"overlap.chi_sg[{i}]")
        if q2 > 0:
            need(close(ov["binder"][i], 0.5 * (3 - q4 / q2**2), 1e-9, 1e-9),
                 f"overlap.binder[{i}]")
        need(all(ov[k][i] >= 0 for k in ("q2_stderr", "q4_stderr", "abs_q_stderr")),
             f"overlap errors at {i}")


ESTIMATE_KEYS = {"beta_max", "predicted_excess_energy", "Lambda", "n_chains", "energy_scale",
                 "gap_tol", "estimated_beta_max", "method"}
VERDICTS = {"mixing_limited", "draw_limited", "beta_limited", "inconclusive"}
RECOMMENDED_KEYS = {"extra_rounds", "n_chains", "explore_sweeps", "beta_max"}


def check_search_advice(search, cn, n, need):
    """search: the beta_max estimate (exactly when the config has gap_tol) and the diagnosis."""
    estimated = "gap_tol" in cn
    need(isinstance(search, dict) and set(search) >= {"diagnosis"}, "search.diagnosis missing")
    need(("beta_max_estimate" in search) == estimated,
         f"search.beta_max_estimate {'missing' if estimated else 'present'} (gap_tol "
         f"{cn.get('gap_tol')})")
    if estimated and isinstance(search.get("beta_max_estimate"), dict):
        e = search["beta_max_estimate"]
        need(set(e) == ESTIMATE_KEYS, f"search.beta_max_estimate keys {sorted(e)}")
        need(e.get("beta_max") == cn["beta_max"] == n["betas"][-1],
             "search.beta_max_estimate.beta_max != config beta_max != coldest beta (bit for bit)")
        need(e.get("gap_tol") == cn["gap_tol"], "search.beta_max_estimate.gap_tol")
        need(isinstance(e.get("n_chains"), int) and e["n_chains"] >= 2, "estimate n_chains")
        need(all(is_number(e.get(k)) and e[k] >= 0 for k in
                 ("predicted_excess_energy", "Lambda", "energy_scale")), "estimate numbers")
    d = search.get("diagnosis") if isinstance(search, dict) else None
    if not need(isinstance(d, dict) and set(d) == {"verdict", "confidence", "reasons",
                                                   "recommended"}, f"search.diagnosis {d}"):
        return
    need(d["verdict"] in VERDICTS, f"search.diagnosis.verdict {d['verdict']}")
    need(d["confidence"] in ("low", "medium", "high"), "search.diagnosis.confidence")
    need(isinstance(d["reasons"], list) and d["reasons"] and
         all(isinstance(r, str) and r for r in d["reasons"]), "search.diagnosis.reasons")
    need(isinstance(d["recommended"], dict) and set(d["recommended"]) == RECOMMENDED_KEYS,
         f"search.diagnosis.recommended {d['recommended']}")


def check_continuous_observables(o, moments, n_nodes, rounds, need):
    """<x_i>, Var(x_i) with errors with moments; null lists without."""
    lists = ("node_means", "node_means_stderr", "node_variances", "node_variances_stderr")
    if not moments:
        need(all(o[key] is None for key in lists), "node lists should be null without moments")
        return
    need(o["n_samples"] == rounds, "observables.n_samples != rounds")
    for key in lists:
        values = o[key]
        need(isinstance(values, list) and len(values) == n_nodes and
             all(math.isfinite(v) for v in values), key)
    for key in lists[1:]:
        need(all(v >= 0 for v in o[key]), f"{key} not all >= 0")
    mean = o["abs_mean_per_node"]
    need(isinstance(mean, dict) and mean["mean"] >= 0 and mean["stderr"] >= 0, "abs_mean_per_node")


def check_search_best(search, until, energies, sample_type, n_nodes, round_trips, directory, need,
                      annealed=False, problem=False):
    """search: the run's best (best_state.npy), at or below every energy of the trace; on the
    annealing path the trace is the swap energy E - E_ref and the best is E: not comparable."""
    if not need(isinstance(search, dict) and
                set(search) - ADVICE_KEYS == SEARCH_KEYS | ({"ended_by"} if until else set()) |
                (OBJECTIVE_KEYS if problem else set()),
                f"search keys {sorted(search) if isinstance(search, dict) else search}"):
        return
    if until:
        need(search["ended_by"] in ("stable", "max_rounds"), f"search.ended_by {search}")
    need(search["found_round"] >= 0 and 0 <= search["round_trips_since_improvement"] <= round_trips,
         f"search {search}")
    if energies.size and not annealed:
        need(search["best_energy"] <= energies.min() + 1e-9,
             f"search.best_energy {search['best_energy']} above energies.npy's {energies.min()}")
    best = np.load(os.path.join(directory, "best_state.npy"))
    need(best.dtype == sample_type and best.shape == (1, n_nodes),
         f"best_state.npy {best.dtype} {best.shape}")


def check_objective(search, kind, n_nodes, directory, need):
    """A qubo / maxcut run: its objective entries and best_assignment.npy (the best state's
    spins as 0/1), best_objective = scale * best_energy + offset (to rounding: the objective
    is summed from the file's terms, the energy from the Ising model's)."""
    o = search.get("objective")
    if not need(isinstance(o, dict) and set(o) == {"name", "goal", "scale", "offset",
                                                   "assignment"}, f"search.objective {o}"):
        return
    need((o["name"], o["goal"]) == (("qubo_value", "minimise") if kind == "qubo"
                                    else ("cut_value", "maximise")), f"search.objective {o}")
    want = o["scale"] * search["best_energy"] + o["offset"]
    need(math.isclose(search["best_objective"], want, rel_tol=1e-12, abs_tol=1e-9),
         f"search.best_objective {search['best_objective']} != scale * best_energy + offset {want}")
    x = np.load(os.path.join(directory, "best_assignment.npy"))
    best = np.load(os.path.join(directory, "best_state.npy"))
    need(x.dtype == np.uint8 and x.shape == (n_nodes,) and
         np.array_equal(x, (best[0] > 0).astype(np.uint8)),
         f"best_assignment.npy {x.dtype} {x.shape} is not best_state.npy's spins as 0/1")


def check_tuning(s, tuned, need):
    """The tuning section (present exactly when the config tunes something); its plan."""
    if not need(("tuning" in s) == bool(tuned),
                f"tuning section {'missing' if tuned else 'present'} with tuned keys {tuned}"):
        return None
    if not tuned:
        return None
    t = s["tuning"]
    if not need(isinstance(t, dict) and set(t) == TUNING_KEYS,
                f"tuning keys {sorted(t) if isinstance(t, dict) else t}"):
        return None
    need(t["tuned"] == tuned, f"tuning.tuned {t['tuned']} != config autos {tuned}")
    plan = t["plan"]
    if not need(isinstance(plan, dict) and set(plan) == {"n_chains", "betas", "explore_sweeps"},
                f"tuning.plan {plan}"):
        return None
    need(isinstance(plan["n_chains"], int) and plan["n_chains"] >= 1
         and plan["n_chains"] == len(plan["betas"]), "tuning.plan.n_chains / betas")
    need(isinstance(plan["explore_sweeps"], int) and plan["explore_sweeps"] >= 1,
         "tuning.plan.explore_sweeps")
    need(is_number(t["seconds"]) and t["seconds"] >= 0, "tuning.seconds")
    need(is_number(t["tuned_seconds"]) and t["tuned_seconds"] >= 0, "tuning.tuned_seconds")
    need(isinstance(t["cache_hit"], bool), "tuning.cache_hit is not a boolean")
    need(t["cache_entry"] is None or (isinstance(t["cache_entry"], str) and t["cache_entry"]),
         "tuning.cache_entry")
    need(not t["cache_hit"] or t["cache_entry"], "a cache hit without a cache entry")
    need(is_number(t["Lambda"]) and t["Lambda"] >= 0, "tuning.Lambda")
    for key in ("barrier_identified", "conveyor_alive"):
        need(t[key] is None or isinstance(t[key], bool), f"tuning.{key}")
    return plan


def check_health(h, energies, need):
    """The health report: every check with a status, and the overall (worst) status."""
    if not need(isinstance(h, dict) and set(h) == {"overall", "checks", "cold_energy_ess"},
                f"health keys {sorted(h) if isinstance(h, dict) else h}"):
        return
    checks = h["checks"]
    if not need(isinstance(checks, dict) and set(checks) == HEALTH_CHECKS,
                f"health.checks {sorted(checks) if isinstance(checks, dict) else checks}"):
        return
    for name, check in checks.items():
        if not need(isinstance(check, dict)
                    and set(check) == {"status", "value", "threshold", "message"},
                    f"health.checks.{name} {check}"):
            return
        need(check["status"] in STATUSES, f"health.checks.{name}.status {check['status']}")
        need(is_number(check["value"]) and is_number(check["threshold"]),
             f"health.checks.{name} value / threshold")
        need(isinstance(check["message"], str) and check["message"],
             f"health.checks.{name}.message")
    worst = max((c["status"] for c in checks.values()), key=STATUSES.index)
    need(h["overall"] == worst, f"health.overall {h['overall']} != worst check {worst}")
    ess = h["cold_energy_ess"]
    if energies:
        need(ess is None or (isinstance(ess, dict) and set(ess) == {"ess", "tau"}
                             and ess["ess"] > 0 and ess["tau"] > 0),
             f"health.cold_energy_ess {ess}")
    else:
        need(ess is None, "health.cold_energy_ess without recorded energies")


def check_potts_observables(o, moments, n_nodes, q, rounds, need):
    """A Potts run's observables: marginals are probabilities summing to 1 per node."""
    if not moments:
        need(o["node_marginals"] is None and o["node_marginals_stderr"] is None
             and o["potts_order_parameter"] is None, "Potts marginals should be null without moments")
        return
    order = o["potts_order_parameter"]
    need(isinstance(order, dict) and -1e-12 <= order["mean"] <= 1 + 1e-12 and order["stderr"] >= 0,
         "potts_order_parameter")
    need(o["n_samples"] == rounds, "observables.n_samples != rounds")
    p, e = o["node_marginals"], o["node_marginals_stderr"]
    shaped = lambda rows: (isinstance(rows, list) and len(rows) == n_nodes and
                           all(isinstance(r, list) and len(r) == q for r in rows))
    if need(shaped(p), f"node_marginals is not {n_nodes} lists of {q}"):
        need(all(-1e-12 <= v <= 1 + 1e-12 for r in p for v in r), "node_marginals outside [0, 1]")
        need(all(abs(sum(r) - 1) < 1e-9 for r in p), "node_marginals do not sum to 1 per node")
    if need(shaped(e), f"node_marginals_stderr is not {n_nodes} lists of {q}"):
        need(all(v >= 0 or math.isnan(v) for r in e for v in r), "node_marginals_stderr negative")


def check_log_z(z, betas, n_free, q, need, quadrature=False):
    if not need(isinstance(z, dict) and set(z) - {"beta_limit"} == LOG_Z_KEYS,
                f"log_z keys {sorted(z) if isinstance(z, dict) else z}"):
        return
    need(z["beta"] == betas[-1], "log_z.beta != the coldest beta")
    error = z["log_z0_error"]
    need(is_number(error) and (0 < error < 1e-6 if quadrature else error == 0),
         f"log_z0_error {error} (a quadrature: {quadrature})")
    need(z["log_z0_exact"] is not quadrature and
         (close(z["log_z0"], n_free * math.log(q)) if q else math.isfinite(z["log_z0"])),
         f"log_z0 {z['log_z0']} != n_free log {q} (exact: {z['log_z0_exact']})")
    for key in ("thermodynamic_integration", "stepping_stone"):
        e = z[key]
        parts = {"value", "stderr", "discretisation_error", "error", "trusted"}
        if need(isinstance(e, dict) and set(e) == parts, f"log_z.{key} {e}"):
            need(isinstance(e["trusted"], bool), f"log_z.{key}.trusted")
            need(is_number(e["value"]) and math.isfinite(e["value"]), f"log_z.{key}.value")
            for part in ("stderr", "discretisation_error", "error"):
                need(is_number(e[part]) and e[part] >= 0, f"log_z.{key}.{part}")
            need(close(e["error"], math.hypot(e["stderr"], e["discretisation_error"], error)),
                 f"log_z.{key}.error is not its parts and log_z0_error in quadrature")
    need(z["stepping_stone"]["discretisation_error"] == 0, "stepping stone has no quadrature")
    # A trusted estimate over an untrusted one; between two trusted ones, thermodynamic
    # integration only where its discretisation bound is at most a third of its stderr and
    # its error the smaller; between two untrusted ones the smaller error (and a warning).
    methods = ("thermodynamic_integration", "stepping_stone")
    trusted = {k: isinstance(z[k], dict) and z[k].get("trusted") is True for k in methods}
    ti = z["thermodynamic_integration"]
    if all(trusted.values()) and ti["discretisation_error"] > ti["stderr"] / 3:
        expected = {"stepping_stone"}
    else:
        candidates = [k for k in methods if trusted[k]] or list(methods)
        errors = {k: z[k]["error"] for k in candidates}
        expected = {k for k in candidates if errors[k] == min(errors.values())}
    need(z["preferred"] in expected,
         f"log_z.preferred {z['preferred']} is not {sorted(expected)} (trusted: {trusted})")
    need(isinstance(z.get("notes"), list), "log_z.notes")
    need(any(trusted.values()) or any("neither" in w for w in z["warnings"]),
         "log_z: neither estimate is trusted and no warning says so")
    need(isinstance(z["preferred_reason"], str) and z["preferred_reason"], "preferred_reason")
    need(set(z["batches"]) == {"count", "rounds", "energy_tau"} and z["batches"]["count"] >= 2,
         f"log_z.batches {z['batches']}")
    need(isinstance(z["warnings"], list), "log_z.warnings")


if __name__ == "__main__":
    problems = []
    for run_dir in sys.argv[1:]:
        check_run(run_dir, problems)
    for p in problems:
        print(p)
    sys.exit(1 if problems else 0)
