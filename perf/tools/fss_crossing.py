#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Where the xi_L / L curves of spin-glass ensembles of several sizes cross, with errors:
the finite-size-scaling estimate of T_c (Ballesteros et al., PRB 62, 14237, 2000;
Katzgraber, Koerner and Young, PRB 73, 224432, 2006).

    python3 perf/tools/fss_crossing.py runs/ea3d_L4 runs/ea3d_L6 runs/ea3d_L8 \
        --md perf/results/fss/DATE-ea3d.md --figure perf/results/fss/DATE-ea3d.png

Each directory is an ensemble (`instances: K`, `replicas` >= 2, a fixed ladder, a cubic
lattice) as `hamon run` writes it. From its per-instance tables overlap_chi_sg.npy and
overlap_chi_kmin.npy (instances x temperatures) the tool forms xi_L / L of the disorder
averages [chi(0)] and [chi(k_min)] (the estimator of `ensemble.overlap.xi`), and for each
pair of consecutive sizes the temperature where the two curves cross, by linear
interpolation in T between ladder points of the difference of the curves (each curve
interpolated linearly onto the union of both ladders). The error is the bootstrap over
disorder: instances resampled with replacement, independently per size (they are
independent draws), the crossing found again; the record gives the standard deviation of
the resamples and their 16-84 % interval. A resample without a crossing in the ladder's
range is counted and left out (the record says how many).
"""

import argparse
import datetime
import os
import platform
import sys

import numpy as np
import yaml

RESAMPLES = 1000


def load(directory):
    """(L, T ascending, chi_0 table, chi_k table, instances, seconds) of an ensemble."""
    with open(os.path.join(directory, "summary.yaml")) as f:
        summary = yaml.safe_load(f)
    ensemble = summary.get("ensemble") or {}
    overlap = ensemble.get("overlap")
    if not overlap:
        raise ValueError(f"{directory}: no ensemble.overlap (an ensemble with replicas >= 2)")
    betas = np.asarray(overlap["betas"], dtype=float)
    chi_0 = np.load(os.path.join(directory, "overlap_chi_sg.npy"))
    chi_k = np.load(os.path.join(directory, "overlap_chi_kmin.npy"))
    length = int(summary["config"]["model"]["shape"][0])
    seconds = 0.0
    for k in range(chi_0.shape[0]):
        path = os.path.join(directory, "instances", str(k), "summary.yaml")
        with open(path) as f:
            seconds += float((yaml.safe_load(f).get("timing") or {}).get("sampling_s", 0.0))
    keep = betas > 0
    order = np.argsort(1.0 / betas[keep])
    temperatures = (1.0 / betas[keep])[order]
    return (length, temperatures, chi_0[:, keep][:, order], chi_k[:, keep][:, order],
            chi_0.shape[0], seconds)


def xi_over_l(chi_0, chi_k, length):
    """xi_L / L of the disorder averages (NaN where chi(0) <= chi(k_min))."""
    c0 = chi_0.mean(axis=0)
    ck = chi_k.mean(axis=0)
    ratio = np.where(ck > 0, c0 / np.where(ck > 0, ck, 1.0), np.nan)
    xi = np.sqrt(np.where(ratio > 1, ratio - 1, np.nan)) / (2 * np.sin(np.pi / length))
    return xi / length


def crossing(t_a, y_a, t_b, y_b):
    """The lowest T where curve b - curve a changes sign, or None. Curves are linear in T
    between their points; only the overlap of both ranges is searched."""
    lo, hi = max(t_a[0], t_b[0]), min(t_a[-1], t_b[-1])
    grid = np.unique(np.concatenate([t_a, t_b]))
    grid = grid[(grid >= lo) & (grid <= hi)]
    if grid.size < 2:
        return None
    d = np.interp(grid, t_b, y_b) - np.interp(grid, t_a, y_a)
    for i in range(grid.size - 1):
        if np.isnan(d[i]) or np.isnan(d[i + 1]):
            continue
        if d[i] == 0:
            return float(grid[i])
        if d[i] * d[i + 1] < 0:
            return float(grid[i] + (grid[i + 1] - grid[i]) * d[i] / (d[i] - d[i + 1]))
    return None


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("directories", nargs="+", help="ensembles, one per size")
    parser.add_argument("--md", help="write the record (Markdown) here")
    parser.add_argument("--figure", help="write xi_L / L against T here (PNG)")
    parser.add_argument("--command", default="", help="the command that made the ensembles")
    args = parser.parse_args(argv)
    sizes = sorted((load(d) + (d,) for d in args.directories), key=lambda s: s[0])
    rng = np.random.default_rng(2006)
    lines = []
    crossings = []
    for a, b in zip(sizes, sizes[1:]):
        (la, ta, c0a, cka, ka, _, _), (lb, tb, c0b, ckb, kb, _, _) = a[:7], b[:7]
        best = crossing(ta, xi_over_l(c0a, cka, la), tb, xi_over_l(c0b, ckb, lb))
        found, missing = [], 0
        for _ in range(RESAMPLES):
            ia = rng.integers(0, ka, ka)
            ib = rng.integers(0, kb, kb)
            t = crossing(ta, xi_over_l(c0a[ia], cka[ia], la), tb, xi_over_l(c0b[ib], ckb[ib], lb))
            if t is None:
                missing += 1
            else:
                found.append(t)
        found = np.asarray(found)
        spread = float(found.std(ddof=1)) if found.size > 1 else float("nan")
        low, high = (np.percentile(found, [16, 84]) if found.size else (np.nan, np.nan))
        crossings.append((la, lb, best, spread))
        lines.append(f"| {la}, {lb} | {'none' if best is None else f'{best:.3f}'} | "
                     f"{spread:.3f} | {low:.3f} – {high:.3f} | {missing} of {RESAMPLES} |")
    if args.figure:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        fig, ax = plt.subplots(figsize=(7, 4.5))
        for length, t, c0, ck, k, _, _ in sizes:
            y = xi_over_l(c0, ck, length)
            boot = np.array([xi_over_l(c0[i], ck[i], length) for i in
                             (rng.integers(0, k, k) for _ in range(200))])
            ax.errorbar(t, y, yerr=np.nanstd(boot, axis=0, ddof=1), marker="o", markersize=3,
                        capsize=2, label=f"L = {length} ({k} instances)")
        ax.axvline(1.12, color="grey", linestyle=":", label="T_c = 1.12 (KKY 2006)")
        ax.set_xlabel("T")
        ax.set_ylabel("ξ_L / L")
        ax.set_title("3D ±J Edwards–Anderson: ξ_L / L, disorder averages, bootstrap errors")
        ax.legend()
        fig.tight_layout()
        fig.savefig(args.figure, dpi=100)
    table = ["| sizes | crossing T | bootstrap σ | 16–84 % | resamples without a crossing |",
             "|---|---|---|---|---|"] + lines
    runs = ["| L | instances | temperatures (T range) | sampling seconds (sum of the instances' sampling_s) |",
            "|---|---|---|---|"]
    for length, t, _, _, k, seconds, _ in sizes:
        runs.append(f"| {length} | {k} | {t.size} ({t[0]:.3f} – {t[-1]:.3f}) | {seconds:.1f} |")
    text = "\n".join(table) + "\n\n" + "\n".join(runs) + "\n"
    print(text, end="")
    if args.md:
        cpu = "unknown"
        try:
            with open("/proc/cpuinfo") as f:
                cpu = next(l.split(":", 1)[1].strip() for l in f if l.startswith("model name"))
        except (OSError, StopIteration):
            pass
        with open(args.md, "w") as f:
            f.write(f"# ξ_L / L crossings, {datetime.date.today().isoformat()}\n\n")
            f.write(f"Machine: {cpu}, {os.cpu_count()} cores, {platform.platform()}.\n\n")
            if args.command:
                f.write(f"Command:\n\n```sh\n{args.command}\n```\n\n")
            f.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
