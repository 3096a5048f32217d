#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""`hamon train` end to end, on examples/mnist_rbm.yaml shortened (64 hidden units, 150
rows per digit, 4 epochs, a short log Z) so it runs in seconds (a minute or two under
ASan):
  - the run directory: weights.npy (float64, V x H), visible_bias.npy, hidden_bias.npy,
    samples.npy (int8 +-1), curves.csv (one row per epoch), summary.yaml (training.*);
  - the held-out accuracy is far above chance (> 0.8 for 3 balanced classes, chance 1/3:
    the shortened run reaches about 0.9; a broken gradient, label code or free energy
    stays near 1/3), the log-likelihood is finite, negative, and the one curves.csv has;
  - the trained weights load into `hamon run` (model kind rbm, weights from the .npy files);
  - SIGTERM during training: exit 3, resumable; `hamon resume` (on the other host backend)
    finishes with every output bit-identical to an uninterrupted run (timings aside);
  - the same with one update per epoch (a batch of every training row), so the stop comes
    during the last update of an epoch: the resumed run's curves.csv still has that
    epoch's row;
  - heldout_fraction 0: the monitored numbers are the training rows', named train_* in
    curves.csv and summary.yaml, and no heldout_* number is reported;
  - progress (the epoch lines) goes to stderr only when it is a terminal, as for `hamon
    run`; the finished directory keeps checkpoint.bin but not checkpoint.bin.prev;
  - bad input (an unknown key, a missing or malformed data file, a bad ladder, a batch
    larger than the data): exit 2 with file:line:column (or the file) and the problem,
    and nothing created."""

import os
import re
import signal
import struct
import subprocess
import time

import numpy as np
import yaml

import clitest
from progress_display import run_on_pty

MNIST = os.path.join(clitest.EXAMPLES_DIR, "data", "mnist")


def shortened(path, epochs=4, extra="", heldout="0.2", batch=50):
    with open(os.path.join(clitest.EXAMPLES_DIR, "mnist_rbm.yaml")) as f:
        text = f.read()
    text = text.replace("data/mnist/", MNIST + "/")
    text = text.replace("heldout_fraction: 0.2",
                        f"heldout_fraction: {heldout}\n    rows_per_file: 150")
    text = text.replace("batch: 50", f"batch: {batch}")
    text = re.sub(r"hidden: \d+", "hidden: 64", text)
    text = re.sub(r"epochs: \d+", f"epochs: {epochs}", text)
    text = re.sub(r"log_likelihood_every: \d+", "log_likelihood_every: 2", text)
    text = re.sub(r"log_z: \{[^}]*\}", "log_z: {rungs: 16, rounds: 100, burn_in: 20}", text)
    with open(path, "w") as f:
        f.write(text + extra)
    return path


def timing_free(text):
    return "\n".join(line for line in text.splitlines()
                     if not re.match(r"^\s*seconds(_per_epoch)?:", line))


def curves_without_time(path):
    rows = open(path).read().splitlines()
    return [",".join(c for k, c in enumerate(r.split(",")) if k != 2) for r in rows]


def check_directory(failures, out, epochs):
    v, h = 787, 64
    w = np.load(os.path.join(out, "weights.npy"))
    failures.check(w.dtype == np.float64 and w.shape == (v, h), f"weights.npy: {w.dtype} {w.shape}")
    failures.check(np.load(os.path.join(out, "visible_bias.npy")).shape == (v,), "visible_bias")
    failures.check(np.load(os.path.join(out, "hidden_bias.npy")).shape == (h,), "hidden_bias")
    s = np.load(os.path.join(out, "samples.npy"))
    failures.check(s.dtype == np.int8 and s.shape == (64, v) and set(np.unique(s)) <= {-1, 1},
                   f"samples.npy: {s.dtype} {s.shape}")
    curves = open(os.path.join(out, "curves.csv")).read().splitlines()
    failures.check(len(curves) == epochs + 1 and curves[0].startswith("epoch,updates,seconds"),
                   f"curves.csv has {len(curves)} lines")
    summary = yaml.safe_load(open(os.path.join(out, "summary.yaml")))["training"]
    accuracy = summary.get("heldout_accuracy", 0)
    failures.check(accuracy > 0.8, f"held-out accuracy {accuracy}")
    ll = summary.get("heldout_log_likelihood", float("nan"))
    failures.check(np.isfinite(ll) and ll < 0, f"held-out log-likelihood {ll}")
    last = curves[-1].split(",")
    failures.check(abs(float(last[6]) - ll) < 1e-6 * abs(ll), "curves.csv's last log-likelihood")
    failures.check(summary["updates"] == epochs * (360 // 50), f"updates {summary['updates']}")
    return summary


def sample_trained(failures, hamon, work, out):
    exp = os.path.join(work, "sample_trained.yaml")
    with open(exp, "w") as f:
        f.write(f"""seed: 3
