#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""The efficiency check's verdicts on runs known to explore too little: the shipped
3D spin glass (examples/ea3d_spin_glass.yaml, 64 chains, 8 sweeps per round, which passes:
cli.example.ea3d_spin_glass) with 1 sweep per round must fail the check and with 2 must
warn. The seed fixes each run's efficiency: 0.31 and 0.38 here (0.26..0.30 and 0.38..0.41
over other seeds; 8 sweeps 0.59..0.64), against fail < 0.35 and warn < 0.55
(docs/statistics.md, "Efficiency thresholds"). The thresholds the Python hamon used on
its fine-ladder efficiency (0.2, 0.35) gave warn and pass."""

import os

import yaml

import clitest


def main():
    args = clitest.arguments(__doc__)
    failures = clitest.Failures()
    with open(os.path.join(clitest.EXAMPLES_DIR, "ea3d_spin_glass.yaml")) as f:
        shipped = yaml.safe_load(f)
    for sweeps, expected in ((1, "fail"), (2, "warn")):
        config = dict(shipped)
        config["nrpt"] = dict(shipped["nrpt"], explore_sweeps=sweeps)
        config["output"] = {"moments": True}
        path = os.path.join(args.work, f"sweeps{sweeps}.yaml")
        with open(path, "w") as f:
            yaml.safe_dump(config, f)
        out = os.path.join(args.work, f"sweeps{sweeps}")
        result = clitest.run(args.hamon, ["run", path, "--out", out, "--quiet"], timeout=300)
        if not failures.check(result.returncode == 0,
                              f"{sweeps} sweeps: exit {result.returncode}: {result.stderr}"):
            continue
        with open(os.path.join(out, "summary.yaml")) as f:
            check = yaml.safe_load(f)["health"]["checks"]["efficiency"]
        failures.check(check["status"] == expected,
                       f"{sweeps} sweeps: efficiency {check['value']:.3f} is "
                       f"{check['status']}, not {expected}: {check['message']}")
    failures.finish("efficiency verdicts")


if __name__ == "__main__":
    main()
