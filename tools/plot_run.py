#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Plots of a hamon run directory (what `hamon run` or `hamon train` writes), as PNGs in it.

    python3 tools/plot_run.py runs/ising2d
    python3 tools/plot_run.py runs/mnist_rbm

A training run (`hamon train`: summary.yaml has `training`) gets:
  learning_curves.png  per monitored epoch (curves.csv): held-out accuracy, reconstruction
                       error, mean free energy, and the held-out log-likelihood with its
                       error bar (log Z by stepping stone) where it was measured
  samples.png          the visible units of cold negative chains (samples.npy) as square
                       images (the units beyond the largest square, e.g. labels, dropped)

A sampling run (`hamon run`) gets:
  ladder.png         the final beta ladder (and the initial one, when adaptation moved it)
                     above the local communication barrier lambda(beta) = r_i / dbeta_i
  acceptance.png     swap acceptance of every neighbouring pair (i, i+1)
  index_process.png  the temperature index of machines (index_process.npy) over the first
                     rounds that span about three round trips per machine (on average): two
                     machines' paths, round trips marked, above a heat map machine x round ->
                     index of all of them (a red-blue-red cycle along a row is one round
                     trip); the title says how many paths are drawn. Without
                     index_process.npy, the per-temperature energies are shown instead (and
                     the title says so).
  energies.png       energy traces of every temperature, coldest highlighted, and the
                     cold chain's running mean
  magnetization.png  |m| per node of the cold chain from samples.npy (when it holds samples
                     of every node); for a Potts model (summary model.n_states) the Potts
                     order parameter (q max_s rho_s - 1) / (q - 1) of the state densities
                     rho_s instead, as order_parameter.png

Several directories, or an ensemble (`instances: K`), get the finite-size-scaling plots of
tools/plot_ensemble.py instead: the Binder ratio and xi_L / L against temperature, one curve
per directory (into --out, default the first directory):

    python3 tools/plot_run.py runs/ea3d_L4 runs/ea3d_L6 runs/ea3d_L8 --out plots/

A single run with replicas (summary `overlap:`) gets those two plots of its own as well.

