#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""tools/plot_ensemble.py, and tools/plot_run.py given several directories: on two ensembles'
summaries (sizes L = 4 and 6, constructed with the documented `ensemble.overlap` keys) each
writes binder.png and xi_over_l.png, each a real image listed on stdout; on an ensemble without overlaps (a real `hamon run` of
instances: 2, one replica) it exits 2 naming ensemble.overlap."""

import os
import subprocess
import sys

import numpy as np
import yaml

import clitest
import ensemble_run


def constructed(work, length, shift):
    directory = os.path.join(work, f"L{length}")
    os.makedirs(directory)
    betas = [0.0, 0.6, 0.8, 1.0, 1.2]
    g = [0.1 + shift, 0.4 + shift, 0.6, 0.75 - shift, 0.85 - shift]
    xi = [length * v for v in (0.2 + shift, 0.4, 0.55, 0.7, 0.8 - shift)]
    summary = {"hamon": {"version": "x"},
               "config": {"model": {"kind": "lattice", "shape": [length] * 3}},
               "ensemble": {"instances": 8, "overlap": {
                   "betas": betas,
                   "binder": {"mean": g, "stderr": [0.02] * 5},
                   "xi": {"mean": xi, "stderr": [0.05 * length] * 5}}}}
    with open(os.path.join(directory, "summary.yaml"), "w") as f:
        yaml.safe_dump(summary, f)
    return directory


def main():
    args = clitest.arguments(__doc__)
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.image as mpimg

    failures = clitest.Failures()
    script = os.path.join(clitest.SOURCE_DIR, "tools", "plot_ensemble.py")
    env = clitest.clean_env(MPLCONFIGDIR=os.path.join(args.work, "mpl"))
    dirs = [constructed(args.work, 6, -0.05), constructed(args.work, 4, 0.05)]
    # plot_run.py given several directories draws the same figures.
    for tool in ("plot_ensemble.py", "plot_run.py"):
        out = os.path.join(args.work, "plots-" + tool)
        plot = subprocess.run([sys.executable, os.path.join(os.path.dirname(script), tool)] +
                              dirs + ["--out", out], stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True, timeout=120, env=env)
        failures.check(plot.returncode == 0, f"{tool} exited {plot.returncode}: {plot.stderr}")
        for name in ("binder.png", "xi_over_l.png"):
            path = os.path.join(out, name)
            if not failures.check(os.path.isfile(path), f"{tool}: {name} not written"):
                continue
            image = mpimg.imread(path)
            failures.check(image.ndim == 3 and image.shape[0] >= 300 and
                           image.shape[1] >= 400, f"{tool}: {name} has shape {image.shape}")
            failures.check(float(np.std(image[..., :3])) > 0.01,
                           f"{tool}: {name} is one flat colour")
            failures.check(path in plot.stdout, f"{tool} did not list {name}")
    config = ensemble_run.write_config(args, "plain", "instances: 2\n")
    run_dir = os.path.join(args.work, "plain")
    result = clitest.run(args.hamon, ["run", config, "--out", run_dir, "--quiet"])
    failures.check(result.returncode == 0, f"hamon run: {result.stderr}")
    bad = subprocess.run([sys.executable, script, run_dir], stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, text=True, timeout=60, env=env)
    failures.check(bad.returncode == 2 and "ensemble.overlap" in bad.stderr,
                   f"an ensemble without overlaps: {bad.returncode} {bad.stderr!r}")
    failures.finish("plot_ensemble")


if __name__ == "__main__":
    main()
