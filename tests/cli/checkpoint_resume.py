#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Checkpoints, resume and extend, end to end (`hamon run` / `resume` / `extend`):
  - kill -9 at >= 10 random moments (several inside checkpoint writes), resume until done:
    every output file is bit-identical to an uninterrupted run's (summary.yaml except its
    timing fields);
  - SIGTERM (and SIGUSR1) -> exit 3 with the resume command -> resume -> the same bits;
  - resume on another device (serial <-> openmp, 1 <-> 2 threads): the same bits;
  - a corrupt newest checkpoint falls back to the previous one (and says so); corrupt or
    truncated checkpoints, another format version, another model, another configuration:
    exit 2 naming the file and what differs, nothing changed;
  - extend: a complete run + N rounds == a run of rounds + N from the start;
  - a file-size limit during a checkpoint write: a clear error, the previous checkpoint
    survives and a later resume completes with the same bits;
  - a q = 3 Potts glass (uint8 samples, node marginals) and a double-well lattice (float64
    samples, node variances): kill -9 and SIGTERM, resumed (the
    latter on another device), and extended, give the same bits as uninterrupted."""

import os
import random
import re
import resource
import shutil
import signal
import subprocess
import time

import clitest

ROUNDS = 3000
BURN_IN = 400
TIMING = re.compile(r"^\s*(total_s|sampling_s|checkpoint_s|spin_updates_per_ns|seconds|"
                    r"tuned_seconds):")


GLASS = """  kind: lattice
  shape: [12, 12]
  periodic: true
  coupling: {distribution: gaussian, seed: 3}
  field: {distribution: gaussian, seed: 4, std: 0.3}"""
# A 10x10 double-well (phi^4) lattice with random fields: float64 samples, node variances.
DOUBLE_WELL = """  kind: double_well
  shape: [10, 10]
  periodic: true
  coupling: 0.3
  barrier: 1.0
  field: {distribution: gaussian, seed: 7, std: 0.2}"""
# A 10x10 q = 3 Gaussian Potts glass with per-state fields drawn per node and state.
POTTS_GLASS = """  kind: lattice
  potts: 3
  shape: [10, 10]
  periodic: true
  coupling: {distribution: gaussian, seed: 5}
  field: {distribution: gaussian, seed: 6, std: 0.3}"""


def experiment(path, every, extra_output="", model=GLASS):
    """A 12x12 glass with fields (or `model`): every observer on, adaptation, checkpoints
    every `every`."""
    with open(path, "w") as f:
        f.write(f"""seed: 20261201
model:
{model}
nrpt:
  chains: 8
  beta_max: 1.5
  rounds: {ROUNDS}
  burn_in: {BURN_IN}
  explore_sweeps: 2
  adapt_schedule: true