Needs python3 with numpy, PyYAML and matplotlib (Debian: python3-numpy python3-yaml
python3-matplotlib). Exit status: 0 done, 2 not a run directory.
"""

import argparse
import os
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
from matplotlib.lines import Line2D  # noqa: E402
import numpy as np  # noqa: E402
import yaml  # noqa: E402

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import plot_ensemble  # noqa: E402

MAX_POINTS = 4000  # per trace; longer runs are strided (every k-th round)
ROUND_TRIPS_SHOWN = 3  # the index process is drawn over a window of this many round trips
MACHINES_SHOWN = 2  # ... with this many machines' paths above the heat map of all of them


def load_run(directory):
    summary_path = os.path.join(directory, "summary.yaml")
    if not os.path.isfile(summary_path):
        raise FileNotFoundError(f"{directory}: no summary.yaml (not a hamon run directory)")
    with open(summary_path) as f:
        summary = yaml.safe_load(f)

    def array(name):
        path = os.path.join(directory, name)
        return np.load(path) if os.path.isfile(path) else None

    return summary, {
        "betas": array("betas.npy"),
        "energies": array("energies.npy"),
        "index_process": array("index_process.npy"),
        "samples": array("samples.npy"),
    }


def initial_ladder(config):
    """The ladder the config asked for, before adaptation (None if it cannot be told)."""
    nrpt = config.get("nrpt", {})
    if "auto" in (nrpt.get("chains"), nrpt.get("betas")):
        return None  # tuned: the run started on the tuned ladder (summary tuning.plan)
    if nrpt.get("betas"):
        return np.asarray(nrpt["betas"], dtype=float)
    n = int(nrpt.get("chains", 0))
    lo, hi = float(nrpt.get("beta_min", 0.0)), float(nrpt.get("beta_max", 1.0))
    if n < 1:
        return None
    if n == 1:
        return np.array([hi])
    if nrpt.get("spacing") == "geometric" and lo > 0:
        return np.geomspace(lo, hi, n)
    return np.linspace(lo, hi, n)


def stride_of(n_rounds):
    return max(1, int(np.ceil(n_rounds / MAX_POINTS)))


def save(fig, directory, name, written):
    path = os.path.join(directory, name)
    fig.savefig(path, dpi=110)
    plt.close(fig)
    written.append(path)


def plot_ladder(summary, directory, written):
    nrpt = summary["nrpt"]
    betas = np.asarray(nrpt["betas"], dtype=float)
    acceptance = np.asarray(nrpt["acceptance"], dtype=float)
    fig, (top, bottom) = plt.subplots(2, 1, figsize=(7, 6), sharex=True,
                                      gridspec_kw={"height_ratios": [1, 2]})
    start = initial_ladder(summary.get("config", {}))
    if start is not None and len(start) == len(betas) and not np.allclose(start, betas):
        top.plot(start, np.full(len(start), 1.0), "o", mfc="none", color="0.5",
                 label="initial ladder")
    top.plot(betas, np.zeros(len(betas)), "o", color="C0", label="final ladder")
    top.set_yticks([])
    top.set_ylim(-0.7, 1.7)
    top.legend(loc="upper left", fontsize=8, ncol=2)
    top.set_title(f"{len(betas)} chains, Lambda = {nrpt['Lambda']:.3f}, "
                  f"round trips {nrpt['round_trips']} (efficiency {nrpt['efficiency']:.2f})")
    if len(betas) > 1:
        rejection = 1.0 - acceptance
        widths = np.maximum(np.diff(betas), 1e-10)
        local = rejection / widths
        # lambda is constant on each interval (beta_i, beta_i+1): a step profile.
        edges = np.repeat(betas, 2)[1:-1]
        bottom.plot(edges, np.repeat(local, 2), color="C1")
        bottom.fill_between(edges, np.repeat(local, 2), alpha=0.2, color="C1")
        bottom.plot((betas[:-1] + betas[1:]) / 2, local, ".", color="C1")
    bottom.set_xlabel("beta")
    bottom.set_ylabel("lambda(beta) = r_i / (beta_i+1 - beta_i)")
    bottom.grid(alpha=0.3)
    fig.tight_layout()
    save(fig, directory, "ladder.png", written)


def plot_acceptance(summary, directory, written):
    acceptance = np.asarray(summary["nrpt"]["acceptance"], dtype=float)
    fig, ax = plt.subplots(figsize=(7, 4))
    if len(acceptance) > 0:
        pairs = np.arange(len(acceptance))
        ax.bar(pairs, acceptance, color="C0")
        ax.axhline(acceptance.mean(), color="C3", ls="--",
                   label=f"mean {acceptance.mean():.3f}")
        ax.set_xticks(pairs)
        ax.set_xticklabels([f"{i},{i + 1}" for i in pairs], rotation=90, fontsize=7)
        ax.legend()
    else:
        ax.text(0.5, 0.5, "one chain: no swaps", ha="center", transform=ax.transAxes)
    ax.set_ylim(0, 1)
    ax.set_xlabel("pair (i, i+1), hot to cold")
    ax.set_ylabel("swap acceptance")
    ax.set_title("Per-pair swap acceptance (measured rounds)")
    fig.tight_layout()
    save(fig, directory, "acceptance.png", written)


def round_trip_ends(index):
    """(round, machine) of every completed round trip in an index process (rounds x
    machines): reaching the top index marks a machine, arriving at 0 marked counts one."""
    top = index.max() if index.size else 0
    marked = np.zeros(index.shape[1], dtype=bool)
    ends = []
    for r, row in enumerate(index):
        marked |= row == top
        done = marked & (row == 0)
        ends.extend((r, m) for m in np.flatnonzero(done))
        marked &= ~done
    return ends


def index_window(n_rounds, n_machines, n_trips):
    """The first rounds of the run that span about ROUND_TRIPS_SHOWN round trips of an average
    machine (n_rounds x n_machines / n_trips rounds each), at least a few ladder crossings."""
    per_trip = n_rounds * n_machines / n_trips if n_trips > 0 else n_rounds
    return int(min(n_rounds, max(ROUND_TRIPS_SHOWN * per_trip, 4 * n_machines, 50)))


def index_title(window, n_rounds, total_trips, n_paths):
    """The index plot's title: the window is the time an average machine takes for about
    ROUND_TRIPS_SHOWN round trips (not one machine's), and n_paths machines are drawn."""
    paths = "1 machine's path" if n_paths == 1 else f"{n_paths} machines' paths"
    span = (f"rounds 0-{window} of {n_rounds}, about {ROUND_TRIPS_SHOWN} round trips per "
            f"machine" if window < n_rounds else f"all {n_rounds} rounds")
    return (f"Index process, {span}\n{paths} above, every machine below "
            f"({total_trips} round trips in the run)")


def conveyor_machines(first_row):
    """Up to MACHINES_SHOWN machines, spread over the ladder at the window's start (the
    hottest and the coldest for two), so their paths run in opposite phases."""
    wanted = np.linspace(0, len(first_row) - 1, min(MACHINES_SHOWN, len(first_row)))
    order = np.argsort(first_row)
    return sorted({int(order[int(round(w))]) for w in wanted}, key=lambda m: first_row[m])


def plot_index_process(summary, arrays, directory, written):
    index = arrays["index_process"]
    energies = arrays["energies"]
    if index is not None and index.size > 0:
        n_rounds, n_machines = index.shape
        ends = round_trip_ends(index)
        window = index_window(n_rounds, n_machines, len(ends))
        shown = index[:window]
        rounds = np.arange(window)
        total = summary.get("nrpt", {}).get("round_trips", len(ends))
        # Rows of the heat map: machines in the order of their index at the window's start.
        order = np.argsort(shown[0], kind="stable")
        fig, ((paths, spare), (heat, bar)) = plt.subplots(
            2, 2, figsize=(9, 7.5), gridspec_kw={"width_ratios": [40, 1]})
        spare.axis("off")
        paths.sharex(heat)
        paths.tick_params(labelbottom=False)
        for k, m in enumerate(conveyor_machines(shown[0])):
            colour = f"C{k}"
            paths.step(rounds, shown[:, m], where="post", lw=1.2, color=colour,
                       label=f"machine {m}")
            trips = [r for r, mm in ends if mm == m and r < window]
            if trips:  # (an empty marker line would sit at the figure's origin, see below)
                paths.plot(trips, np.zeros(len(trips)), "v", color=colour, ms=7, clip_on=False)
        paths.set_ylim(-0.6, n_machines - 0.4)
        paths.set_ylabel("temperature index\n(0 = hottest)")
        # The marker's legend entry is a handle of its own: an empty plotted line would sit
        # at the figure's origin and stretch tight_layout's bounding box.
        handles, _ = paths.get_legend_handles_labels()
        handles.append(Line2D([], [], ls="none", marker="v", color="0.3",
                              label="round trip completed"))
        paths.legend(handles=handles, fontsize=8, loc="lower center", bbox_to_anchor=(0.5, 1.0),
                     ncol=3, frameon=False)
        paths.grid(alpha=0.3)
        fig.suptitle(index_title(window, n_rounds, total, len(conveyor_machines(shown[0]))),
                     fontsize=10)
        image = heat.imshow(shown[:, order].T, aspect="auto", origin="lower", cmap="coolwarm_r",
                            interpolation="nearest", vmin=0, vmax=n_machines - 1,
                            extent=[-0.5, window - 0.5, -0.5, n_machines - 0.5])
        fig.colorbar(image, cax=bar, label="index (0 = hottest)")
        heat.set_yticks([])
        heat.set_ylabel(f"{n_machines} machines\n(by index at round 0)")
        heat.set_title("every machine: one red-blue-red cycle along a row is one round trip",
                       fontsize=9)
        heat.set_xlabel("measured round")
        fig.tight_layout()
    else:
        fig, ax = plt.subplots(figsize=(8, 4.5))
        if energies is not None and energies.size > 0:
            k = stride_of(energies.shape[0])
            image = ax.imshow(energies[::k].T, aspect="auto", origin="lower", cmap="viridis",
                              extent=[0, energies.shape[0], -0.5, energies.shape[1] - 0.5])
            fig.colorbar(image, ax=ax, label="energy")
            ax.set_ylabel("temperature index")
            ax.set_title("Index process not recorded (index_process.npy missing): "
                         "energies by temperature instead", fontsize=9)
        else:
            ax.text(0.5, 0.5, "neither index_process.npy nor energies.npy was recorded",
                    ha="center", transform=ax.transAxes)
        ax.set_xlabel("measured round")
        fig.tight_layout()
    save(fig, directory, "index_process.png", written)


def plot_energies(summary, arrays, directory, written):
    energies = arrays["energies"]
    n_nodes = summary["model"]["n_nodes"]
    # On the annealing path (every continuous model, an Ising model with reference:
    # independent) energies.npy holds the swap energy E - E_ref, while the summary's
    # energy_per_node is E / N: they are different quantities, so no band of the one is
    # drawn around the other.
    annealed = bool(summary["model"].get("annealed", False))
    name = "(E - E_ref) / N" if annealed else "E / N"
    fig, (traces, mean) = plt.subplots(2, 1, figsize=(8, 6.5), sharex=True)
    if energies is not None and energies.size > 0:
        n_rounds, n_chains = energies.shape
        k = stride_of(n_rounds)
        rounds = np.arange(0, n_rounds, k)
        colours = plt.cm.coolwarm_r(np.linspace(0, 1, n_chains))
        for c in range(n_chains - 1):
            traces.plot(rounds, energies[::k, c] / n_nodes, lw=0.5, color=colours[c])
        traces.plot(rounds, energies[::k, -1] / n_nodes, lw=0.8, color="k",
                    label="coldest (target)")
        traces.legend(fontsize=8, loc="upper right")
        cold = energies[:, -1] / n_nodes
        running = np.cumsum(cold) / np.arange(1, n_rounds + 1)
        mean.plot(rounds, running[::k], color="k", label="running mean (cold chain)")
        obs = summary.get("observables", {}).get("energy_per_node")
        band = []
        if obs and not annealed:
            band = [obs["mean"] - 2 * obs["stderr"], obs["mean"] + 2 * obs["stderr"]]
            mean.axhspan(*band, color="C2", alpha=0.3, label="summary mean +- 2 stderr")
        # The first rounds' running mean swings widely; scale the axis to the rest (the
        # last 95 %), so the approach to the summary's mean stays visible.
        settled = np.concatenate([running[n_rounds // 20:], band])
        lo, hi = float(settled.min()), float(settled.max())
        pad = max(0.15 * (hi - lo), 1e-3 * max(abs(lo), abs(hi), 1.0))
        mean.set_ylim(lo - pad, hi + pad)
        mean.legend(fontsize=8)
        what = "Swap energy E - E_ref" if annealed else "Energy"
        traces.set_title(f"{what} per node, {n_chains} temperatures (hot = red, cold = blue)")
        if annealed:
            mean.set_title("annealing path: the summary's energy_per_node is E / N, not shown",
                           fontsize=9)
    else:
        traces.text(0.5, 0.5, "energies.npy not recorded", ha="center",
                    transform=traces.transAxes)
    traces.set_ylabel(name)
    mean.set_ylabel(f"running mean of {name}")
    mean.set_xlabel("measured round")
    fig.tight_layout()
    save(fig, directory, "energies.png", written)


def plot_magnetization(summary, arrays, directory, written):
    samples = arrays["samples"]
    if samples is None or samples.size == 0:
        return
    if samples.shape[1] != summary["model"]["n_nodes"]:
        return  # a subset of nodes: |m| of the whole system is not known
    q = summary["model"].get("n_states")
    if q:  # Potts states (uint8): the order parameter of the state densities
        counts = np.stack([(samples == s).sum(axis=1) for s in range(q)], axis=1)
        rho_max = counts.max(axis=1) / samples.shape[1]
        m = (q * rho_max - 1.0) / (q - 1.0)
        label, title, name = ("Potts order parameter", "Cold chain Potts order parameter "
                              "(samples.npy)", "order_parameter.png")
    else:
        m = np.abs(samples.astype(np.float64).mean(axis=1))
        label, title, name = ("|m| per node", "Cold chain |magnetisation| (samples.npy)",
                              "magnetization.png")
    fig, (trace, hist) = plt.subplots(1, 2, figsize=(9, 3.8),
                                      gridspec_kw={"width_ratios": [3, 1]})
    k = stride_of(len(m))
    trace.plot(np.arange(0, len(m), k), m[::k], lw=0.6)
    trace.set_xlabel("sample")
    trace.set_ylabel(label)
    trace.set_title(title)
    hist.hist(m, bins=30, orientation="horizontal", color="C0")
    hist.set_xlabel("count")
    fig.tight_layout()
    save(fig, directory, name, written)


def plot_learning_curves(directory, written):
    path = os.path.join(directory, "curves.csv")
    if not os.path.isfile(path):
        return
    rows = np.genfromtxt(path, delimiter=",", names=True, dtype=float)
    rows = np.atleast_1d(rows)
    epoch = rows["epoch"]
    # A run without held-out rows measures (and names) the training rows: train_*.
    held_out = "heldout_accuracy" in rows.dtype.names
    p, rows_name = ("heldout_", "held-out") if held_out else ("train_", "training")
    fig, axes = plt.subplots(2, 2, figsize=(10, 7), sharex=True)
    panels = [
        (axes[0][0], p + "accuracy", f"{rows_name} accuracy (lowest free energy's label)"),
        (axes[0][1], "reconstruction_error", "mean-field reconstruction error"),
        (axes[1][0], p + "free_energy", f"mean {rows_name} free energy F(v)"),
    ]
    for ax, name, title in panels:
        ok = np.isfinite(rows[name])
        ax.plot(epoch[ok], rows[name][ok], "o-", ms=3)
        ax.set_title(title, fontsize=10)
    ax = axes[1][1]
    ok = np.isfinite(rows[p + "log_likelihood"])
    ax.errorbar(epoch[ok], rows[p + "log_likelihood"][ok],
                yerr=rows["log_likelihood_error"][ok], fmt="o-", ms=3, capsize=3)
    ax.set_title(f"{rows_name} log-likelihood per row (nats; log Z: NRPT stepping stone)",
                 fontsize=10)
    for ax in axes[1]:
        ax.set_xlabel("epoch")
    fig.tight_layout()
    save(fig, directory, "learning_curves.png", written)


def plot_training_samples(arrays, directory, written):
    samples = arrays["samples"]
    if samples is None or samples.ndim != 2 or samples.shape[0] == 0:
        return
    side = int(np.sqrt(samples.shape[1]))
    images = samples[:, : side * side].reshape(-1, side, side) > 0
    cols = int(np.ceil(np.sqrt(len(images))))
    rows = int(np.ceil(len(images) / cols))
    fig, axes = plt.subplots(rows, cols, figsize=(cols * 0.9, rows * 0.9))
    for k, ax in enumerate(np.atleast_1d(axes).ravel()):
        ax.axis("off")
        if k < len(images):
            ax.imshow(images[k], cmap="gray_r", interpolation="nearest")
    fig.suptitle("cold negative chains (visible units)", fontsize=9)
    save(fig, directory, "samples.png", written)


def is_ensemble(directory):
    """Whether `directory` holds an ensemble's summary (`ensemble:`)."""
    path = os.path.join(directory, "summary.yaml")
    try:
        with open(path) as f:
            return "ensemble" in (yaml.safe_load(f) or {})
    except (OSError, yaml.YAMLError):
        return False  # load_run reports it


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("directories", nargs="+", metavar="directory",
                        help="a run directory written by `hamon run` or `hamon train`; "
                             "several: ensembles or runs with replicas, compared")
    parser.add_argument("--out", help="where several directories' plots go (default: the first)")
    args = parser.parse_args(argv)
    if len(args.directories) > 1 or is_ensemble(args.directories[0]):
        return plot_ensemble.main(args.directories + (["--out", args.out] if args.out else []))
    args.directory = args.directories[0]
    try:
        summary, arrays = load_run(args.directory)
    except (OSError, ValueError, yaml.YAMLError) as error:
        print(f"plot_run.py: error: {error}", file=sys.stderr)
        return 2
    written = []
    if "training" in summary:
        plot_learning_curves(args.directory, written)
        plot_training_samples(arrays, args.directory, written)
        for path in written:
            print(path)
        return 0
    plot_ladder(summary, args.directory, written)
    plot_acceptance(summary, args.directory, written)
    plot_index_process(summary, arrays, args.directory, written)
    plot_energies(summary, arrays, args.directory, written)
    plot_magnetization(summary, arrays, args.directory, written)
    for path in written:
        print(path)
    if "overlap" in summary:
        return plot_ensemble.main([args.directory])
    return 0


if __name__ == "__main__":
    sys.exit(main())
