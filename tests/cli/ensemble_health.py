#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""An ensemble keeps its instances' health: 4 instances of a 4x4x4 +-J glass on 3 chains
from beta 0.1 to 1.25 (too few chains: no round trip in 300 rounds, so every instance's
`round_trip_rate` check fails, as in the example ensemble with `chains: 3`, 8 of 8). The
ensemble's summary.yaml says how many instances failed which check, flags its averages, and
the terminal report says it; each count is checked against the instances' own summaries.
Before, the ensemble's summary and report had no "fail" in them at all."""

import os

import yaml

import clitest

CONFIG = """seed: 11
instances: 4
model:
  kind: lattice
  shape: [4, 4, 4]
  coupling: {distribution: pm_one, seed: 2026}
nrpt:
  chains: 3
  beta_min: 0.1
  beta_max: 1.25
  spacing: geometric
  rounds: 300
  burn_in: 50
"""


def main():
    args = clitest.arguments(__doc__)
    failures = clitest.Failures()
    config = os.path.join(args.work, "ensemble.yaml")
    with open(config, "w") as f:
        f.write(CONFIG)
    out = os.path.join(args.work, "ens")
    result = clitest.run(args.hamon, ["run", config, "--out", out])
    if not failures.check(result.returncode == 0, f"exit {result.returncode}: {result.stderr}"):
        failures.finish("ensemble health")
    # The instances' own verdicts, the oracle.
    flagged = {}
    failed = 0
    for k in range(4):
        with open(os.path.join(out, "instances", str(k), "summary.yaml")) as f:
            health = yaml.safe_load(f)["health"]
        failed += health["overall"] == "fail"
        for name, check in health["checks"].items():
            if check["status"] in ("fail", "warn"):
                flagged.setdefault(name, {"fail": 0, "warn": 0, "instances": []})
                flagged[name][check["status"]] += 1
                flagged[name]["instances"].append(k)
    failures.check(failed == 4 and flagged.get("round_trip_rate", {}).get("fail") == 4,
                   f"the case no longer fails every instance: {failed}, {flagged}")
    with open(os.path.join(out, "summary.yaml")) as f:
        ensemble = yaml.safe_load(f)["ensemble"]
    health = ensemble.get("health", {})
    failures.check(health.get("overall") == "fail", f"ensemble.health.overall: {health}")
    failures.check(health.get("failed") == failed and health.get("warned") == 0,
                   f"ensemble.health counts {health}, the instances say {failed} failed")
    failures.check(health.get("checks") == flagged,
                   f"ensemble.health.checks {health.get('checks')} != the instances' {flagged}")
    failures.check(health.get("averages_include_failed") == failed, f"{health}")
    failures.check("4 of 4 instances" in ensemble.get("averages_flag", ""),
                   f"the averages are not flagged: {ensemble.get('averages_flag')!r}")
    line = [l for l in result.stdout.splitlines() if l.strip().startswith("health")]
    failures.check(len(line) == 1 and "fail: 4 of 4 instances failed" in line[0]
                   and "round_trip_rate 4 fail" in line[0]
                   and "averages include the failed instances" in line[0],
                   f"terminal report: {result.stdout!r}")
    failures.finish("ensemble health")


if __name__ == "__main__":
    main()
