#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Ground-state search through `hamon run`: nrpt.beta_max: auto and the search diagnosis.

  - beta_max: auto on spins in a uniform field h (zero couplings): every defect costs 2h
    and |E| = N h, so the estimate has the closed form beta = ln(2 / gap_tol - 1) / (2 h);
    the ladder ends at it, config.yaml holds it bit for bit and the summary's
    search.beta_max_estimate says so; a gap_tol given is used;
  - with tune: auto, the tuned ladder ends at the estimate bit for bit;
  - a number beta_max with gap_tol keeps the number, describes it (the predicted excess
    at beta 1 is 16 / (1 + e), half of |E|) and the diagnosis asks for the estimate;
  - `hamon extend` keeps that ladder (betas.npy bit for bit) and the estimate;
  - the diagnosis, on runs built to show each verdict: a two-chain ladder from beta 0 to 3
    on a ferromagnet (the pair almost never swaps) is mixing_limited and asks for more
    chains; a one-round run is draw_limited (its only round improved the best energy); a
    2 x 2 ferromagnet with a dense ladder finds its ground state at once and is
    beta_limited (settled); without recorded energies there is no history: inconclusive.
    Each such run twice: as configured, which is not a search (no nrpt.until, no
    beta_max: auto), its advice is given only with a confident verdict (else null, a reason
    saying why, and no search line in the report); with nrpt.until (one chunk: the same
    run), the report says the verdict and the advice is there.
