#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""An interrupted command never costs a complete run; one case each (`--case NAME`,
`--list`):
  - extend_resume: Ctrl-C (SIGINT) during `hamon extend DIR` exits 3 naming `hamon resume
    DIR` and `hamon extend DIR --abandon`, and so does a new `hamon run` into DIR; resuming
    gives the bits of an uninterrupted extension and drops DIR.partial/before-extend/;
  - extend_abandon: `hamon extend DIR --abandon` after the interrupted extension puts the
    complete run back in DIR byte for byte (every file, nothing beside DIR); extending it
    again gives the uninterrupted extension's bits;
  - extend_overwrite: `run --overwrite` (and `validate --overwrite`) into the interrupted
    extension is refused, naming the complete run it holds (its rounds) and --abandon, and
    changes nothing; once abandoned, --overwrite says what it replaces before it does;
  - abandon_refusals: --abandon where there is nothing to abandon (a complete run, an
    interrupted run that is no extension), where DIR was taken meanwhile, with a damaged
    record, and `extend --rounds` over an interrupted extension: exit 2, nothing changed;
  - resume_replacing: a run started with --overwrite over a complete run and interrupted
    is not resumed over it unasked: `hamon resume DIR` is refused before it samples, naming
    the complete run and `hamon resume DIR --overwrite`, which finishes and replaces it;
  - ensemble_overwrite: an ensemble's instances/ are hamon's: --overwrite replaces a
    complete ensemble (saying what it holds) and discards an interrupted one, and refuses,
    changing nothing, one holding a user's file among its instances;
  - follow_suggestions: from every interrupted state (a run, a run while it tunes, an
    extension, an ensemble, a training run) a new `hamon run` / `hamon train` into it is
    refused; each command the refusal suggests, run on a copy of the state, either
    completes or refuses with nothing changed, and none loses a complete run (the one an
    extension extends is in DIR afterwards, as it was or extended)."""

import os
import re
import shutil
import signal
import subprocess
import time

import clitest
import stop_signals
import train_run

TIMING = re.compile(rb"^\s*(total_s|sampling_s|checkpoint_s|spin_updates_per_ns|seconds):")
ROUNDS = 2000
EXTRA = 20000  # long enough that the signal lands while the extension runs


def experiment(path, out="run"):
    with open(path, "w") as f:
        f.write(f"""seed: 11
model:
  kind: lattice
  shape: [8, 8]
  periodic: true
  coupling: {{distribution: gaussian, seed: 3}}
nrpt:
  chains: 4
  beta_max: 1.2
  rounds: {ROUNDS}
  burn_in: 50
output:
  dir: {out}
  samples: {{every: 5, nodes: all}}
  checkpoint: {{every: 50}}
""")
    return path


def tree(directory):
    """{relative path: bytes} of every file under `directory` (None for a directory)."""
    out = {}
    for root, dirs, files in os.walk(directory):
        for name in dirs:
            out[os.path.relpath(os.path.join(root, name), directory) + "/"] = None
        for name in files:
            with open(os.path.join(root, name), "rb") as f:
                out[os.path.relpath(os.path.join(root, name), directory)] = f.read()
    return out


def results(directory):
    """A run's bits: its files, summary.yaml without its timing lines."""
    files = tree(directory)
    files["summary.yaml"] = b"\n".join(line for line in files["summary.yaml"].split(b"\n")
                                       if not TIMING.match(line))
    return files


def beside(directory):
    """What a command left next to `directory`: DIR.partial, DIR.restore-*, DIR.old-*."""
    parent, base = os.path.split(os.path.abspath(directory))
    return sorted(n for n in os.listdir(parent) if n.startswith(base + "."))


def interrupt(hamon, args, cwd, marker, sig=signal.SIGINT, env=None):
    """Starts `hamon ARGS` in `cwd`, sends `sig` once `marker` exists: (status, stderr)."""
    p = subprocess.Popen([hamon] + args, cwd=cwd, env=env or clitest.clean_env(),
                         stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, errors="replace")
    deadline = time.monotonic() + 300
    while not os.path.exists(os.path.join(cwd, marker)) and p.poll() is None and \
            time.monotonic() < deadline:
        time.sleep(0.001)
    p.send_signal(sig)
    _, err = p.communicate(timeout=600)
    return p.returncode, err


