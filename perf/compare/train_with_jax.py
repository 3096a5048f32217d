#!/usr/bin/python3
# SPDX-License-Identifier: Apache-2.0
"""Peer benchmark: RBM training by persistent contrastive divergence in the Python/JAX hamon.

What is compared: the task `hamon train` trains, run with the Python hamon's
own PCD machinery (PyPI `hamon`, `hamon.models.ising`: `IsingEBM`, `IsingTrainingSpec`,
`estimate_kl_grad(..., return_negative_state=True)`), so its per-epoch wall time and the
held-out accuracy can be put next to the C++ numbers:

- data: shared/data/mnist/digits_{0,3,4}.npy (bool, True = ink = +1); within each digit
  the first 80 % of rows (rounded down) train, the rest are held out;
  `--train-fraction-of-rows f` keeps the first f of each digit's training rows;
- visible: 787 = 784 pixels then 3 label units one-hot in the order (0, 3, 4), +1 for
  the label, -1 for the others; spins +-1 on both layers;
- model: RBM 787 x H, E = -(b.v + c.h + v^T W h) — in the library an `IsingEBM` over
  787 + H `SpinNode`s with the 787 H visible-hidden edges (beta = 1): its `biases` are
  (b, c) and its `weights` are W flattened row-major, the same parameterisation;
- training: minibatches of --batch rows (shuffled every epoch, the short last one
  dropped), --chains persistent negative chains advanced --sweeps block-Gibbs sweeps
  (visible, then hidden) per update, positive phase one heat-bath sample of the hidden
  layer per row, SGD (or --optimiser adam / --momentum) with --lr;
- record: per-epoch wall time (epoch 1 includes tracing and XLA compilation), updates/s,
  held-out accuracy by the label of the lowest free energy
  F(v) = -b.v - sum_h log(2 cosh(c_h + sum_v W_vh v_v)), computed here in numpy.

The outer script runs with the system python3 and makes/reuses the venv with the helpers
of compare_with_jax.py (newest pyenv Python >= 3.12, newest `hamon` that installs, CPU
`jax`); the training runs in perf/compare/jax_train_driver.py inside the venv.

    python3 perf/compare/train_with_jax.py --hidden 500 --epochs 2 \
        --out perf/results/training/$(date -u +%F)-python-peer.md
"""

import argparse
import datetime
import json
import os
import platform
import shlex
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import compare_with_jax as cw  # noqa: E402  (re-execs with /usr/bin/python3 if numpy/yaml lack)
import numpy as np  # noqa: E402

ROOT = cw.ROOT
DIGITS = (0, 3, 4)


def log2cosh(x):
    return np.logaddexp(x, -x)


def free_energy(v, W, b, c):
    """F(v) = -b.v - sum_h log(2 cosh(c_h + (v W)_h)) for +-1 v (rows) and +-1 hidden units."""
    return -(v @ b) - log2cosh(c + v @ W).sum(axis=1)


def classify(x_bool, W, b, c):
    """Label index (0..2) of the lowest free energy, pixels clamped, each label one-hot."""
    pix = 2.0 * x_bool.astype(np.float64) - 1.0
    F = np.empty((len(pix), len(DIGITS)))
    for li in range(len(DIGITS)):
        lab = -np.ones((len(pix), len(DIGITS)))
        lab[:, li] = 1.0
        F[:, li] = free_energy(np.concatenate([pix, lab], axis=1), W, b, c)
    return F.argmin(axis=1)


