#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Runs one example as shipped (or shortened with --rounds / --burn-in), checks its health
verdict, the run directory against the schema (check_run.py), that stderr stayed empty (no
terminal: nothing but errors), and that the summary's resolved config is itself a valid
experiment file.

An example is what users copy, so each must pass its own health report (summary.yaml
`health.overall: pass`). Every example is short enough to run as shipped (all of them
together in about 15 s on one core; ea3d_spin_glass, the longest, about 8 s), so no length
is shortened; a seed fixes every verdict, on every backend. An ensemble's instances are each
checked as one run directory."""

import os

import yaml

import clitest
from check_run import check_run


def extra(parser):
    parser.add_argument("--example", required=True, choices=clitest.EXAMPLES)
    parser.add_argument("--rounds", type=int, help="override nrpt.rounds (default: as shipped)")
    parser.add_argument("--burn-in", type=int, help="override nrpt.burn_in")
    parser.add_argument("--health", default="pass", choices=["pass", "warn", "fail"],
                        help="the expected health.overall")


def validate_config(args, failures, config):
    """The resolved config is an experiment file: validate it as such."""
    again = os.path.join(args.work, "resolved.yaml")
    with open(again, "w") as f:
        yaml.safe_dump(config, f)
    check = clitest.run(args.hamon, ["validate", again, "--out", os.path.join(args.work, "never")])
    failures.check(check.returncode == 0,
                   f"the summary's config does not validate: {check.stderr.strip()}")


def check_directory(args, failures, out):
    """One run directory against the schema and the expected health."""
    problems = []
    summary = check_run(out, problems)
    for p in problems:
        failures.check(False, p)
    if summary is not None:
        health = summary["health"]
        failures.check(health["overall"] == args.health,
                       f"health.overall is {health['overall']}, not {args.health}: " +
                       "; ".join(f"{name}: {c['status']}: {c['message']}"
                                 for name, c in health["checks"].items()
                                 if c["status"] not in ("pass", "skipped")))
        for key, value in (("rounds", args.rounds), ("burn_in", args.burn_in)):
            if value is not None:
                failures.check(summary["config"]["nrpt"][key] == value, f"--{key} not applied")
        validate_config(args, failures, summary["config"])


def main():
    args = clitest.arguments(__doc__, extra)
    failures = clitest.Failures()
    config = os.path.join(clitest.EXAMPLES_DIR, args.example + ".yaml")
    out = os.path.join(args.work, "run")
    overrides = []
    if args.rounds is not None:
        overrides += ["--rounds", args.rounds]
    if args.burn_in is not None:
        overrides += ["--burn-in", args.burn_in]
    result = clitest.run(args.hamon, ["run", config, "--out", out] + overrides, timeout=300)
    failures.check(result.returncode == 0,
                   f"hamon run exited {result.returncode}: {result.stderr.strip()}")
    failures.check(result.stderr == "", f"stderr not empty without a terminal: {result.stderr!r}")
    with open(config) as f:
        instances = yaml.safe_load(f).get("instances", 1)
    said = f"ensemble of {instances} instances in {out}" if instances > 1 else f"results in {out}"
    failures.check(said in result.stdout, f"stdout does not say where: {result.stdout}")
    failures.check(not clitest.leftovers(out), f"staging left behind: {clitest.leftovers(out)}")
    if instances > 1:
        # An ensemble: every instance is a run directory of its own, and passes as one.
        for k in range(instances):
            check_directory(args, failures, os.path.join(out, "instances", str(k)))
        with open(os.path.join(out, "summary.yaml")) as f:
            ensemble = yaml.safe_load(f)
        failures.check(ensemble["ensemble"]["instances"] == instances, "ensemble.instances")
        validate_config(args, failures, ensemble["config"])
    else:
        check_directory(args, failures, out)
    failures.finish(f"example {args.example}")


if __name__ == "__main__":
    main()