def hamon_ok(failures, hamon, args, cwd, what):
    r = clitest.run(hamon, args + ["--quiet"], cwd=cwd, timeout=600)
    return failures.check(r.returncode == 0, f"{what}: exit {r.returncode}: {r.stderr}")


def complete_run(failures, hamon, work):
    """work/run, complete; its tree."""
    experiment(os.path.join(work, "small.yaml"))
    hamon_ok(failures, hamon, ["run", "small.yaml", "--device", "serial"], work, "the run")
    return tree(os.path.join(work, "run"))


def interrupted_extension(failures, hamon, work):
    """work/run complete, then extended and interrupted: the complete run's tree, stderr."""
    complete = complete_run(failures, hamon, work)
    rc, err = interrupt(hamon, ["extend", "run", "--rounds", str(EXTRA), "--device", "serial"],
                        work, "run.partial")
    failures.check(rc == 3, f"interrupted extend: exit {rc}, want 3: {err!r}")
    return complete, err


def extended_reference(failures, hamon, work):
    """The bits of the complete run extended without an interruption."""
    ref = os.path.join(work, "reference")
    os.makedirs(ref)
    complete_run(failures, hamon, ref)
    hamon_ok(failures, hamon, ["extend", "run", "--rounds", str(EXTRA), "--device", "serial"],
             ref, "the uninterrupted extension")
    return results(os.path.join(ref, "run"))


def points_at_resume_and_abandon(failures, what, text):
    for words in ("hamon resume run", "hamon extend run --abandon"):
        failures.check(words in text, f"{what}: {words!r} not in {text!r}")


def case_extend_resume(failures, hamon, work):
    want = extended_reference(failures, hamon, work)
    _, err = interrupted_extension(failures, hamon, work)
    points_at_resume_and_abandon(failures, "the stop message", err)
    again = clitest.run(hamon, ["run", "small.yaml"], cwd=work)
    failures.check(again.returncode == 2, f"a new run into it: exit {again.returncode}")
    points_at_resume_and_abandon(failures, "a new run into it", again.stderr)
    failures.check("--overwrite" not in again.stderr,
                   f"a new run into it suggests --overwrite: {again.stderr!r}")
    hamon_ok(failures, hamon, ["resume", "run", "--device", "serial"], work, "resume")
    got = results(os.path.join(work, "run"))
    failures.check(got == want, "resumed extension differs from the uninterrupted one: " +
                   str(sorted(n for n in set(got) | set(want) if got.get(n) != want.get(n))))
    failures.check(beside(os.path.join(work, "run")) == [],
                   f"left beside the run: {beside(os.path.join(work, 'run'))}")


def case_extend_abandon(failures, hamon, work):
    want = extended_reference(failures, hamon, work)
    complete, _ = interrupted_extension(failures, hamon, work)
    r = clitest.run(hamon, ["extend", "run", "--abandon"], cwd=work)
    failures.check(r.returncode == 0 and f"{ROUNDS} rounds" in r.stdout,
                   f"--abandon: exit {r.returncode}: {r.stdout!r} {r.stderr!r}")
    got = tree(os.path.join(work, "run")) if os.path.isdir(os.path.join(work, "run")) else {}
    failures.check(got == complete, "after --abandon DIR is not the complete run: " +
                   str(sorted(n for n in set(got) | set(complete)
                              if got.get(n) != complete.get(n))))
    failures.check(beside(os.path.join(work, "run")) == [],
                   f"left beside the run: {beside(os.path.join(work, 'run'))}")
    hamon_ok(failures, hamon, ["extend", "run", "--rounds", str(EXTRA), "--device", "serial"],
             work, "extend after --abandon")
    failures.check(results(os.path.join(work, "run")) == want,
                   "extended after --abandon: not the uninterrupted extension's bits")


