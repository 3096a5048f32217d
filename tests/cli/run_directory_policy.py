#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""The run directory appears whole or not at all, and is never clobbered by accident:
  - a run into a new directory creates it (parents too), with no staging left behind;
  - running again into it is refused (exit 2, the directory untouched);
  - --overwrite replaces an earlier run, but not a directory that is not one (a
    summary.yaml hamon did not write is no mark of a run), nor one holding a file hamon
    did not write (named in the refusal; nothing is deleted), in DIR or in DIR.partial;
  - an existing empty directory is simply used;
  - a run killed while sampling leaves no DIR, only DIR.partial (resumable), and a new
    run into DIR is refused while DIR.partial exists (unless --overwrite discards it);
  - `hamon demo --out` replaces its own earlier run (the README runs it repeatedly), and
    never a user's: with the user's own run in runs/ising2d it writes runs/ising2d-2 and
    says so (and replaces that one when run again), with --out it refuses;
  - where strace is installed: a trace file (samples, energies, index process) is fsynced
    again only when rows were written to it since its last fsync."""

import os
import re
import shutil
import signal
import subprocess
import time

import clitest


contents = clitest.contents  # {name: bytes} of a directory's files

TRACE_FILES = ("samples.npy", "energies.npy", "index_process.npy")


def traced_run(args, config, out, device, short):
    """strace's log of `hamon run` on `device`; None when the run fails."""
    log = out + ".strace"
    command = ["strace", "-f", "--seccomp-bpf", "-y", "-o", log, "-e", "trace=fsync,pwrite64",
               args.hamon, "run", config, "--out", out, "--device", device] + short
    # LeakSanitizer cannot run under ptrace (a sanitizer build's leak check stays off here).
    asan = ":".join(o for o in [os.environ.get("ASAN_OPTIONS", ""), "detect_leaks=0"] if o)
    result = subprocess.run(command, env=clitest.clean_env(ASAN_OPTIONS=asan), timeout=300,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, errors="replace")
    if result.returncode != 0:
        return None
    with open(log) as f:
        return f.read().splitlines()


def check_syscalls(args, failures, config, short):
    """Trace files are fsynced only when rows came since their last fsync."""
    if shutil.which("strace") is None:
        print("strace not installed: the fsync check is skipped")
        return
    log = traced_run(args, config, os.path.join(args.work, "traced"), "serial", short)
    failures.check(log is not None, "the traced run failed")
    if log is None:
        return
    dirty, synced = {}, set()
    call = re.compile(r"(pwrite64|fsync)\(\d+<([^>]+)>(.*)\)\s+=")
    for line in log:
        m = call.search(line)
        if not m or os.path.basename(m.group(2)) not in TRACE_FILES:
            continue
        path = m.group(2)
        if m.group(1) == "pwrite64":
            dirty[path] = dirty.get(path, False) or int(m.group(3).rsplit(",", 1)[1]) > 0
        else:
            failures.check(path not in synced or dirty.get(path, False),
                           f"{os.path.basename(path)} fsynced again with no row written since")
            synced.add(path)
            dirty[path] = False
    failures.check(len(synced) == len(TRACE_FILES), f"trace files fsynced: {sorted(synced)}")


