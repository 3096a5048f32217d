#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Finite-size-scaling plots of hamon ensembles (`instances: K`), from their summary.yaml
`ensemble.overlap` (disorder averages with jackknife errors), or of single runs with
replicas from their `overlap:` (one instance's thermal averages):

    python3 tools/plot_ensemble.py runs/ea3d_L4 runs/ea3d_L6 runs/ea3d_L8 --out plots/

(tools/plot_run.py does the same when given several directories or an ensemble.)

  binder.png     the Binder ratio g = (3 - [q4]/[q2]^2) / 2 against T = 1/beta, one curve
                 per ensemble (labelled by its linear size L, the lattice's first extent):
                 the curves of several sizes cross at the transition
  xi_over_l.png  xi_L / L against T, when the ensembles have `xi`: crossings again

beta = 0 (T = inf) is left out. Written into --out
(default: the first directory). Needs python3 with numpy, PyYAML and matplotlib. Exit
status: 0 done, 2 a directory has no overlaps.
"""

import argparse
import os
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import yaml  # noqa: E402


def load_ensemble(directory):
    """(label, L, overlap section) of an ensemble directory; raises ValueError if it is none."""
    path = os.path.join(directory, "summary.yaml")
    if not os.path.isfile(path):
        raise ValueError(f"{directory}: no summary.yaml (not a hamon run directory)")
    with open(path) as f:
        summary = yaml.safe_load(f)
    overlap = (summary.get("ensemble") or {}).get("overlap")
    if not overlap and isinstance(summary.get("overlap"), dict):
        overlap = one_run_overlap(summary["overlap"])
    if not overlap:
        raise ValueError(f"{directory}: no ensemble.overlap or overlap: in summary.yaml (an "
                         "ensemble of instances, or one run, with replicas >= 2 writes it)")
    shape = summary["config"]["model"].get("shape") or [None]
    return shape[0], overlap


def one_run_overlap(section):
    """A single run's `overlap:` lists as {key: {mean, stderr}}, like an ensemble's (one
    instance's thermal averages and their errors; xi has none)."""
    overlap = {"betas": section["betas"]}
    for key in ("binder", "xi"):
        if key in section:
            means = section[key]
            errors = section.get(key + "_stderr") or [float("nan")] * len(means)
            overlap[key] = {"mean": means, "stderr": errors}
    return overlap


def curve(ax, overlap, key, scale, label):
    """Draws `key` (mean with stderr, divided by `scale`) against T; False when absent."""
    if key not in overlap:
        return False
    betas = np.asarray(overlap["betas"], dtype=float)
    mean = np.asarray(overlap[key]["mean"], dtype=float) / scale
    err = np.asarray(overlap[key]["stderr"], dtype=float) / scale
    keep = betas > 0
    order = np.argsort(1.0 / betas[keep])
    t = (1.0 / betas[keep])[order]
    ax.errorbar(t, mean[keep][order], yerr=np.nan_to_num(err[keep][order]), marker="o",
                markersize=3, capsize=2, label=label)
    return True


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("directories", nargs="+", help="ensemble run directories")
    parser.add_argument("--out", help="where the PNGs go (default: the first directory)")
    args = parser.parse_args(argv)
    try:
        ensembles = [(d,) + load_ensemble(d) for d in args.directories]
    except (OSError, ValueError, KeyError, yaml.YAMLError) as error:
        print(f"plot_ensemble.py: error: {error}", file=sys.stderr)
        return 2
    ensembles.sort(key=lambda e: (e[1] is None, e[1] or 0))
    out = args.out or args.directories[0]
    os.makedirs(out, exist_ok=True)
    figures = (("binder.png", "binder", False, "Binder ratio g"),
               ("xi_over_l.png", "xi", True, "ξ_L / L"))
    for name, key, per_length, ylabel in figures:
        fig, ax = plt.subplots(figsize=(7, 4.5))
        drawn = False
        for directory, length, overlap in ensembles:
            label = f"L = {length}" if length else os.path.basename(os.path.normpath(directory))
            scale = float(length) if per_length and length else 1.0
            drawn |= curve(ax, overlap, key, scale, label)
        if drawn:
            ax.set_xlabel("T = 1/β")
            ax.set_ylabel(ylabel)
            ax.set_title(f"{ylabel}: disorder averages, jackknife errors")
            ax.legend()
            fig.tight_layout()
            path = os.path.join(out, name)
            fig.savefig(path, dpi=100)
            print(path)
        plt.close(fig)
    return 0


if __name__ == "__main__":
    sys.exit(main())