def case_extend_overwrite(failures, hamon, work):
    interrupted_extension(failures, hamon, work)
    partial = os.path.join(work, "run.partial")
    before = tree(partial)
    for command in ("run", "validate"):
        r = clitest.run(hamon, [command, "small.yaml", "--overwrite"], cwd=work)
        failures.check(r.returncode == 2, f"{command} --overwrite: exit {r.returncode}")
        failures.check(f"{ROUNDS} rounds" in r.stderr and "--abandon" in r.stderr,
                       f"{command} --overwrite does not name the complete run: {r.stderr!r}")
        failures.check(tree(partial) == before and not os.path.exists(os.path.join(work, "run")),
                       f"{command} --overwrite changed the interrupted extension")
    hamon_ok(failures, hamon, ["extend", "run", "--abandon"], work, "--abandon")
    r = clitest.run(hamon, ["run", "small.yaml", "--overwrite", "--quiet", "--rounds", "100"],
                    cwd=work)
    failures.check(r.returncode == 0 and f"holds a complete run ({ROUNDS} rounds" in r.stderr,
                   f"--overwrite of a complete run does not say what it replaces: {r.stderr!r}")


def unchanged(failures, what, work, before, r):
    failures.check(r.returncode == 2, f"{what}: exit {r.returncode}, want 2: {r.stderr!r}")
    failures.check(tree(work) == before, f"{what}: the directories changed")


def case_abandon_refusals(failures, hamon, work):
    complete_run(failures, hamon, work)
    before = tree(work)
    r = clitest.run(hamon, ["extend", "run", "--abandon"], cwd=work)
    unchanged(failures, "--abandon of a complete run", work, before, r)
    failures.check("no interrupted extension" in r.stderr, f"message: {r.stderr!r}")
    for args in (["extend", "run"], ["extend", "run", "--abandon", "--rounds", "5"]):
        unchanged(failures, " ".join(args), work, before, clitest.run(hamon, args, cwd=work))

    plain = os.path.join(work, "plain")
    os.makedirs(plain)
    experiment(os.path.join(plain, "small.yaml"))
    rc, _ = interrupt(hamon, ["run", "small.yaml", "--device", "serial", "--rounds", "200000"],
                      plain, os.path.join("run.partial", "checkpoint.bin.prev"))
    failures.check(rc == 3, f"interrupted run: exit {rc}")
    before = tree(plain)
    r = clitest.run(hamon, ["extend", "run", "--abandon"], cwd=plain)
    unchanged(failures, "--abandon of an interrupted run", plain, before, r)
    failures.check("not an interrupted extension" in r.stderr and "hamon resume run" in r.stderr,
                   f"message: {r.stderr!r}")

    ext = os.path.join(work, "ext")
    os.makedirs(ext)
    interrupted_extension(failures, hamon, ext)
    before = tree(ext)
    unchanged(failures, "extend --rounds over an interrupted extension", ext, before,
              clitest.run(hamon, ["extend", "run", "--rounds", "5"], cwd=ext))
    os.makedirs(os.path.join(ext, "run"))
    with open(os.path.join(ext, "run", "notes.txt"), "w") as f:
        f.write("mine\n")
    before = tree(ext)
    r = clitest.run(hamon, ["extend", "run", "--abandon"], cwd=ext)
    unchanged(failures, "--abandon with DIR taken", ext, before, r)
    failures.check("not empty" in r.stderr, f"message: {r.stderr!r}")
    shutil.rmtree(os.path.join(ext, "run"))
    os.remove(os.path.join(ext, "run.partial", "before-extend", "energies.npy.header"))
    before = tree(ext)
    r = clitest.run(hamon, ["extend", "run", "--abandon"], cwd=ext)
    unchanged(failures, "--abandon with a damaged record", ext, before, r)
    failures.check("energies.npy.header" in r.stderr, f"message: {r.stderr!r}")


