#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Automatic tuning through `hamon run` (examples/autotune_ising2d.yaml, shortened):

  - a first run into an empty tuning cache tunes (cache_hit false) and writes a summary
    that passes the schema (check_run.py) with sane tuning / health / log_z sections: at
    least 2 chains, a strictly ascending ladder whose ends are the configured beta_min and
    beta_max exactly, log Z within the bounds every Ising ferromagnet obeys;
  - a repeat run into another directory with the same HAMON_CACHE_DIR loads the plan
    (cache_hit true, the same plan bit for bit, the same cache entry);
  - HAMON_CACHE_DIR="" turns the cache off (no entry, nothing written);
  - the device the summary records is the one `hamon validate` announces (the flow's work
    score, max_chains x free nodes);
  - a partial form (explore_sweeps: auto on a fixed geometric ladder) keeps the ladder and
    has no log_z (beta_0 > 0 and no reference log Z);
  - tools/plot_run.py draws a tuned run (when matplotlib is there).

Every run uses a cache directory under --work, never the user's."""

import importlib.util
import math
import os
import subprocess
import sys

import yaml

import clitest
from check_run import check_run

EXAMPLE = os.path.join(clitest.EXAMPLES_DIR, "autotune_ising2d.yaml")
ROUNDS = ["--rounds", "300", "--burn-in", "100"]

PARTIAL = """seed: 3
model: {kind: lattice, shape: [6, 6]}
nrpt:
  chains: 4
  beta_min: 0.1
  beta_max: 0.4
  spacing: geometric
  explore_sweeps: auto
  tune_rounds: 20
  rounds: 200
output: {samples: false}
"""


def load_summary(directory):
    with open(os.path.join(directory, "summary.yaml")) as f:
        return yaml.safe_load(f)