def lscpu_model():
    try:
        out = subprocess.run(["lscpu"], capture_output=True, text=True).stdout
        for line in out.splitlines():
            if line.startswith("Model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return cw.cpu_model()


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--hidden", type=int, default=500, help="hidden units H (default 500)")
    ap.add_argument("--batch", type=int, default=100, help="rows per minibatch (default 100)")
    ap.add_argument("--chains", type=int, default=100, help="persistent negative chains")
    ap.add_argument("--sweeps", type=int, default=1, help="block-Gibbs sweeps per update (k)")
    ap.add_argument("--epochs", type=int, default=2)
    ap.add_argument("--lr", type=float, default=0.01, help="learning rate (default 0.01)")
    ap.add_argument("--optimiser", choices=["sgd", "adam"], default="sgd",
                    help="hand-written in the driver (the library has no optimiser; its "
                         "MNIST test uses optax.adam); default sgd")
    ap.add_argument("--momentum", type=float, default=0.0, help="sgd momentum (default 0)")
    ap.add_argument("--train-fraction-of-rows", type=float, default=1.0,
                    help="keep the first fraction of each digit's training rows (timing subset)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--data-dir", default=next(
        (d for d in (os.path.join(ROOT, "shared", "data", "mnist"),
                     os.path.join(ROOT, "..", "shared", "data", "mnist")) if os.path.isdir(d)),
        os.path.join(ROOT, "shared", "data", "mnist")),
        help="folder of digits_{0,3,4}.npy (default shared/data/mnist here or one level up)")
    ap.add_argument("--out", default=None, help="write a markdown record here")
    cw.add_venv_args(ap)
    a = ap.parse_args()
    a.data_dir = os.path.abspath(a.data_dir)
    if not 0.0 < a.train_fraction_of_rows <= 1.0:
        raise SystemExit("error: --train-fraction-of-rows must be in (0, 1]")
    cw.resolve_venv(a)

    date = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    load_before = cw.loadavg()
    versions, install_cmds = cw.ensure_venv(a.venv, a.base_python, a.hamon_spec, a.reinstall)

    workdir = os.path.join(ROOT, "build", "compare-runs")
    os.makedirs(workdir, exist_ok=True)
    out_json = os.path.join(workdir, f"train_jax_H{a.hidden}_k{a.sweeps}_{a.optimiser}.json")
    cmd = [cw.venv_python(a.venv), os.path.join(HERE, "jax_train_driver.py"),
           "--data-dir", a.data_dir, "--hidden", str(a.hidden), "--batch", str(a.batch),
           "--chains", str(a.chains), "--sweeps", str(a.sweeps), "--epochs", str(a.epochs),
           "--lr", repr(a.lr), "--optimiser", a.optimiser, "--momentum", repr(a.momentum),
           "--train-fraction-of-rows", repr(a.train_fraction_of_rows),
           "--seed", str(a.seed), "--out", out_json]
    env = dict(os.environ)
    env.setdefault("JAX_PLATFORMS", "cpu")
    cw.log("driver: " + " ".join(shlex.quote(x) for x in cmd))
    t0 = time.time()
    r = subprocess.run(cmd, env=env)
    wall = time.time() - t0
    if r.returncode != 0:
        raise SystemExit(f"error: the JAX training driver failed ({r.returncode})")
    load_after = cw.loadavg()
    with open(out_json) as f:
        res = json.load(f)
    p = np.load(out_json.rsplit(".", 1)[0] + "_params.npz")
    W, b, c = p["W"], p["b"], p["c"]
    pred = classify(p["held_x"], W, b, c)
    held_y = p["held_y"]
    acc = float((pred == held_y).mean())
    per_digit = [float((pred[held_y == i] == i).mean()) for i in range(len(DIGITS))]
    pred_tr = classify(p["train_x"], W, b, c)
    acc_tr = float((pred_tr == p["train_y"]).mean())

    ep = res["epoch_s"]
    nb = res["n_batches"]
    steady = ep[1:]
    steady_s = float(np.median(steady)) if steady else None
    spins = a.chains * (res["n_visible"] + a.hidden) * a.sweeps  # negative-phase spin updates / update
    cw.log(f"epochs (s): {', '.join(f'{x:.3f}' for x in ep)}  CPU s: "
           f"{', '.join(f'{x:.3f}' for x in res['epoch_cpu_s'])}  ({nb} updates each; "
           f"first call incl. compile {res['first_call_s']:.3f} s)")
    if steady_s:
        cw.log(f"steady state: {steady_s:.3f} s/epoch = {nb / steady_s:.1f} updates/s")
    cw.log(f"held-out accuracy (lowest free energy): {acc:.4f}  per digit "
           + ", ".join(f"{d}: {x:.3f}" for d, x in zip(DIGITS, per_digit))
           + f"; training rows {acc_tr:.4f}")

    if not a.out:
        return 0
    pyver = cw.python_version(cw.venv_python(a.venv))
    argv = " ".join(shlex.quote(x) for x in sys.argv[1:])
    relp = lambda x: cw.rel(x) if x.startswith(ROOT) else x  # noqa: E731
    md = []
    md.append("# Python/JAX hamon peer: RBM training by PCD\n")
    md.append(f"- date: {date}; load average before {' '.join(load_before)}, after "
              f"{' '.join(load_after)} (shared machine: timings "
              "move with other load)")
    md.append(f"- machine: `lscpu` Model name: {lscpu_model()}; {os.cpu_count()} cores; "
              f"{platform.system()} {platform.release()}")
    md.append(f"- Python hamon {versions[0]} (PyPI), jax {versions[1]}, jaxlib {versions[2]}, "
              f"equinox {res['equinox_version']}, Python {pyver} in `{relp(a.venv)}`; JAX devices "
              f"{res['jax_devices']}")
    if install_cmds:
        md.append("- venv set-up this run: " + "; ".join(
            "`" + " ".join(shlex.quote(relp(x)) for x in c_) + "`" for c_ in install_cmds))
    md.append(f"- command: `python3 perf/compare/train_with_jax.py{(' ' + argv) if argv else ''}` "
              f"(driver wall {wall:.1f} s); driver: `{' '.join(shlex.quote(relp(x)) for x in cmd)}`")
    md.append("")
    md.append("## The task\n")
    md.append(f"- data: MNIST digits 0, 3, 4 (`digits_{{0,3,4}}.npy`), first 80 % of each digit "
              f"train, last 20 % held out; training fraction of rows {a.train_fraction_of_rows:g} "
              f"-> {res['n_train_rows']} training rows, {res['n_held_rows']} held-out rows")
    md.append(f"- RBM {res['n_visible']} visible (784 pixels + 3 one-hot label units, ±1) × "
              f"{a.hidden} hidden (±1), {res['n_edges']} couplings, E = −(b·v + c·h + vᵀWh)")
    md.append(f"- PCD: batch {a.batch} ({nb} updates per epoch, the short last batch dropped, "
              f"rows shuffled each epoch), {a.chains} persistent negative chains (uniform random "
              f"start), k = {a.sweeps} block-Gibbs sweep(s) per update (visible then hidden), "
              f"positive phase one heat-bath sample of h per row, {a.optimiser} lr {a.lr:g}"
              + (f" momentum {a.momentum:g}" if a.optimiser == "sgd" and a.momentum else "")
              + "; W ~ N(0, 0.01²), b = atanh(mean v) (clipped ±0.998), c = 0")
    md.append("- library calls per update (inside one `eqx.filter_jit`): "
              "`IsingTrainingSpec(ebm, [visible], [], [hidden], [visible, hidden], "
              f"SamplingSchedule(1, 1, 1), SamplingSchedule({a.sweeps}, 1, 1))`, "
              "`hinton_init(key, ebm, [hidden], (1, B))`, "
              "`estimate_kl_grad(key, spec, ebm.nodes, ebm.edges, [batch], [], init_pos, "
              "neg_state, return_negative_state=True)` -> (grad_w, grad_b, ..., neg_state); "
              "params −= lr · grad")
    md.append("")
    md.append("## Results\n")
    md.append("| epoch | wall s | updates/s (wall) | CPU s (all threads) | load avg (1 min) | note |")
    md.append("|---|---|---|---|---|---|")
    for i, x in enumerate(ep):
        md.append(f"| {i + 1} | {x:.3f} | {nb / x:.2f} | {res['epoch_cpu_s'][i]:.3f} | "
                  f"{res['epoch_load1'][i]:.2f} | "
                  + ("includes tracing + XLA compilation" if i == 0 else "steady state") + " |")
    md.append("")
    md.append(f"- first update (trace + compile + 1 update): {res['first_call_s']:.3f} s; "
              f"model build (nodes/edges lists) {res['build_s']:.2f} s")
    if steady_s:
        md.append(f"- steady state: **{steady_s:.3f} s per epoch** (median of epochs 2..), "
                  f"{nb / steady_s:.2f} updates/s, {steady_s / nb * 1e3:.1f} ms per update "
                  f"(CPU {float(np.median(res['epoch_cpu_s'][1:])):.3f} s per epoch); "
                  f"negative phase {spins:.4g} spin updates per update")
    md.append(f"- held-out accuracy (label of lowest free energy, numpy from the trained "
              f"parameters): **{acc:.4f}** (digit 0: {per_digit[0]:.3f}, 3: {per_digit[1]:.3f}, "
              f"4: {per_digit[2]:.3f}); on the training rows {acc_tr:.4f}")
    md.append("")
    md.append("Free energy: the library's parameters are used as is — `biases[:787]` = b, "
              "`biases[787:]` = c, `weights.reshape(787, H)` = W (edge v·H + h couples visible v "
              "and hidden h); both layers are ±1 spins (bool True = +1), so "
              "F(v) = −b·v − Σ_h log(2 cosh(c_h + Σ_v W_vh v_v)) with no {0,1} conversion.")
    os.makedirs(os.path.dirname(os.path.abspath(a.out)), exist_ok=True)
    with open(a.out, "w") as f:
        f.write("\n".join(md) + "\n")
    cw.log(f"wrote {a.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
