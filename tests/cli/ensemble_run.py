#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""`instances: K` (an ensemble of disorder realisations) end to end:

  - `instances: 1` is the run without the key: the same bytes in every file;
  - `instances: 3` writes DIR/instances/0..2, each a complete run directory whose
    config.yaml follows the documented seed rule (derive_seed of the model's and the run's
    seeds with k) and whose results are those of `hamon run` of that config.yaml alone; the
    instances differ; DIR/energy_per_node.npy holds the instances' energies and
    summary.yaml `ensemble:` their mean with the standard error;
  - SIGTERM during instance 1: exit 3, no DIR, instance 0 kept complete and instance 1
    resumable; `hamon resume DIR` gives the bytes of the uninterrupted ensemble (every
    instance's results and checkpoint, the tables, summary.yaml);
  - failures leave DIR alone: a second run into a complete ensemble is refused with DIR
    unchanged, with --overwrite too when a user's file is among its instances, and so is
    `hamon extend`; a resume that fails (a foreign file where an instance goes) exits 2 and
    leaves DIR.partial as it was, and resumes once the file is gone;
  - the `overlap:` sections of the instances' summaries (the documented keys) become
    overlap_<key>.npy tables and `ensemble.overlap` averages, with the Binder ratio of the
    averages and its jackknife error; instances whose overlap ladders differ get no
    overlap averages and `ensemble.overlap_skipped` says why;
  - tuning in an ensemble is refused (the instances share one ladder)."""

import hashlib
import os
import shutil
import signal
import subprocess
import time

import numpy as np
import yaml

import clitest

BASE = """seed: 5
model:
  kind: lattice
  shape: [6, 6]
  coupling: {distribution: pm_one, seed: 3}
  field: {distribution: gaussian, std: 0.1, seed: 4}
nrpt:
  chains: 4
  beta_max: 1.0
  rounds: ROUNDS
  burn_in: 50
output:
  samples: {every: 50}
"""
RESULTS = ("energies.npy", "index_process.npy", "samples.npy", "betas.npy", "best_state.npy",
           "checkpoint.bin")
OVERLAP_KEYS = ("q2", "q2_stderr", "q4", "q4_stderr", "abs_q", "abs_q_stderr", "binder",
                "binder_stderr", "chi_sg", "chi_kmin", "link_overlap", "xi")


def write_config(args, name, top="", rounds=300):
    path = os.path.join(args.work, name + ".yaml")
    with open(path, "w") as f:
        f.write(top + BASE.replace("ROUNDS", str(rounds)))
    return path


def without_dir(data):
    """A config.yaml or summary.yaml without its output directory (each run names its own)."""
    document = yaml.safe_load(data)
    config = document.get("config", document)
    if isinstance(config, dict) and isinstance(config.get("output"), dict):
        config["output"]["dir"] = None
    return document


def digest(directory):
    """Every file under `directory` (relative path -> sha256); the YAML files without their
    output directory, each instance's summary.yaml without its timings."""
    found = {}
    for root, _, files in os.walk(directory):
        for name in files:
            path = os.path.join(root, name)
            rel = os.path.relpath(path, directory)
            with open(path, "rb") as f:
                data = f.read()
            if name.endswith(".yaml"):
                document = without_dir(data)
                if rel != "summary.yaml":
                    document.pop("timing", None)
                data = yaml.safe_dump(document).encode()
            found[rel] = hashlib.sha256(data).hexdigest()
    return found


def load(path):
    with open(path) as f:
        return yaml.safe_load(f)


def check_single(args, failures):
    plain = os.path.join(args.work, "plain")
    one = os.path.join(args.work, "one")
    for config, out in ((write_config(args, "plain"), plain),
                        (write_config(args, "one", "instances: 1\n"), one)):
        result = clitest.run(args.hamon, ["run", config, "--out", out, "--quiet"])
        failures.check(result.returncode == 0, f"{out}: exit {result.returncode}: {result.stderr}")
    for name in RESULTS:
        with open(os.path.join(plain, name), "rb") as a, open(os.path.join(one, name), "rb") as b:
            failures.check(a.read() == b.read(), f"instances: 1 changed {name}")
    with open(os.path.join(plain, "config.yaml"), "rb") as a, \
            open(os.path.join(one, "config.yaml"), "rb") as b:
        failures.check(without_dir(a.read()) == without_dir(b.read()),
                       "instances: 1 changed config.yaml")
    failures.check(not os.path.exists(os.path.join(one, "instances")),
                   "instances: 1 wrote an ensemble")


def check_ensemble(args, failures, out):
    ensemble = load(os.path.join(out, "summary.yaml"))
    failures.check(ensemble["ensemble"]["instances"] == 3, "ensemble.instances is not 3")
    failures.check(ensemble["config"]["instances"] == 3, "the ensemble config lacks instances")
    energies = []
    for k in range(3):
        instance = os.path.join(out, "instances", str(k))
        config = load(os.path.join(instance, "config.yaml"))
        summary = load(os.path.join(instance, "summary.yaml"))
        failures.check("hamon" in summary and "instances" not in config,
                       f"instance {k} is not a complete single run")
        failures.check(config["seed"] == clitest.derive_seed(5, 7, k),
                       f"instance {k}: sampler seed")
        model = config["model"]
        failures.check(model["coupling"]["seed"] == clitest.derive_seed(3, 6, k) and
                       model["field"]["seed"] == clitest.derive_seed(4, 6, k),
                       f"instance {k}: disorder seeds do not follow the rule")
        energies.append(summary["observables"]["energy_per_node"]["mean"])
    failures.check(len(set(energies)) == 3, f"instances are not distinct: {energies}")
    table = np.load(os.path.join(out, "energy_per_node.npy"))
    failures.check(table.shape == (3, 1) and np.array_equal(table[:, 0], energies),
                   f"energy_per_node.npy {table.tolist()} is not the instances' {energies}")
    e = ensemble["ensemble"]["energy_per_node"]
    failures.check(abs(e["mean"] - np.mean(energies)) < 1e-12, "ensemble mean energy")
    failures.check(abs(e["stderr"] - np.std(energies, ddof=1) / np.sqrt(3)) < 1e-12,
                   "ensemble energy error is not the standard error of the mean")
    # Instance 1 is the run of its own config.yaml, alone.
    alone = os.path.join(args.work, "alone")
    result = clitest.run(args.hamon, ["run", os.path.join(out, "instances", "1", "config.yaml"),
                                      "--out", alone, "--quiet"])
    if failures.check(result.returncode == 0, f"instance 1 alone: {result.stderr}"):
        for name in RESULTS:
            with open(os.path.join(alone, name), "rb") as a, \
                    open(os.path.join(out, "instances", "1", name), "rb") as b:
                failures.check(a.read() == b.read(), f"instance 1 is not its config's run: {name}")


def check_stop_resume(args, failures, config, reference):
    out = os.path.join(args.work, "stopped")
    partial = out + ".partial"
    p = subprocess.Popen([args.hamon, "run", config, "--out", out, "--quiet"],
                         env=clitest.clean_env(), stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, text=True)
    marker = os.path.join(partial, "instances", "1.partial", "checkpoint.bin")
    deadline = time.monotonic() + 120
    while not os.path.exists(marker) and p.poll() is None and time.monotonic() < deadline:
        time.sleep(0.005)
    p.send_signal(signal.SIGTERM)
    _, err = p.communicate(timeout=120)
    if not failures.check(p.returncode == 3, f"stopped ensemble: exit {p.returncode}: {err}"):
        return
    failures.check("hamon resume" in err and "instance 1 of 3" in err,
                   f"the stop does not say how to go on: {err}")
    failures.check(not os.path.exists(out), "a stopped ensemble left DIR")
    failures.check(os.path.isfile(os.path.join(partial, "instances", "0", "summary.yaml")),
                   "instance 0 is not kept complete")
    failures.check(os.path.isdir(os.path.join(partial, "instances", "1.partial")),
                   "instance 1 is not resumable")
    # A foreign file where instance 2 goes: the resume fails and leaves DIR.partial alone.
    blocker = os.path.join(partial, "instances", "2.partial")
    with open(blocker, "w") as f:
        f.write("not hamon's\n")
    before = digest(partial)
    result = clitest.run(args.hamon, ["resume", out, "--quiet"])
    failures.check(result.returncode != 0, "a resume into a foreign file succeeded")
    failures.check(not os.path.exists(out), "a failed resume made DIR")
    after = digest(partial)
    failures.check(os.path.isfile(blocker), "a failed resume removed the foreign file")
    kept = {rel: h for rel, h in before.items() if rel.startswith(os.path.join("instances", "0"))}
    failures.check(kept and all(after.get(rel) == h for rel, h in kept.items()),
                   "a failed resume changed the finished instance 0")
    os.remove(blocker)
    result = clitest.run(args.hamon, ["resume", out, "--quiet"])
    if not failures.check(result.returncode == 0, f"resume: {result.stderr}"):
        return
    mine, theirs = digest(out), digest(reference)
    failures.check(sorted(mine) == sorted(theirs),
                   f"resumed files differ: {sorted(set(mine) ^ set(theirs))}")
    for rel in sorted(set(mine) & set(theirs)):
        if rel.endswith("config.yaml"):
            continue  # output.dir names each ensemble's own directory
        failures.check(mine[rel] == theirs[rel], f"resumed ensemble differs in {rel}")


def check_refusals(args, failures, config, out):
    before = digest(out)
    result = clitest.run(args.hamon, ["run", config, "--out", out, "--quiet"])
    failures.check(result.returncode == 2, f"a run into a complete ensemble: {result.returncode}")
    failures.check(digest(out) == before, "a refused run changed the complete ensemble")
    # --overwrite replaces only a directory of hamon's files: an ensemble's instances/ are
    # hamon's, but not with a user's file among them, so the ensemble is refused, whole.
    mine = os.path.join(out, "instances", "0", "notes.txt")
    with open(mine, "w") as f:
        f.write("mine\n")
    before_mine = digest(out)
    result = clitest.run(args.hamon, ["run", config, "--out", out, "--quiet", "--overwrite"])
    failures.check(result.returncode == 2 and "instances" in result.stderr,
                   f"--overwrite of an ensemble: {result.returncode}: {result.stderr}")
    failures.check(digest(out) == before_mine and not clitest.leftovers(out),
                   "a refused --overwrite changed the complete ensemble")
    os.remove(mine)
    result = clitest.run(args.hamon, ["extend", out, "--rounds", "10", "--quiet"])
    failures.check(result.returncode == 2 and "ensemble" in result.stderr,
                   f"extend of an ensemble: {result.returncode}: {result.stderr}")
    failures.check(digest(out) == before and not clitest.leftovers(out),
                   "a refused extend changed the complete ensemble")
    tuned = write_config(args, "tuned", "instances: 2\n")
    with open(tuned) as f:
        text = f.read().replace("  chains: 4\n", "  tune: auto\n")
    with open(tuned, "w") as f:
        f.write(text)
    result = clitest.run(args.hamon, ["validate", tuned])
    failures.check(result.returncode == 2 and "instances" in result.stderr,
                   f"a tuned ensemble was not refused: {result.stderr}")


def check_overlap_tables(args, failures, complete):
    """The instances' overlap sections (as the overlap observables write them) through
    `hamon resume` of an ensemble whose instances are all done."""
    out = os.path.join(args.work, "overlaps")
    shutil.copytree(complete, out + ".partial")
    os.remove(os.path.join(out + ".partial", "summary.yaml"))
    rng = np.random.default_rng(1)
    betas = [0.0, 0.5, 1.0]
    q2 = rng.uniform(0.1, 0.9, size=(3, 3))
    q4 = q2 ** 2 * rng.uniform(1.0, 2.5, size=(3, 3))
    chi_0 = rng.uniform(5.0, 9.0, size=(3, 3))
    chi_k = chi_0 * rng.uniform(0.2, 0.8, size=(3, 3))
    for k in range(3):
        path = os.path.join(out + ".partial", "instances", str(k), "summary.yaml")
        summary = load(path)
        section = {"betas": betas}
        for key in OVERLAP_KEYS:
            section[key] = [float(x) for x in rng.uniform(0.0, 1.0, 3)]
        section["q2"] = [float(x) for x in q2[k]]
        section["q4"] = [float(x) for x in q4[k]]
        section["chi_sg"] = [float(x) for x in chi_0[k]]
        section["chi_kmin"] = [float(x) for x in chi_k[k]]
        summary["overlap"] = section
        with open(path, "w") as f:
            f.write("hamon: " + yaml.safe_dump(summary["hamon"], default_flow_style=True))
            rest = {key: v for key, v in summary.items() if key != "hamon"}
            f.write(yaml.safe_dump(rest))
    result = clitest.run(args.hamon, ["resume", out, "--quiet"])
    if not failures.check(result.returncode == 0, f"overlap resume: {result.stderr}"):
        return
    ensemble = load(os.path.join(out, "summary.yaml"))["ensemble"]["overlap"]
    failures.check(ensemble["betas"] == betas, "ensemble.overlap.betas")
    for key in OVERLAP_KEYS:
        table = np.load(os.path.join(out, f"overlap_{key}.npy"))
        failures.check(table.shape == (3, 3), f"overlap_{key}.npy shape {table.shape}")
    failures.check(np.array_equal(np.load(os.path.join(out, "overlap_q2.npy")), q2),
                   "overlap_q2.npy is not the instances' q2")
    m2 = q2.mean(axis=0)
    failures.check(np.allclose(ensemble["q2"]["mean"], m2, rtol=1e-14) and
                   np.allclose(ensemble["q2"]["stderr"], q2.std(axis=0, ddof=1) / np.sqrt(3),
                               rtol=1e-12), "ensemble.overlap.q2")
    # Binder: g of the averages, and the jackknife over leave-one-out averages.
    g = 0.5 * (3 - q4.mean(axis=0) / m2 ** 2)
    loo = np.array([0.5 * (3 - np.delete(q4, i, 0).mean(axis=0) /
                           np.delete(q2, i, 0).mean(axis=0) ** 2) for i in range(3)])
    err = np.sqrt(2 / 3 * ((loo - loo.mean(axis=0)) ** 2).sum(axis=0))
    failures.check(np.allclose(ensemble["binder"]["mean"], g, rtol=1e-12),
                   f"ensemble binder {ensemble['binder']['mean']} is not g of the averages {g}")
    failures.check(np.allclose(ensemble["binder"]["stderr"], err, rtol=1e-10),
                   f"ensemble binder error {ensemble['binder']['stderr']} is not {err}")
    failures.check(not np.allclose(g, (0.5 * (3 - q4 / q2 ** 2)).mean(axis=0)),
                   "the table cannot tell the ratio of averages from the average of ratios")
    # xi_L of the averaged susceptibilities on the 6 x 6 lattice (k_min = 2 pi / 6), jackknifed.
    def xi(c0, ck):
        return np.sqrt(c0 / ck - 1) / (2 * np.sin(np.pi / 6))
    x = xi(chi_0.mean(axis=0), chi_k.mean(axis=0))
    loo = np.array([xi(np.delete(chi_0, i, 0).mean(axis=0), np.delete(chi_k, i, 0).mean(axis=0))
                    for i in range(3)])
    err = np.sqrt(2 / 3 * ((loo - loo.mean(axis=0)) ** 2).sum(axis=0))
    failures.check(np.allclose(ensemble["xi"]["mean"], x, rtol=1e-12) and
                   np.allclose(ensemble["xi"]["stderr"], err, rtol=1e-10),
                   f"ensemble xi {ensemble['xi']} is not xi of the averages {x} +- {err}")
    failures.check(np.allclose(ensemble["chi_kmin"]["mean"], chi_k.mean(axis=0), rtol=1e-14),
                   "ensemble.overlap.chi_kmin")
    # Instances whose ladders differ (an adapted schedule) have no common columns: the
    # ensemble is still written, without overlap averages, and says why.
    path = os.path.join(out, "instances", "2", "summary.yaml")
    with open(path) as f:
        text = f.read()
    with open(path, "w") as f:
        f.write(text.replace("- 0.5\n", "- 0.55\n", 1))
    os.rename(out, out + ".partial")
    os.remove(os.path.join(out + ".partial", "summary.yaml"))
    result = clitest.run(args.hamon, ["resume", out, "--quiet"])
    if failures.check(result.returncode == 0, f"resume with other ladders: {result.stderr}"):
        ensemble = load(os.path.join(out, "summary.yaml"))["ensemble"]
        failures.check("overlap" not in ensemble and
                       "differ" in ensemble.get("overlap_skipped", ""),
                       f"instances with other ladders: {ensemble}")


def main():
    args = clitest.arguments(__doc__)
    failures = clitest.Failures()
    check_single(args, failures)
    config = write_config(args, "ensemble", "instances: 3\n", rounds=3000)
    out = os.path.join(args.work, "ensemble")
    result = clitest.run(args.hamon, ["run", config, "--out", out], timeout=300)
    if not failures.check(result.returncode == 0, f"ensemble: {result.stderr}"):
        failures.finish("ensemble")
    failures.check("ensemble of 3 instances" in result.stdout, f"report: {result.stdout}")
    check_ensemble(args, failures, out)
    check_stop_resume(args, failures, config, out)
    check_refusals(args, failures, config, out)
    check_overlap_tables(args, failures, out)
    failures.finish("ensemble")


if __name__ == "__main__":
    main()