model:
  kind: rbm
  visible: 787
  hidden: 64
  weights: {{file: {out}/weights.npy}}
  visible_bias: {{file: {out}/visible_bias.npy}}
  hidden_bias: {{file: {out}/hidden_bias.npy}}
nrpt: {{chains: 2, beta_min: 0.9, beta_max: 1.0, rounds: 20}}
output: {{dir: {work}/sampled}}
""")
    r = clitest.run(hamon, ["run", exp, "--quiet"])
    failures.check(r.returncode == 0, f"hamon run of the trained model: {r.stderr}")


def train_and_stop(hamon, config, stopped, checkpoint):
    """`hamon train CONFIG --out STOPPED`, SIGTERM once STOPPED.partial/CHECKPOINT exists:
    (exit status, stderr)."""
    p = subprocess.Popen([hamon, "train", config, "--out", stopped, "--quiet"],
                         env=clitest.clean_env(), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         text=True)
    path = os.path.join(stopped + ".partial", checkpoint)
    deadline = time.time() + 300
    while not os.path.exists(path) and time.time() < deadline and p.poll() is None:
        time.sleep(0.01)
    p.send_signal(signal.SIGTERM)
    _, err = p.communicate(timeout=300)
    return p.returncode, err


def trained(failures, hamon, config, out, what):
    """Whether `hamon train CONFIG --out OUT --quiet` succeeded (a failure if not)."""
    r = clitest.run(hamon, ["train", config, "--out", out, "--quiet"], timeout=600)
    return failures.check(r.returncode == 0, f"{what}: {r.stderr}")


def stop_and_resume(failures, hamon, work):
    config = shortened(os.path.join(work, "long.yaml"), epochs=6)
    whole = os.path.join(work, "whole")
    if not trained(failures, hamon, config, whole, "uninterrupted run"):
        return
    stopped = os.path.join(work, "stopped")
    # The second checkpoint (the first is update 0's): the stop comes mid-training.
    code, err = train_and_stop(hamon, config, stopped, "checkpoint.bin.prev")
    failures.check(code == 3 and "hamon resume" in err, f"SIGTERM: {code} {err}")
    failures.check(os.path.isdir(stopped + ".partial") and not os.path.exists(stopped),
                   "a stopped run stays DIR.partial")
    r = clitest.run(hamon, ["resume", stopped, "--device", "serial"], timeout=600)
    if not failures.check(r.returncode == 0, f"resume: {r.stderr}"):
        return
    failures.check(r.stderr == "", f"resume, stderr not a terminal: wrote {r.stderr!r}")
    failures.check(not os.path.exists(os.path.join(stopped, "checkpoint.bin.prev")),
                   "the resumed training left checkpoint.bin.prev")
    for name in ("weights.npy", "visible_bias.npy", "hidden_bias.npy", "samples.npy"):
        a = open(os.path.join(whole, name), "rb").read()
        b = open(os.path.join(stopped, name), "rb").read()
        failures.check(a == b, f"{name} differs after SIGTERM + resume on serial")
    failures.check(curves_without_time(os.path.join(whole, "curves.csv")) ==
                   curves_without_time(os.path.join(stopped, "curves.csv")), "curves.csv differs")
    sa = timing_free(open(os.path.join(whole, "summary.yaml")).read())
    sb = timing_free(open(os.path.join(stopped, "summary.yaml")).read())
    failures.check(sa.split("execution_space:")[1].split("device:")[0].split("\n", 1)[1] ==
                   sb.split("execution_space:")[1].split("device:")[0].split("\n", 1)[1],
                   "summary.yaml's training results differ (timings and the space aside)")


def stop_at_an_epoch_end(failures, hamon, work):
    # 360 training rows in one batch: every update is the last of its epoch, so the stop
    # (whenever it comes after update 0's checkpoint) lands at an epoch's end.
    config = shortened(os.path.join(work, "one_update.yaml"), epochs=5, batch=360)
    whole = os.path.join(work, "one_update_whole")
    if not trained(failures, hamon, config, whole, "one update per epoch"):
        return
    stopped = os.path.join(work, "one_update_stopped")
    code, err = train_and_stop(hamon, config, stopped, "checkpoint.bin")
    stop = re.search(r"stopped after update (\d+)", err)
    if not failures.check(code == 3 and stop is not None,
                          f"SIGTERM with one update per epoch: {code} {err}"):
        return
    r = clitest.run(hamon, ["resume", stopped], timeout=600)
    if not failures.check(r.returncode == 0, f"resume at an epoch's end: {r.stderr}"):
        return
    want = curves_without_time(os.path.join(whole, "curves.csv"))
    got = curves_without_time(os.path.join(stopped, "curves.csv"))
    failures.check(got == want and len(got) == 6,
                   f"stopped after update {stop.group(1)}, curves.csv has epochs "
                   f"{[row.split(',')[0] for row in got[1:]]}, not 1..5")


def no_heldout_rows(failures, hamon, work):
    config = shortened(os.path.join(work, "no_heldout.yaml"), epochs=1, heldout="0")
    out = os.path.join(work, "no_heldout")
    if not trained(failures, hamon, config, out, "heldout_fraction 0"):
        return
    header = open(os.path.join(out, "curves.csv")).readline().strip().split(",")
    failures.check("train_accuracy" in header and "train_log_likelihood" in header and
                   not any(c.startswith("heldout_") for c in header),
                   f"heldout_fraction 0: curves.csv's header {header}")
    summary = yaml.safe_load(open(os.path.join(out, "summary.yaml")))["training"]
    failures.check(summary["heldout_rows"] == 0 and summary["train_rows"] == 450,
                   f"heldout_fraction 0: rows {summary['train_rows']} + {summary['heldout_rows']}")
    failures.check(not any(k.startswith("heldout_") and k != "heldout_rows" for k in summary) and
                   summary.get("train_accuracy", 0) > 0.5 and
                   np.isfinite(summary.get("train_log_likelihood", float("nan"))),
                   f"heldout_fraction 0: summary.yaml's training keys {sorted(summary)}")


def npy_bytes(descr, shape, payload):
    header = "{'descr': '%s', 'fortran_order': False, 'shape': %s, }" % (descr, shape)
    header += " " * (63 - (10 + len(header)) % 64) + "\n"
    return b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)) + header.encode() + payload


def bad_inputs(failures, hamon, work):
    good = shortened(os.path.join(work, "good.yaml"))
    text = open(good).read()
    bad_dir = os.path.join(work, "bad")
    os.makedirs(bad_dir)
    with open(os.path.join(bad_dir, "float.npy"), "wb") as f:
        f.write(npy_bytes("<f8", "(2, 784)", b"\0" * (8 * 2 * 784)))
    with open(os.path.join(bad_dir, "two.npy"), "wb") as f:
        f.write(npy_bytes("|u1", "(2, 784)", b"\x02" * (2 * 784)))
    with open(os.path.join(bad_dir, "short.npy"), "wb") as f:
        f.write(npy_bytes("|b1", "(20, 784)", b"\x01" * 100))
    with open(os.path.join(bad_dir, "narrow.npy"), "wb") as f:
        f.write(npy_bytes("|b1", "(20, 700)", b"\x01" * (20 * 700)))
    first = MNIST + "/digits_0.npy"
    cases = [
        ("unknown key", text.replace("epochs:", "epoch:"), r":\d+:\d+: error: train\.epoch.*did you mean"),
        ("missing file", text.replace(first, bad_dir + "/none.npy"), r"train\.data\.files\[0\].*cannot open"),
        ("float data", text.replace(first, bad_dir + "/float.npy"), r"files\[0\].*bool, uint8 or int8"),
        ("value 2", text.replace(first, bad_dir + "/two.npy"), r"element 0 is 2"),
        ("truncated", text.replace(first, bad_dir + "/short.npy"), r"the data has 100 bytes"),
        ("width", text.replace(MNIST + "/digits_3.npy", bad_dir + "/narrow.npy"), r"files\[1\].*700 units"),
        ("ladder", text.replace("ladder: [0.7, 0.8, 0.9, 1.0]", "ladder: [0.7, 0.9]"), r"train\.ladder.*must be 1"),
        ("batch", text.replace("batch: 50", "batch: 5000"), r"train\.batch.*5000 rows per batch"),
        ("hidden", text.replace("hidden: 64", "hidden: 0"), r"train\.model\.hidden"),
        ("yaml", text.replace("[0.7, 0.8", "[0.7, 0.8 :"), r"invalid YAML|:\d+:\d+"),
    ]
    for name, content, pattern in cases:
        path = os.path.join(work, f"bad_{name.replace(' ', '_')}.yaml")
        out = os.path.join(work, f"out_{name.replace(' ', '_')}")
        with open(path, "w") as f:
            f.write(content)
        r = clitest.run(hamon, ["train", path, "--out", out])
        failures.check(r.returncode == 2, f"{name}: exit {r.returncode}: {r.stderr}")
        failures.check(re.search(pattern, r.stderr) is not None, f"{name}: message {r.stderr!r}")
        failures.check(not os.path.exists(out) and not clitest.leftovers(out),
                       f"{name}: something was created")


def main():
    args = clitest.arguments(__doc__)
    failures = clitest.Failures()
    config = shortened(os.path.join(args.work, "short.yaml"))
    out = os.path.join(args.work, "run")
    r = clitest.run(args.hamon, ["train", config, "--out", out], timeout=600)
    if failures.check(r.returncode == 0, f"hamon train failed: {r.stderr}"):
        failures.check(r.stderr == "", f"stderr not a terminal: wrote {r.stderr!r}")
        failures.check("hamon: trained" in r.stdout, f"no report on stdout: {r.stdout!r}")
        check_directory(failures, out, 4)
        failures.check(sorted(f for f in os.listdir(out) if f.startswith("checkpoint")) ==
                       ["checkpoint.bin"], f"checkpoints left in {out}: {os.listdir(out)}")
        sample_trained(failures, args.hamon, args.work, out)
        r = clitest.run(args.hamon, ["train", config, "--out", out, "--quiet"])
        failures.check(r.returncode == 2 and "exists" in r.stderr, "an existing run is refused")
    code, shown = run_on_pty([args.hamon, "train", shortened(os.path.join(args.work, "tty.yaml"),
                                                             epochs=1),
                              "--out", os.path.join(args.work, "tty")], clitest.clean_env())
    failures.check(code == 0 and "epoch 1/1" in shown, f"on a terminal: exit {code}, {shown!r}")
    stop_and_resume(failures, args.hamon, args.work)
    stop_at_an_epoch_end(failures, args.hamon, args.work)
    no_heldout_rows(failures, args.hamon, args.work)
    bad_inputs(failures, args.hamon, args.work)
    failures.finish("train_run")


if __name__ == "__main__":
    main()