def case_resume_replacing(failures, hamon, work):
    complete = complete_run(failures, hamon, work)
    longer = ["--device", "serial", "--rounds", str(EXTRA)]
    rc, _ = interrupt(hamon, ["run", "small.yaml", "--overwrite"] + longer, work,
                      os.path.join("run.partial", "checkpoint.bin.prev"))
    failures.check(rc == 3, f"interrupted run --overwrite: exit {rc}")
    before = tree(work)
    r = clitest.run(hamon, ["resume", "run", "--quiet"], cwd=work)
    unchanged(failures, "resume of a run that would replace a complete one", work, before, r)
    failures.check(f"complete run ({ROUNDS} rounds" in r.stderr and
                   "hamon resume run --overwrite" in r.stderr, f"message: {r.stderr!r}")
    failures.check(tree(os.path.join(work, "run")) == complete, "the complete run changed")
    r = clitest.run(hamon, ["resume", "run", "--overwrite", "--quiet"], cwd=work, timeout=600)
    failures.check(r.returncode == 0 and f"holds a complete run ({ROUNDS} rounds" in r.stderr,
                   f"resume --overwrite: exit {r.returncode}: {r.stderr!r}")
    with open(os.path.join(work, "run", "config.yaml")) as f:
        failures.check(f"rounds: {EXTRA}" in f.read(), "resume --overwrite: not the new run")
    failures.check(beside(os.path.join(work, "run")) == [],
                   f"left beside the run: {beside(os.path.join(work, 'run'))}")


def ensemble_file(path, instances=3):
    with open(os.path.join(clitest.EXAMPLES_DIR, "ea3d_ensemble.yaml")) as f:
        text = f.read().replace("instances: 8", f"instances: {instances}")
    with open(path, "w") as f:
        f.write(re.sub(r"rounds: \d+", "rounds: 200", text))
    return path


def case_ensemble_overwrite(failures, hamon, work):
    ensemble_file(os.path.join(work, "ensemble.yaml"), instances=2)
    command = ["run", "ensemble.yaml", "--out", "run", "--device", "serial", "--quiet"]
    hamon_ok(failures, hamon, command[:-1], work, "the ensemble")
    mine = os.path.join(work, "run", "instances", "0", "notes.txt")
    with open(mine, "w") as f:
        f.write("mine\n")
    before = tree(work)
    r = clitest.run(hamon, command + ["--overwrite"], cwd=work)
    unchanged(failures, "--overwrite of an ensemble holding a user's file", work, before, r)
    failures.check("instances" in r.stderr, f"message: {r.stderr!r}")
    os.remove(mine)
    r = clitest.run(hamon, command + ["--overwrite"], cwd=work)
    failures.check(r.returncode == 0 and "an ensemble of 2 runs" in r.stderr,
                   f"--overwrite of a complete ensemble: exit {r.returncode}: {r.stderr!r}")
    failures.check(beside(os.path.join(work, "run")) == [],
                   f"left beside the ensemble: {beside(os.path.join(work, 'run'))}")
    rc, _ = interrupt(hamon, command + ["--overwrite"], work,
                      os.path.join("run.partial", "instances", "0.partial"))
    failures.check(rc == 3, f"interrupted ensemble: exit {rc}")
    r = clitest.run(hamon, command + ["--overwrite"], cwd=work, timeout=600)
    failures.check(r.returncode == 0 and "discarding the interrupted run" in r.stderr,
                   f"--overwrite of an interrupted ensemble: exit {r.returncode}: {r.stderr!r}")


SUGGESTION = re.compile(r"hamon (?:resume|extend) [^\s`;,)]+(?: --abandon)?")