output:
  dir: run
  samples: {{every: 7, nodes: all}}
  moments: true
  checkpoint: {{every: {every}}}
{extra_output}""")


def outputs(run_dir, any_device=False):
    """Every file of a finished run (model/'s too), summary.yaml without its timing lines. With
    `any_device`, also without what names the device (config.yaml's and the summary's
    `device` entries, and the summary's device section): what a resume on another device
    changes on purpose."""
    files = {}
    # A subdirectory's files (the realized model, model/) as "model/model.yaml".
    names = sorted(os.path.relpath(os.path.join(here, n), run_dir)
                   for here, _, found in os.walk(run_dir) for n in found)
    for name in names:
        with open(os.path.join(run_dir, name), "rb") as f:
            data = f.read()
        if name in ("summary.yaml", "config.yaml"):
            kept, in_device = [], False
            for line in data.decode().split("\n"):
                if name == "summary.yaml" and TIMING.match(line):
                    continue
                if any_device:
                    if line.startswith("device:"):  # the summary's section
                        in_device = True
                        continue
                    if in_device and line.startswith(" "):
                        continue
                    in_device = False
                    if re.match(r"^\s*device: ", line):  # the experiment's entry
                        continue
                kept.append(line)
            data = "\n".join(kept).encode()
        files[name] = data
    return files


def compare(failures, what, got_dir, want, any_device=False):
    if not failures.check(os.path.isdir(got_dir), f"{what}: no run directory {got_dir}"):
        return
    got = outputs(got_dir, any_device)
    failures.check(sorted(got) == sorted(want), f"{what}: files {sorted(got)} != {sorted(want)}")
    for name, data in want.items():
        if name in got:
            failures.check(got[name] == data, f"{what}: {name} differs from the uninterrupted run")


def start(hamon, args, cwd, env=None):
    return subprocess.Popen([hamon] + args, cwd=cwd, env=env or clitest.clean_env(),
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, errors="replace")


def inode_of(path):
    """The file's inode, or None: a checkpoint write renames files under our feet, so a
    separate exists() and stat() could see two different moments."""
    try:
        return os.stat(path).st_ino
    except FileNotFoundError:
        return None


def wait_for_checkpoint(cwd, name="checkpoint.bin", timeout=60):
    path = os.path.join(cwd, "run.partial", name)
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline and not os.path.exists(path):
        time.sleep(0.01)


def stopped_run(hamon, cwd, config, sig=signal.SIGTERM, device="serial", env=None, delay=0.1):
    """Starts a run, signals it `delay` after its second checkpoint; returns the process."""
    p = start(hamon, ["run", config, "--quiet", "--device", device], cwd, env)
    wait_for_checkpoint(cwd, "checkpoint.bin.prev")
    time.sleep(delay)
    p.send_signal(sig)
    p.communicate(timeout=120)
    return p


def fresh(work, name):
    d = os.path.join(work, name)
    shutil.rmtree(d, ignore_errors=True)
    os.makedirs(d)
    return d


def main():
    args = clitest.arguments(__doc__)
    failures = clitest.Failures()
    hamon = args.hamon
    rng = random.Random(20261201)

    config = os.path.join(args.work, "glass.yaml")
    experiment(config, every=20)
    ref_dir = fresh(args.work, "reference")
    ref = clitest.run(hamon, ["run", config, "--quiet", "--device", "serial"], cwd=ref_dir)
    if not failures.check(ref.returncode == 0, f"reference run: {ref.stderr}"):
        failures.finish("checkpoint/resume")
    want = outputs(os.path.join(ref_dir, "run"))
    want_any_device = outputs(os.path.join(ref_dir, "run"), any_device=True)
    failures.check("checkpoint.bin" in want and "config.yaml" in want,
                   f"a complete run keeps config.yaml and its final checkpoint: {sorted(want)}")
    failures.check(not clitest.leftovers(os.path.join(ref_dir, "run")), "leftovers after a run")

    # ---- kill -9 at random moments, resume until done ----------------------------------
    # Odd attempts are killed a random 0-40 ms after they wrote a new checkpoint (so every
    # attempt makes progress and the kills cannot all miss a short run); even attempts the
    # moment checkpoint.bin.new appears (inside a checkpoint write, or between its fsync
    # and its renames).
    kill_dir = fresh(args.work, "killed")
    ckpt_path = os.path.join(kill_dir, "run.partial", "checkpoint.bin")

    kills, in_writes, attempts = 0, 0, 0
    command = ["run", config, "--quiet", "--device", "serial"]
    while attempts < 40:
        attempts += 1
        before = inode_of(ckpt_path)
        p = start(hamon, command, kill_dir)
        if kills < 12:
            deadline = time.monotonic() + 60
            while p.poll() is None and inode_of(ckpt_path) in (before, None) and \
                    time.monotonic() < deadline:
                time.sleep(0.001)
            if attempts % 2 == 0:
                while p.poll() is None and not os.path.exists(ckpt_path + ".new") and \
                        time.monotonic() < deadline:
                    pass
            else:
                time.sleep(rng.uniform(0.0, 0.04))
            if p.poll() is None:
                p.send_signal(signal.SIGKILL)
                kills += 1
        out, err = p.communicate(timeout=300)
        if os.path.exists(ckpt_path + ".new"):
            in_writes += 1
        if p.returncode == 0:
            break
        if p.returncode != -signal.SIGKILL:
            failures.check(False, f"attempt {attempts}: exit {p.returncode}: {err}")
            break
        command = ["resume", "run", "--quiet", "--device", "serial"]
    print(f"killed {kills} times ({in_writes} inside a checkpoint write), {attempts} attempts")
    failures.check(kills >= 10, f"only {kills} kills landed before the run finished")
    failures.check(in_writes >= 1, "no kill landed inside a checkpoint write")
    compare(failures, "killed and resumed", os.path.join(kill_dir, "run"), want)

    # ---- SIGTERM / SIGUSR1 -> exit 3 -> resume, also on another device ------------------
    for name, sig, first, then, threads in (("sigterm", signal.SIGTERM, "serial", "openmp", "2"),
                                            ("sigusr1", signal.SIGUSR1, "openmp", "serial", "1")):
        d = fresh(args.work, name)
        env = clitest.clean_env(OMP_NUM_THREADS="2" if first == "openmp" else "1")
        p = stopped_run(hamon, d, config, sig, device=first, env=env)
        failures.check(p.returncode == 3, f"{name}: exit {p.returncode}, want 3")
        failures.check(os.path.isdir(os.path.join(d, "run.partial")) and
                       not os.path.exists(os.path.join(d, "run")), f"{name}: directories")
        resumed = clitest.run(hamon, ["resume", "run", "--quiet", "--device", then], cwd=d,
                              env=clitest.clean_env(OMP_NUM_THREADS=threads))
        failures.check(resumed.returncode == 0, f"{name}: resume on {then}: {resumed.stderr}")
        compare(failures, f"{name} on {first}, resumed on {then} ({threads} threads)",
                os.path.join(d, "run"), want_any_device, any_device=True)
    term_dir = os.path.join(args.work, "sigterm_message")
    os.makedirs(term_dir)
    p = start(hamon, ["run", config, "--device", "serial"], term_dir)
    wait_for_checkpoint(term_dir)
    p.send_signal(signal.SIGTERM)
    _, err = p.communicate(timeout=120)
    failures.check(p.returncode == 3 and "hamon resume run" in err,
                   f"SIGTERM message: {p.returncode} {err!r}")

    # ---- corruption and mismatches ----------------------------------------------------
    config50 = os.path.join(args.work, "glass50.yaml")
    experiment(config50, every=50)
    base = fresh(args.work, "stopped")
    p = stopped_run(hamon, base, config50, delay=0.0)
    partial = os.path.join(base, "run.partial")
    failures.check(p.returncode == 3 and os.path.exists(os.path.join(partial, "checkpoint.bin.prev")),
                   f"stopped run for the corruption cases: {p.returncode}, {os.listdir(partial)}")

    def case(name, damage, expect_rc, expect_words):
        d = fresh(args.work, "case_" + name)
        shutil.copytree(partial, os.path.join(d, "run.partial"))
        damage(os.path.join(d, "run.partial"))
        before = sorted(os.listdir(os.path.join(d, "run.partial")))
        r = clitest.run(hamon, ["resume", "run", "--quiet"], cwd=d)
        failures.check(r.returncode == expect_rc, f"{name}: exit {r.returncode}, want {expect_rc}: "
                       f"{r.stderr!r}")
        for words in expect_words:
            failures.check(words in r.stderr, f"{name}: {words!r} not in {r.stderr!r}")
        if expect_rc != 0:
            failures.check(not os.path.exists(os.path.join(d, "run")) and
                           sorted(os.listdir(os.path.join(d, "run.partial"))) == before,
                           f"{name}: a refused resume changed the directory")
        return d

    def flip(path, offset=60):
        with open(path, "r+b") as f:
            f.seek(offset)
            byte = f.read(1)
            f.seek(offset)
            f.write(bytes([byte[0] ^ 0xFF]))

    def truncate(path):
        with open(path, "r+b") as f:
            f.truncate(os.path.getsize(path) // 2)

    def edit_config(old, new):
        def damage(d):
            path = os.path.join(d, "config.yaml")
            with open(path) as f:
                text = f.read()
            failures.check(old in text, f"config.yaml has no {old!r}")
            with open(path, "w") as f:
                f.write(text.replace(old, new, 1))
        return damage

    ckpt = "checkpoint.bin"
    d = case("newest_corrupt", lambda d: flip(os.path.join(d, ckpt)), 0,
             ["skipped", "checksum", "previous good checkpoint"])
    compare(failures, "fallback to the previous checkpoint", os.path.join(d, "run"),
            want50(hamon, args.work, config50))
    case("both_corrupt", lambda d: (flip(os.path.join(d, ckpt)), flip(os.path.join(d, ckpt + ".prev"))),
         2, ["no usable checkpoint", "checksum"])
    case("truncated", lambda d: (truncate(os.path.join(d, ckpt)),
                                 truncate(os.path.join(d, ckpt + ".prev"))), 2, ["truncated"])

    def other_version(d):
        for name in (ckpt, ckpt + ".prev"):
            with open(os.path.join(d, name), "r+b") as f:
                f.seek(8)
                f.write(bytes([99]))
    case("other_version", other_version, 2, ["checkpoint format version 99"])
    case("other_model", edit_config("seed: 4", "seed: 5"), 2, ["the model (fingerprint) differs"])
    case("other_config", edit_config("seed: 20261201", "seed: 7"), 2,
         ["the sampling options differ", "seed (the checkpoint has 20261201, config.yaml has 7)"])
    case("other_sweeps", edit_config("explore_sweeps: 2", "explore_sweeps: 3"), 2,
         ["nrpt.explore_sweeps (the checkpoint has 2, config.yaml has 3)"])
    case("no_checkpoint", lambda d: [os.remove(os.path.join(d, n)) for n in os.listdir(d)
                                     if n.startswith(ckpt)], 2, ["no usable checkpoint"])
    nothing = clitest.run(hamon, ["resume", "nowhere"], cwd=args.work)
    failures.check(nothing.returncode == 2 and "no interrupted run" in nothing.stderr,
                   f"resume of nothing: {nothing.returncode} {nothing.stderr!r}")
    complete = clitest.run(hamon, ["resume", "run"], cwd=ref_dir)
    failures.check(complete.returncode == 2 and "hamon extend" in complete.stderr,
                   f"resume of a complete run: {complete.returncode} {complete.stderr!r}")

    # ---- extend ------------------------------------------------------------------------
    short_dir = fresh(args.work, "extend")
    r1 = clitest.run(hamon, ["run", config, "--quiet", "--rounds", "1000", "--device", "serial"],
                     cwd=short_dir)
    r2 = clitest.run(hamon, ["extend", "run", "--rounds", str(ROUNDS - 1000), "--quiet"],
                     cwd=short_dir)
    failures.check(r1.returncode == 0 and r2.returncode == 0, f"extend: {r1.stderr} {r2.stderr}")
    compare(failures, "run of 1000 rounds extended to 3000", os.path.join(short_dir, "run"), want)

    # ---- a file-size limit during a checkpoint write ------------------------------------
    config_big = os.path.join(args.work, "big_checkpoint.yaml")
    experiment(config_big, every=50)
    with open(config_big) as f:
        text = f.read().replace("samples: {every: 7, nodes: all}", "samples: false")
    text = text.replace("  moments: true\n", "  moments: true\n  energies: false\n"
                        "  index_process: false\n")
    with open(config_big, "w") as f:
        f.write(text)
    full_ref = fresh(args.work, "full_reference")
    clitest.run(hamon, ["run", config_big, "--quiet", "--device", "serial"], cwd=full_ref)
    want_full = outputs(os.path.join(full_ref, "run"))
    full = fresh(args.work, "full")
    p = stopped_run(hamon, full, config_big, delay=0.0)
    checkpoint = os.path.join(full, "run.partial", ckpt)
    with open(checkpoint, "rb") as f:
        saved = f.read()
    limit = len(saved) // 2

    def small_files():
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))
    r = subprocess.run([hamon, "resume", "run", "--quiet"], cwd=full, env=clitest.clean_env(),
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, errors="replace",
                       preexec_fn=small_files, timeout=120)
    failures.check(r.returncode == 1 and "cannot write checkpoint" in r.stderr,
                   f"file-size limit: exit {r.returncode}: {r.stderr!r}")
    with open(checkpoint, "rb") as f:
        failures.check(f.read() == saved, "the previous checkpoint did not survive")
    r = clitest.run(hamon, ["resume", "run", "--quiet"], cwd=full)
    failures.check(r.returncode == 0, f"resume after the failed write: {r.stderr}")
    compare(failures, "resumed after a failed checkpoint write", os.path.join(full, "run"), want_full)
    stop_resume_extend_cases(hamon, args.work, rng, failures)
    stop_resume_extend_cases(hamon, args.work, rng, failures, "double_well", DOUBLE_WELL)
    failures.finish("checkpoint/resume")


def stop_resume_extend_cases(hamon, work, rng, failures, name="Potts", model=POTTS_GLASS):
    """A Potts run (or `model`'s) stopped (kill -9 a few times; SIGTERM, resumed on another
    device) and extended: the same bits as the uninterrupted run."""
    config = os.path.join(work, f"{name}.yaml")
    experiment(config, every=20, model=model)
    ref_dir = fresh(work, f"{name}_reference")
    ref = clitest.run(hamon, ["run", config, "--quiet", "--device", "serial"], cwd=ref_dir)
    if not failures.check(ref.returncode == 0, f"{name} reference run: {ref.stderr}"):
        return
    want = outputs(os.path.join(ref_dir, "run"))
    want_any_device = outputs(os.path.join(ref_dir, "run"), any_device=True)
    kill_dir = fresh(work, f"{name}_killed")
    ckpt = os.path.join(kill_dir, "run.partial", "checkpoint.bin")
    command = ["run", config, "--quiet", "--device", "serial"]
    kills = 0
    for attempt in range(20):
        p = start(hamon, command, kill_dir)
        if kills < 3:
            before = inode_of(ckpt)
            deadline = time.monotonic() + 60
            while p.poll() is None and time.monotonic() < deadline and \
                    inode_of(ckpt) in (before, None):
                time.sleep(0.001)
            time.sleep(rng.uniform(0.0, 0.03))
            if p.poll() is None:
                p.send_signal(signal.SIGKILL)
                kills += 1
        _, err = p.communicate(timeout=300)
        if p.returncode == 0:
            break
        if not failures.check(p.returncode == -signal.SIGKILL,
                              f"{name} attempt {attempt}: exit {p.returncode}: {err}"):
            return
        command = ["resume", "run", "--quiet", "--device", "serial"]
    failures.check(kills >= 1, f"no kill landed before the {name} run finished")
    compare(failures, f"{name}, killed {kills} times and resumed", os.path.join(kill_dir, "run"),
            want)
    d = fresh(work, f"{name}_sigterm")
    p = stopped_run(hamon, d, config, signal.SIGTERM, device="serial")
    failures.check(p.returncode == 3, f"{name} SIGTERM: exit {p.returncode}, want 3")
    resumed = clitest.run(hamon, ["resume", "run", "--quiet", "--device", "openmp"], cwd=d,
                          env=clitest.clean_env(OMP_NUM_THREADS="2"))
    failures.check(resumed.returncode == 0, f"{name} resume on openmp: {resumed.stderr}")
    compare(failures, f"{name} SIGTERM on serial, resumed on openmp (2 threads)",
            os.path.join(d, "run"), want_any_device, any_device=True)
    short_dir = fresh(work, f"{name}_extend")
    r1 = clitest.run(hamon, ["run", config, "--quiet", "--rounds", "1000", "--device", "serial"],
                     cwd=short_dir)
    r2 = clitest.run(hamon, ["extend", "run", "--rounds", str(ROUNDS - 1000), "--quiet"],
                     cwd=short_dir)
    failures.check(r1.returncode == 0 and r2.returncode == 0,
                   f"{name} extend: {r1.stderr} {r2.stderr}")
    compare(failures, f"{name} run of 1000 rounds extended", os.path.join(short_dir, "run"), want)


_WANT50 = {}


def want50(hamon, work, config50):
    """The uninterrupted outputs of the every-50 configuration (computed once)."""
    if not _WANT50:
        d = fresh(work, "reference50")
        clitest.run(hamon, ["run", config50, "--quiet", "--device", "serial"], cwd=d)
        _WANT50.update(outputs(os.path.join(d, "run")))
    return _WANT50


if __name__ == "__main__":
    main()