Every summary passes check_run.py."""

import itertools
import math
import os

import numpy as np
import yaml

import clitest
from check_run import check_run

FIELD = """seed: 1
model: {{kind: lattice, shape: [4, 4], coupling: 0.0, field: {h}}}
nrpt:
  chains: 6
  beta_max: auto
{extra}  rounds: 200
output: {{samples: false}}
"""

FERRO = """seed: 2
model: {{kind: lattice, shape: [{side}, {side}], periodic: false}}
nrpt:
  chains: {chains}
  beta_max: {beta}
  rounds: {rounds}
{until}output: {{samples: false, energies: {energies}}}
"""
# What makes a run a search (nrpt.until), at no change to its length: one chunk.
UNTIL = "  until: {{stable_round_trips: 1000000, max_rounds: {rounds}}}\n"


def main():
    args = clitest.arguments(__doc__)
    failures = clitest.Failures()

    def run(name, text, command=None):
        config = os.path.join(args.work, name + ".yaml")
        out = os.path.join(args.work, name)
        with open(config, "w") as f:
            f.write(text)
        result = clitest.run(args.hamon, command or ["run", config, "--out", out])
        if not failures.check(result.returncode == 0,
                              f"{name}: exit {result.returncode}: {result.stderr.strip()}"):
            return None, result
        problems = []
        summary = check_run(out, problems)
        for p in problems:
            failures.check(False, f"{name}: {p}")
        return summary, result

    # --- beta_max: auto, closed form --------------------------------------------------
    for name, h, tol, extra in (("field", 0.5, 1e-3, ""),
                                ("field_tol", 0.25, 0.02, "  gap_tol: 0.02\n")):
        summary, report = run(name, FIELD.format(h=h, extra=extra))
        if summary is None:
            continue
        exact = math.log(2.0 / tol - 1.0) / (2.0 * h)
        e = summary["search"]["beta_max_estimate"]
        failures.check(abs(e["beta_max"] - exact) <= 1e-9 * exact,
                       f"{name}: beta_max {e['beta_max']} != ln(2/tol - 1)/(2h) = {exact}")
        failures.check(e["gap_tol"] == tol and abs(e["energy_scale"] - 16 * h) < 1e-12,
                       f"{name}: gap_tol {e['gap_tol']}, energy_scale {e['energy_scale']}")
        failures.check(abs(e["predicted_excess_energy"] - tol * 16 * h) <= 1e-8,
                       f"{name}: predicted excess {e['predicted_excess_energy']}")
        with open(os.path.join(args.work, name, "config.yaml")) as f:
            config = yaml.safe_load(f)["nrpt"]
        failures.check(config["beta_max"] == e["beta_max"] and config["gap_tol"] == tol,
                       f"{name}: config.yaml nrpt {config}")
        failures.check("beta_max " in report.stdout and "search " in report.stdout,
                       f"{name}: the report has no beta_max or search line: {report.stdout}")

    # --- with tuning: the tuned ladder ends at the estimate ------------------------------
    tuned_text = FIELD.format(h=0.5, extra="  tune: auto\n  tune_rounds: 20\n").replace(
        "  chains: 6\n", "")
    summary, _ = run("tuned", tuned_text)
    if summary is not None:
        plan = summary["tuning"]["plan"]
        e = summary["search"]["beta_max_estimate"]
        failures.check(plan["betas"][-1] == e["beta_max"],
                       f"tuned: the plan's ladder ends at {plan['betas'][-1]}, not the estimate "
                       f"{e['beta_max']}")

    # --- a number beta_max with gap_tol: described, and too warm for the search ---------
    warm = FIELD.format(h=0.5, extra="  gap_tol: 0.001\n").replace("beta_max: auto",
                                                                    "beta_max: 1.0")
    summary, _ = run("warm", warm)
    if summary is not None:
        e = summary["search"]["beta_max_estimate"]
        d = summary["search"]["diagnosis"]
        exact = math.log(2.0 / 1e-3 - 1.0)  # the estimate for h = 0.5
        failures.check(e["beta_max"] == 1.0 and abs(e["estimated_beta_max"] - exact) < 1e-8,
                       f"warm: estimate {e}")
        # 16 spins, cost 1: excess 16 / (1 + e) at beta 1, half of |E| = 8.
        failures.check(abs(e["predicted_excess_energy"] - 16 / (1 + math.e)) < 1e-9,
                       f"warm: predicted excess {e['predicted_excess_energy']}")
        failures.check(d["verdict"] == "beta_limited" and
                       d["recommended"]["beta_max"] == e["estimated_beta_max"],
                       f"warm: {d['verdict']} {d['recommended']}: a floor at half of |E| asks "
                       f"for the estimated beta_max")

    # --- extend keeps the estimated ladder ---------------------------------------------
    out = os.path.join(args.work, "field")
    if os.path.isdir(out):
        before = np.load(os.path.join(out, "betas.npy"))
        result = clitest.run(args.hamon, ["extend", out, "--rounds", "100"])
        if failures.check(result.returncode == 0, f"extend: {result.stderr.strip()}"):
            problems = []
            summary = check_run(out, problems)
            for p in problems:
                failures.check(False, f"extend: {p}")
            after = np.load(os.path.join(out, "betas.npy"))
            failures.check(np.array_equal(before, after), f"extend moved the ladder: {after}")
            if summary:
                failures.check(summary["search"]["beta_max_estimate"]["beta_max"] == before[-1],
                               "extend: the estimate moved")

    # --- each verdict, forced by construction -----------------------------------------
    cases = (
        ("saturated", dict(side=8, chains=2, beta=3.0, rounds=300, energies="true"),
         "mixing_limited"),
        ("one_round", dict(side=4, chains=4, beta=0.5, rounds=1, energies="true"),
         "draw_limited"),
        ("settled", dict(side=2, chains=6, beta=0.8, rounds=3000, energies="true"),
         "beta_limited"),
        # No energies trace: the tracked best state (every run keeps it) is the history,
        # so the run is still judged (the 4 x 4 ferromagnet's ground state is found early).
        ("no_trace", dict(side=4, chains=4, beta=0.5, rounds=300, energies="false"),
         "beta_limited"),
        # One chain and no energies trace: no effective sample size to call a plateau by.
        ("one_chain_no_trace", dict(side=4, chains=1, beta=0.5, rounds=300, energies="false"),
         "inconclusive"),
    )
    for (name, shape, verdict), asked in itertools.product(cases, (False, True)):
        until = UNTIL.format(rounds=shape["rounds"]) if asked else ""
        name += "_until" if asked else ""
        summary, report = run(name, FERRO.format(until=until, **shape))
        if summary is None:
            continue
        d = summary["search"]["diagnosis"]
        failures.check(d["verdict"] == verdict, f"{name}: verdict {d['verdict']} != {verdict}: "
                                                f"{d['reasons']}")
        failures.check("beta_max_estimate" not in summary["search"],
                       f"{name}: an estimate without beta_max: auto")
        advice = any(v is not None for v in d["recommended"].values())
        if not asked:
            # Not a search: advice only with a confident verdict, else null and said why;
            # the report's search line only with advice.
            failures.check(advice == (d["confidence"] == "high"),
                           f"{name}: {d['confidence']} verdict, recommended {d['recommended']}")
            if verdict == "mixing_limited":
                # Its best settled at once (medium): the chains it would ask for are withheld.
                failures.check(not advice and any(r.startswith("no advice") for r in
                                                  d["reasons"]), f"{name}: {d}")
            failures.check((verdict in report.stdout) == advice,
                           f"{name}: the report's search line with advice {advice}: "
                           f"{report.stdout}")
            continue
        failures.check(verdict in report.stdout, f"{name}: the report does not say {verdict}")
        if verdict == "mixing_limited":
            failures.check((d["recommended"]["n_chains"] or 0) >= 3,
                           f"{name}: recommended {d['recommended']}")
        if verdict == "draw_limited":
            failures.check(d["recommended"]["extra_rounds"] == 2, f"{name}: {d['recommended']}")
    failures.finish("search_runs")


if __name__ == "__main__":
    main()
