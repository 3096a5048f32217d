#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""tools/plot_run.py on a small run: it writes the documented PNGs into the run directory,
each non-trivial (more than a few KB, a real image of sensible size that matplotlib reads
back and that is not one flat colour); energies.png's axes name the swap energy on the
annealing path, with no band of the summary's E around it."""

import os
import subprocess
import sys

import numpy as np

import clitest

PNGS = ["ladder.png", "acceptance.png", "index_process.png", "energies.png", "magnetization.png"]


def check_energy_axes(plot_run, work, failures):
    """energies.png names what energies.npy holds: E / N with the summary's band around the
    cold chain's running mean, or on the annealing path (model.annealed) the swap energy
    (E - E_ref) / N, with no band of the summary's E / N drawn around it."""
    energies = np.array([[-1.0, -2.0], [-1.5, -2.5], [-0.5, -2.0], [-1.0, -3.0]])
    for annealed in (False, True):
        summary = {"model": {"n_nodes": 2, "annealed": annealed},
                   "observables": {"energy_per_node": {"mean": 5.0, "stderr": 0.1}}}
        figures = []
        saved = plot_run.save
        plot_run.save = lambda fig, directory, name, written: figures.append(fig)
        try:
            plot_run.plot_energies(summary, {"energies": energies}, work, [])
        finally:
            plot_run.save = saved
        traces, mean = figures[0].axes[:2]
        band = len(mean.patches) > 0
        label = traces.get_ylabel()
        if annealed:
            failures.check(label == "(E - E_ref) / N" and not band,
                           f"annealed energies.png: y label {label!r}, band drawn {band}")
        else:
            failures.check(label == "E / N" and band,
                           f"energies.png: y label {label!r}, band drawn {band}")
        plot_run.plt.close(figures[0])


def main():
    args = clitest.arguments(__doc__)
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.image as mpimg

    failures = clitest.Failures()
    out = os.path.join(args.work, "run")
    result = clitest.run(args.hamon, ["run", os.path.join(clitest.EXAMPLES_DIR, "ising2d.yaml"),
                                      "--out", out, "--rounds", "400", "--burn-in", "100", "--quiet"])
    if not failures.check(result.returncode == 0, f"hamon run failed: {result.stderr}"):
        failures.finish("plot_run")
    script = os.path.join(clitest.SOURCE_DIR, "tools", "plot_run.py")
    plot = subprocess.run([sys.executable, script, out], stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, text=True, timeout=120,
                          env=clitest.clean_env(MPLCONFIGDIR=os.path.join(args.work, "mpl")))
    failures.check(plot.returncode == 0, f"plot_run.py exited {plot.returncode}: {plot.stderr}")
    for name in PNGS:
        path = os.path.join(out, name)
        if not failures.check(os.path.isfile(path), f"{name} not written"):
            continue
        size = os.path.getsize(path)
        failures.check(size > 8 * 1024, f"{name} is only {size} bytes")
        image = mpimg.imread(path)
        failures.check(image.ndim == 3 and image.shape[0] >= 300 and image.shape[1] >= 400,
                       f"{name} has shape {image.shape}")
        failures.check(float(np.std(image[..., :3])) > 0.01, f"{name} is one flat colour")
        failures.check(path in plot.stdout, f"plot_run.py did not list {name}")
    # A run with replicas adds its own Binder ratio and xi_L / L against temperature.
    replicas = os.path.join(args.work, "replicas.yaml")
    with open(os.path.join(clitest.EXAMPLES_DIR, "ising2d.yaml")) as f:
        text = f.read()
    with open(replicas, "w") as f:
        f.write("replicas: 2\n" + text)
    result = clitest.run(args.hamon, ["run", replicas, "--out", out, "--rounds", "400",
                                      "--burn-in", "100", "--quiet", "--overwrite"])
    failures.check(result.returncode == 0, f"hamon run with replicas: {result.stderr}")
    plot = subprocess.run([sys.executable, script, out], stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, text=True, timeout=120,
                          env=clitest.clean_env(MPLCONFIGDIR=os.path.join(args.work, "mpl")))
    failures.check(plot.returncode == 0, f"plot_run.py with replicas: {plot.stderr}")
    for name in ("binder.png", "xi_over_l.png"):
        path = os.path.join(out, name)
        failures.check(os.path.isfile(path) and path in plot.stdout,
                       f"a run with replicas: {name} not written and listed: {plot.stdout}")
    # The plots are hamon's files too: --overwrite replaces a plotted run (the CLI keeps its
    # own list of the names plot_run.py writes, and refuses any name it does not know).
    again = clitest.run(args.hamon, ["run", os.path.join(clitest.EXAMPLES_DIR, "ising2d.yaml"),
                                     "--out", out, "--rounds", "400", "--burn-in", "100",
                                     "--quiet", "--overwrite"])
    failures.check(again.returncode == 0, f"--overwrite over a plotted run: {again.stderr!r}")
    # The round trips the index plot marks, on a scripted index process (2 machines, 3
    # temperatures): machine 0 goes 0 -> 2 -> 0 (one trip, at round 4) and up again;
    # machine 1 starts at the top, so its first arrival at 0 (round 2) is a trip too.
    sys.path.insert(0, os.path.join(clitest.SOURCE_DIR, "tools"))
    import plot_run
    scripted = np.array([[0, 2], [1, 1], [2, 0], [1, 1], [0, 2], [1, 1], [2, 0]])
    ends = plot_run.round_trip_ends(scripted)
    failures.check(ends == [(2, 1), (4, 0), (6, 1)], f"round_trip_ends: {ends}")
    window = plot_run.index_window(20000, 16, 600)
    failures.check(1000 <= window <= 2000, f"index_window(20000, 16, 600) = {window}")
    # The title counts the paths it draws, and the window is per machine, not one machine's.
    for paths, words in ((2, "2 machines' paths"), (1, "1 machine's path")):
        title = plot_run.index_title(window, 20000, 600, paths)
        failures.check(words in title and "per machine" in title and "one machine" not in title,
                       f"index_title with {paths} paths: {title!r}")
    title = plot_run.index_title(20000, 20000, 600, 2)
    failures.check("all 20000 rounds" in title, f"index_title over the whole run: {title!r}")
    check_energy_axes(plot_run, args.work, failures)
    # Not a run directory: a clear error, exit 2.
    bad = subprocess.run([sys.executable, script, args.work], stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, text=True, timeout=60)
    failures.check(bad.returncode == 2 and "summary.yaml" in bad.stderr,
                   f"plot_run.py on a non-run directory: {bad.returncode} {bad.stderr!r}")
    failures.finish("plot_run")


if __name__ == "__main__":
    main()
