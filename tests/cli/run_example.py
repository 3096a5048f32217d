#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Runs one example (shortened with --rounds / --burn-in), checks the run directory against
the schema (check_run.py), that stderr stayed empty (no terminal: nothing but errors), and
that the summary's resolved config is itself a valid experiment file."""

import os

import yaml

import clitest
from check_run import check_run


def extra(parser):
    parser.add_argument("--example", required=True, choices=clitest.EXAMPLES)
    parser.add_argument("--rounds", type=int, default=300)
    parser.add_argument("--burn-in", type=int, default=100)


def main():
    args = clitest.arguments(__doc__, extra)
    failures = clitest.Failures()
    config = os.path.join(clitest.EXAMPLES_DIR, args.example + ".yaml")
    out = os.path.join(args.work, "run")
    result = clitest.run(args.hamon, ["run", config, "--out", out, "--rounds", args.rounds,
                                      "--burn-in", args.burn_in])
    failures.check(result.returncode == 0,
                   f"hamon run exited {result.returncode}: {result.stderr.strip()}")
    failures.check(result.stderr == "", f"stderr not empty without a terminal: {result.stderr!r}")
    failures.check(f"results in {out}" in result.stdout, f"stdout does not say where: {result.stdout}")
    failures.check(not clitest.leftovers(out), f"staging left behind: {clitest.leftovers(out)}")
    problems = []
    summary = check_run(out, problems)
    for p in problems:
        failures.check(False, p)
    if summary is not None:
        failures.check(summary["config"]["nrpt"]["rounds"] == args.rounds, "--rounds not applied")
        failures.check(summary["config"]["nrpt"]["burn_in"] == args.burn_in, "--burn-in not applied")
        # The resolved config is an experiment file: validate it as such.
        again = os.path.join(args.work, "resolved.yaml")
        with open(again, "w") as f:
            yaml.safe_dump(summary["config"], f)
        check = clitest.run(args.hamon, ["validate", again, "--out", os.path.join(args.work, "never")])
        failures.check(check.returncode == 0,
                       f"the summary's config does not validate: {check.stderr.strip()}")
    failures.finish(f"example {args.example}")


if __name__ == "__main__":
    main()