def check_demo_keeps_user_runs(args, failures, short):
    """A user's own run where the demo writes (an 8x8 copy of the example, seed 1) stays."""
    work = os.path.join(args.work, "demo_cwd")
    os.makedirs(work)
    with open(os.path.join(clitest.EXAMPLES_DIR, "ising2d.yaml")) as f:
        mine = f.read().replace("shape: [16, 16]", "shape: [8, 8]").replace("seed: 42", "seed: 1")
    with open(os.path.join(work, "mine.yaml"), "w") as f:
        f.write(mine)
    users = os.path.join(work, "runs", "ising2d")
    made = clitest.run(args.hamon, ["run", "mine.yaml"] + short, cwd=work)
    if not failures.check(made.returncode == 0, f"the user's run: {made.stderr}"):
        return
    before = contents(users)
    demo = clitest.run(args.hamon, ["demo"] + short, cwd=work)
    failures.check(demo.returncode == 0, f"demo beside a user's run: {demo.stderr!r}")
    failures.check(contents(users) == before, "demo replaced the user's run in runs/ising2d")
    moved = os.path.join(work, "runs", "ising2d-2")
    failures.check(os.path.isfile(os.path.join(moved, "summary.yaml")),
                   f"demo beside a user's run wrote no runs/ising2d-2: "
                   f"{os.listdir(os.path.dirname(users))}")
    failures.check("runs/ising2d-2" in demo.stderr and "runs/ising2d" in demo.stderr,
                   f"demo did not say where it wrote: {demo.stderr!r}")
    again = clitest.run(args.hamon, ["demo"] + short, cwd=work)
    failures.check(again.returncode == 0 and contents(users) == before and
                   sorted(os.listdir(os.path.dirname(users))) == ["ising2d", "ising2d-2"],
                   f"demo again: {again.returncode} {again.stderr!r} "
                   f"{os.listdir(os.path.dirname(users))}")
    refused = clitest.run(args.hamon, ["demo", "--out", "runs/ising2d"] + short, cwd=work)
    failures.check(refused.returncode == 2 and "not this demo's" in refused.stderr and
                   "--out" in refused.stderr,
                   f"demo --out over a user's run: {refused.returncode} {refused.stderr!r}")
    failures.check(contents(users) == before and not clitest.leftovers(users),
                   "a refused demo changed the user's run")