def main():
    args = clitest.arguments(__doc__)
    failures = clitest.Failures()
    cache = os.path.join(args.work, "cache")
    env = clitest.clean_env(HAMON_CACHE_DIR=cache)

    def run_into(name, config=EXAMPLE, environment=env, extra=ROUNDS):
        out = os.path.join(args.work, name)
        result = clitest.run(args.hamon, ["run", config, "--out", out] + extra, env=environment)
        ok = failures.check(result.returncode == 0,
                            f"{name}: hamon run exited {result.returncode}: {result.stderr.strip()}")
        failures.check(result.stderr == "", f"{name}: stderr not empty: {result.stderr!r}")
        problems = []
        summary = check_run(out, problems) if ok else None
        for p in problems:
            failures.check(False, p)
        return summary, result

    with open(EXAMPLE) as f:
        example = yaml.safe_load(f)["nrpt"]

    # --- first run: tunes -------------------------------------------------------------
    first, report = run_into("first")
    if first is None:
        failures.finish("autotune")
    t = first["tuning"]
    plan = t["plan"]
    betas = plan["betas"]
    failures.check(t["tuned"] == ["chains", "betas", "explore_sweeps"], f"tuned {t['tuned']}")
    failures.check(t["cache_hit"] is False, "first run: cache_hit is not false")
    failures.check(2 <= plan["n_chains"] <= example["max_chains"],
                   f"n_chains {plan['n_chains']} not in [2, max_chains]")
    failures.check(all(b < c for b, c in zip(betas, betas[1:])), f"ladder not ascending: {betas}")
    failures.check(betas[0] == example["beta_min"] and betas[-1] == example["beta_max"],
                   f"ladder ends {betas[0]}, {betas[-1]} are not exactly "
                   f"{example['beta_min']}, {example['beta_max']}")
    failures.check(plan["explore_sweeps"] in (1, 2, 4, 8),
                   f"explore_sweeps {plan['explore_sweeps']} is not a candidate")
    entry = t["cache_entry"]
    failures.check(isinstance(entry, str) and os.path.dirname(entry) == cache
                   and os.path.isfile(entry), f"cache entry {entry!r} not written under {cache}")
    failures.check("tuning" in report.stdout, f"the report does not mention tuning: {report.stdout}")
    failures.check(first["health"]["overall"] in ("pass", "warn", "fail"),
                   f"health.overall {first['health']['overall']}")
    # Any Ising ferromagnet: log 2 + beta |E_min| <= log Z(beta) <= n log 2 + beta |E_min|,
    # |E_min| = number of edges (coupling 1): a bracket no estimator may leave.
    z = first["log_z"]
    n_free, n_edges, beta = first["model"]["n_free"], first["model"]["n_edges"], betas[-1]
    low, high = math.log(2) + beta * n_edges, n_free * math.log(2) + beta * n_edges
    ti, ss = z["thermodynamic_integration"], z["stepping_stone"]
    for name, e in (("thermodynamic_integration", ti), ("stepping_stone", ss)):
        failures.check(low < e["value"] < high, f"log_z.{name} {e['value']} not in ({low}, {high})")
    spread = math.hypot(ti["error"], ss["error"])
    failures.check(abs(ti["value"] - ss["value"]) <= 8 * spread + 0.5,
                   f"the two log Z estimates disagree: {ti} vs {ss}")

    # --- the device: what validate announces, resolved with the flow's work score ------
    check = clitest.run(args.hamon, ["validate", EXAMPLE, "--out", os.path.join(args.work, "x")],
                        env=env)
    failures.check(check.returncode == 0, f"validate: {check.stderr.strip()}")
    device = first["device"]
    failures.check(f"-> {device['placement']} ({device['reason']})" in check.stdout,
                   f"validate announces another device than the run used: {check.stdout!r} "
                   f"vs {device}")
    failures.check(device["score"] == example["max_chains"] * n_free,
                   f"device.score {device['score']} != max_chains x n_free")
    resolved = clitest.run(args.hamon, ["resolve", "--chains", example["max_chains"],
                                        "--nodes", n_free], env=env)
    if failures.check(resolved.returncode == 0, f"resolve: {resolved.stderr.strip()}"):
        failures.check(yaml.safe_load(resolved.stdout)["placement"] == device["placement"],
                       f"hamon resolve disagrees with the run's placement: {resolved.stdout}")

    # --- the resolved config is an experiment file that tunes again ------------------
    again = os.path.join(args.work, "resolved.yaml")
    with open(again, "w") as f:
        yaml.safe_dump(first["config"], f)
    check = clitest.run(args.hamon, ["validate", again, "--out", os.path.join(args.work, "x")],
                        env=env)
    failures.check(check.returncode == 0 and "auto chains" in check.stdout,
                   f"the summary's config does not validate as a tuned experiment: "
                   f"{check.stdout!r} {check.stderr!r}")

    # --- repeat: the plan comes from the cache --------------------------------------
    second, _ = run_into("second")
    if second is not None:
        t2 = second["tuning"]
        failures.check(t2["cache_hit"] is True, "repeat run: cache_hit is not true")
        failures.check(t2["plan"] == plan, f"repeat run: plan {t2['plan']} != {plan}")
        failures.check(t2["cache_entry"] == entry, "repeat run: another cache entry")
        failures.check(second["nrpt"]["betas"] == betas, "repeat run: another ladder")
    failures.check(os.listdir(cache) == [os.path.basename(entry)],
                   f"the cache holds {os.listdir(cache)}, expected one entry")

    # --- HAMON_CACHE_DIR="" : no cache -----------------------------------------------
    off, _ = run_into("off", environment=clitest.clean_env(HAMON_CACHE_DIR=""))
    if off is not None:
        failures.check(off["tuning"]["cache_hit"] is False and off["tuning"]["cache_entry"] is None,
                       f"cache off: {off['tuning']}")
    failures.check(os.listdir(cache) == [os.path.basename(entry)], "cache off wrote an entry")

    # --- a partial form: explore_sweeps only, on a fixed geometric ladder -----------------
    partial_file = os.path.join(args.work, "partial.yaml")
    with open(partial_file, "w") as f:
        f.write(PARTIAL)
    partial, _ = run_into("partial", config=partial_file, extra=[])
    if partial is not None:
        failures.check(partial["tuning"]["tuned"] == ["explore_sweeps"],
                       f"partial: tuned {partial['tuning']['tuned']}")
        ladder = partial["nrpt"]["betas"]
        expected = [0.1 * 4 ** (k / 3) for k in range(4)]
        failures.check(len(ladder) == 4 and all(math.isclose(a, b, rel_tol=1e-12)
                                                for a, b in zip(ladder, expected)),
                       f"partial: the geometric ladder was not kept: {ladder}")
        failures.check("log_z" not in partial, "partial: log_z without beta_0 = 0")

    # --- the plot tool on a tuned run --------------------------------------------------
    if importlib.util.find_spec("matplotlib") is not None:
        plot = subprocess.run([sys.executable, os.path.join(clitest.SOURCE_DIR, "tools",
                                                            "plot_run.py"),
                               os.path.join(args.work, "first")],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                              timeout=120,
                              env=clitest.clean_env(MPLCONFIGDIR=os.path.join(args.work, "mpl")))
        failures.check(plot.returncode == 0 and "ladder.png" in plot.stdout,
                       f"plot_run.py on a tuned run: {plot.returncode} {plot.stderr[-500:]}")
    else:
        print("plot_run.py: skipped (no matplotlib)")
    failures.finish("autotune")


if __name__ == "__main__":
    main()