def follow(failures, hamon, state, template, new_run, complete):
    """Runs each command the refusal of `new_run` in `template` suggests, on a copy."""
    r = clitest.run(hamon, new_run[1:], cwd=template)
    if not failures.check(r.returncode == 2, f"{state}: a new run into it: exit "
                          f"{r.returncode}: {r.stderr!r}"):
        return
    suggestions = [s.split() for s in SUGGESTION.findall(r.stderr)]
    if "--overwrite" in r.stderr:
        suggestions.append(new_run + ["--overwrite"])
    failures.check(any(s[1] == "resume" for s in suggestions),
                   f"{state}: no `hamon resume` suggested: {r.stderr!r}")
    for k, command in enumerate(suggestions):
        what = f"{state}: {' '.join(command)}"
        copy = os.path.join(os.path.dirname(template), f"{state}_{k}")
        shutil.copytree(template, copy, symlinks=True)
        before = tree(copy)
        done = clitest.run(hamon, command[1:] + ["--quiet"], cwd=copy, timeout=600)
        if done.returncode == 2:
            failures.check(tree(copy) == before, f"{what}: refused, but changed the directory")
        else:
            failures.check(done.returncode == 0, f"{what}: exit {done.returncode}: "
                           f"{done.stderr!r}")
        if complete is None:
            continue
        run = os.path.join(copy, "run")
        kept = os.path.join(copy, "run.partial", "before-extend", "summary.yaml")
        if os.path.isfile(kept):
            continue  # still the interrupted extension: checked unchanged above
        got = tree(run) if os.path.isdir(run) else {}
        # Extended: the complete run's rows (past the 128-byte .npy header) come first.
        extended = all(got.get(n, b"")[128:].startswith(complete[n][128:]) and
                       len(got[n]) > len(complete[n]) for n in ("samples.npy", "energies.npy"))
        extended = extended and "summary.yaml" in got
        failures.check(got == complete or extended, f"{what}: the complete run is lost")


def case_follow_suggestions(failures, hamon, work):
    env = clitest.clean_env(HAMON_CACHE_DIR=os.path.join(work, "cache"))
    states = {}
    # A run, stopped after its second checkpoint.
    d = os.path.join(work, "state_run")
    os.makedirs(d)
    experiment(os.path.join(d, "small.yaml"))
    interrupt(hamon, ["run", "small.yaml", "--device", "serial", "--rounds", "200000"], d,
              os.path.join("run.partial", "checkpoint.bin.prev"))
    states["run"] = (d, ["hamon", "run", "small.yaml"], None)
    # A run stopped while it tunes.
    d = os.path.join(work, "state_tuning")
    os.makedirs(d)
    config = stop_signals.tuning_config(os.path.join(d, "tuning.yaml"))
    interrupt(hamon, ["run", config, "--out", "run"] + stop_signals.SHORT, d,
              os.path.join("run.partial", "config.yaml"), env=env)
    states["tuning"] = (d, ["hamon", "run", config, "--out", "run"] + stop_signals.SHORT, None)
    # An extension of a complete run.
    d = os.path.join(work, "state_extend")
    os.makedirs(d)
    complete, _ = interrupted_extension(failures, hamon, d)
    states["extend"] = (d, ["hamon", "run", "small.yaml"], complete)
    # An ensemble, stopped once its first instance is under way.
    d = os.path.join(work, "state_ensemble")
    os.makedirs(d)
    ensemble_file(os.path.join(d, "ensemble.yaml"))
    ensemble = ["run", "ensemble.yaml", "--out", "run", "--device", "serial"]
    interrupt(hamon, ensemble, d, os.path.join("run.partial", "instances", "0.partial"))
    states["ensemble"] = (d, ["hamon"] + ensemble, None)
    # A training run, stopped once its first checkpoint is written.
    d = os.path.join(work, "state_training")
    os.makedirs(d)
    config = train_run.shortened(os.path.join(d, "train.yaml"), epochs=6)
    interrupt(hamon, ["train", config, "--out", "run"], d,
              os.path.join("run.partial", "checkpoint.bin"))
    states["training"] = (d, ["hamon", "train", config, "--out", "run"], None)
    for state, (template, new_run, complete) in states.items():
        failures.check(os.path.isdir(os.path.join(template, "run.partial")),
                       f"{state}: not interrupted (no run.partial)")
        follow(failures, hamon, state, template, new_run, complete)


def main():
    clitest.run_cases(__doc__, globals(), "interrupted states")


if __name__ == "__main__":
    main()