def main():
    args = clitest.arguments(__doc__)
    failures = clitest.Failures()
    config = os.path.join(clitest.EXAMPLES_DIR, "graph_inline.yaml")
    short = ["--rounds", "200", "--burn-in", "50", "--quiet"]
    out = os.path.join(args.work, "nested", "deeper", "run")

    first = clitest.run(args.hamon, ["run", config, "--out", out] + short)
    failures.check(first.returncode == 0, f"first run: {first.stderr}")
    failures.check(os.path.isfile(os.path.join(out, "summary.yaml")), "no summary.yaml")
    failures.check(first.stdout == "", f"--quiet printed {first.stdout!r}")
    failures.check(not clitest.leftovers(out), "staging left behind")
    with open(os.path.join(out, "summary.yaml")) as f:
        original = f.read()

    again = clitest.run(args.hamon, ["run", config, "--out", out] + short)
    failures.check(again.returncode == 2 and "exists and is not empty" in again.stderr,
                   f"second run into the same directory: {again.returncode} {again.stderr!r}")
    with open(os.path.join(out, "summary.yaml")) as f:
        failures.check(f.read() == original, "refused run changed the directory")

    replaced = clitest.run(args.hamon, ["run", config, "--out", out, "--seed", "99",
                                        "--overwrite"] + short)
    failures.check(replaced.returncode == 0, f"--overwrite: {replaced.stderr}")
    with open(os.path.join(out, "summary.yaml")) as f:
        failures.check("seed: 99" in f.read(), "--overwrite did not replace the run")
    failures.check(not clitest.leftovers(out), "staging or old run left behind after --overwrite")

    other = os.path.join(args.work, "not_a_run")
    os.makedirs(other)
    with open(os.path.join(other, "notes.txt"), "w") as f:
        f.write("precious\n")
    refused = clitest.run(args.hamon, ["run", config, "--out", other, "--overwrite"] + short)
    failures.check(refused.returncode == 2 and "not an earlier hamon run" in refused.stderr,
                   f"--overwrite on a foreign directory: {refused.returncode} {refused.stderr!r}")
    failures.check(os.listdir(other) == ["notes.txt"], "foreign directory was changed")

    # A summary.yaml hamon did not write does not make a directory an earlier run.
    foreign_summary = os.path.join(args.work, "foreign_summary")
    os.makedirs(foreign_summary)
    mine = {"summary.yaml": b"my: notes\n", "thesis.tex": b"\\documentclass{article}\n"}
    for name, text in mine.items():
        with open(os.path.join(foreign_summary, name), "wb") as f:
            f.write(text)
    refused = clitest.run(args.hamon, ["run", config, "--out", foreign_summary,
                                       "--overwrite"] + short)
    failures.check(refused.returncode == 2 and "not an earlier hamon run" in refused.stderr and
                   "thesis.tex" in refused.stderr,
                   f"--overwrite on a foreign summary.yaml: {refused.returncode} "
                   f"{refused.stderr!r}")
    failures.check(contents(foreign_summary) == mine, "a refused --overwrite changed the directory")

    # A user's file in an earlier run: refused, naming it, and nothing deleted.
    with open(os.path.join(out, "mynotes.txt"), "w") as f:
        f.write("precious\n")
    before = contents(out)
    refused = clitest.run(args.hamon, ["run", config, "--out", out, "--overwrite"] + short)
    failures.check(refused.returncode == 2 and "mynotes.txt" in refused.stderr,
                   f"--overwrite over a user's file: {refused.returncode} {refused.stderr!r}")
    failures.check(contents(out) == before, "a refused --overwrite changed the run")
    failures.check(not clitest.leftovers(out), "a refused --overwrite left staging behind")
    if os.path.exists(os.path.join(out, "mynotes.txt")):
        os.remove(os.path.join(out, "mynotes.txt"))

    empty = os.path.join(args.work, "empty")
    os.makedirs(empty)
    used = clitest.run(args.hamon, ["run", config, "--out", empty] + short)
    failures.check(used.returncode == 0 and os.path.isfile(os.path.join(empty, "summary.yaml")),
                   f"run into an empty directory: {used.stderr}")

    # Interrupted: start a long run, kill it while it samples.
    killed_out = os.path.join(args.work, "killed")
    process = subprocess.Popen([args.hamon, "run", config, "--out", killed_out, "--rounds",
                                "100000000", "--quiet"], env=clitest.clean_env(),
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline and not clitest.leftovers(killed_out):
        time.sleep(0.05)
    time.sleep(0.3)
    process.send_signal(signal.SIGKILL)
    process.wait()
    failures.check(not os.path.exists(killed_out), "a killed run left a complete-looking DIR")
    failures.check(clitest.leftovers(killed_out) == ["killed.partial"],
                   f"unexpected siblings {clitest.leftovers(killed_out)}")
    blocked = clitest.run(args.hamon, ["run", config, "--out", killed_out] + short)
    failures.check(blocked.returncode == 2 and "hamon resume" in blocked.stderr,
                   f"run over an interrupted one: {blocked.returncode} {blocked.stderr!r}")
    # --overwrite discards an interrupted run only when all in it is hamon's.
    partial_notes = os.path.join(killed_out + ".partial", "mynotes.txt")
    with open(partial_notes, "w") as f:
        f.write("precious\n")
    before = contents(killed_out + ".partial")
    kept = clitest.run(args.hamon, ["run", config, "--out", killed_out, "--overwrite"] + short)
    failures.check(kept.returncode == 2 and "mynotes.txt" in kept.stderr,
                   f"--overwrite over a user's file in DIR.partial: {kept.stderr!r}")
    failures.check(contents(killed_out + ".partial") == before,
                   "a refused --overwrite changed DIR.partial")
    os.remove(partial_notes)
    discarded = clitest.run(args.hamon, ["run", config, "--out", killed_out, "--overwrite"] + short)
    failures.check(discarded.returncode == 0 and not clitest.leftovers(killed_out),
                   f"--overwrite over an interrupted run: {discarded.stderr!r}")

    demo_out = os.path.join(args.work, "demo")
    for attempt in (1, 2):
        demo = clitest.run(args.hamon, ["demo", "--out", demo_out] + short)
        failures.check(demo.returncode == 0, f"demo run {attempt}: {demo.stderr}")
    failures.check(os.path.isfile(os.path.join(demo_out, "summary.yaml")), "demo wrote no summary")
    check_demo_keeps_user_runs(args, failures, short)
    check_syscalls(args, failures, config, short)
    failures.finish("run directory policy")


if __name__ == "__main__":
    main()
