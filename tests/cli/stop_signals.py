#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Stop signals are handled from a command's first step, and every stop leaves a directory
that `hamon resume` continues:
  - SIGTERM / SIGINT while `hamon run` tunes (an empty tuning cache, a long tuning budget;
    signalled as soon as DIR.partial/config.yaml appears, before tuning starts): exit 3;
    a new `hamon run` into DIR points at `hamon resume`, which finishes the run;
  - SIGTERM / SIGINT while `hamon train` reads its data: the first data file is a named
    pipe, so the read blocks until the test writes the data, and the signal comes during
    loading for certain. Exit 3 with the update-0 checkpoint; resumed to the end. The
    finished training run is one --overwrite replaces, unless a user's file was added;
  - the first signal says on stderr that the command is stopping; a second one ends the
    process at once (its read still blocked);
  - SIGTERM while `hamon run` reads its experiment file (a named pipe too): exit 3 before
    tuning or sampling, DIR.partial holding config.yaml alone;
  - a sampling run stopped before sampling (DIR.partial holding config.yaml alone: that
    stop, a second Ctrl-C or a kill while it tuned) is started from the beginning by
    `hamon resume`, with the bits of an uninterrupted run; a training run without a
    checkpoint is not offered to `hamon resume` (which refuses it) but to --overwrite."""

import errno
import fcntl
import os
import re
import shutil
import signal
import subprocess
import time

import clitest
import train_run

STOPPING = "hamon: stopping at the next checkpoint"
TUNING_EXAMPLE = os.path.join(clitest.EXAMPLES_DIR, "autotune_ising2d.yaml")
SHORT = ["--rounds", "200", "--burn-in", "50"]


def wait_for(path, process, timeout=120):
    deadline = time.monotonic() + timeout
    while not os.path.exists(path) and process.poll() is None and time.monotonic() < deadline:
        time.sleep(0.01)
    return os.path.exists(path)


def tuning_config(path):
    with open(TUNING_EXAMPLE) as f:
        text = f.read()
    # Seconds of tuning on any machine: the signal lands while it runs.
    text = re.sub(r"tune_rounds: \d+", "tune_rounds: 3000", text)
    with open(path, "w") as f:
        f.write(text)
    return path


def stop_while_tuning(failures, hamon, work, sig):
    name = signal.Signals(sig).name
    config = tuning_config(os.path.join(work, "tuning.yaml"))
    out = os.path.join(work, f"tuned_{name}")
    env = clitest.clean_env(HAMON_CACHE_DIR=os.path.join(work, f"cache_{name}"))
    p = subprocess.Popen([hamon, "run", config, "--out", out, "--quiet"] + SHORT, env=env,
                         stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, errors="replace")
    seen = wait_for(os.path.join(out + ".partial", "config.yaml"), p)
    p.send_signal(sig)
    _, err = p.communicate(timeout=600)
    failures.check(seen, f"{name} while tuning: DIR.partial/config.yaml never appeared")
    failures.check(p.returncode == 3 and STOPPING in err and f"hamon resume {out}" in err,
                   f"{name} while tuning: exit {p.returncode}, stderr {err!r}")
    again = clitest.run(hamon, ["run", config, "--out", out, "--quiet"] + SHORT, env=env)
    failures.check(again.returncode == 2 and "hamon resume" in again.stderr,
                   f"{name}: a new run into the stopped one: {again.returncode} {again.stderr!r}")
    resumed = clitest.run(hamon, ["resume", out, "--quiet"], env=env, timeout=600)
    failures.check(resumed.returncode == 0 and os.path.isfile(os.path.join(out, "summary.yaml")),
                   f"{name}: resume after a stop while tuning: {resumed.returncode} "
                   f"{resumed.stderr!r}")


def open_pipe_for_writing(path, process, timeout=120):
    """The write end of the named pipe, once the process opened it to read (it is
    loading); None when it never did."""
    deadline = time.monotonic() + timeout
    while process.poll() is None and time.monotonic() < deadline:
        try:
            fd = os.open(path, os.O_WRONLY | os.O_NONBLOCK)
        except OSError as e:
            if e.errno != errno.ENXIO:  # ENXIO: no reader yet
                raise
            time.sleep(0.01)
            continue
        fcntl.fcntl(fd, fcntl.F_SETFL, fcntl.fcntl(fd, fcntl.F_GETFL) & ~os.O_NONBLOCK)
        return fd
    return None


def signal_while_reading(failures, process, pipe, sig, what):
    """Once `process` opened `pipe` to read (it is blocked there), sends `sig`; returns the
    pipe's write end and the line the handler wrote, or None (the process killed) when it
    never opened the pipe."""
    fd = open_pipe_for_writing(pipe, process)
    if not failures.check(fd is not None, f"{what}: hamon never opened its input"):
        process.kill()
        process.communicate()
        return None
    process.send_signal(sig)
    return fd, process.stderr.readline()  # written by the handler: the read is still blocked


def training_with_pipe(work, name):
    """A short training file whose first data file is a named pipe; (config, pipe, data)."""
    d = os.path.join(work, name)
    os.makedirs(d)
    data = os.path.join(train_run.MNIST, "digits_0.npy")
    pipe = os.path.join(d, "digits_0.npy")
    os.mkfifo(pipe)
    config = train_run.shortened(os.path.join(d, "train.yaml"), epochs=2)
    with open(config) as f:
        text = f.read().replace(data, pipe)
    with open(config, "w") as f:
        f.write(text)
    return config, pipe, data


def start_training(hamon, config, out):
    return subprocess.Popen([hamon, "train", config, "--out", out, "--quiet"],
                            env=clitest.clean_env(), stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE, errors="replace")


def stop_while_loading(failures, hamon, work, sig):
    name = signal.Signals(sig).name
    config, pipe, data = training_with_pipe(work, f"loading_{name}")
    out = os.path.join(work, f"trained_{name}")
    p = start_training(hamon, config, out)
    opened = signal_while_reading(failures, p, pipe, sig, f"{name} while loading")
    if opened is None:
        return
    fd, first = opened
    try:
        with open(data, "rb") as f:
            os.write(fd, f.read())
    except BrokenPipeError:
        pass  # the process died of the signal: reported below
    os.close(fd)
    _, err = p.communicate(timeout=600)
    failures.check(first.startswith(STOPPING), f"{name} while loading: first line {first!r}")
    failures.check(p.returncode == 3 and f"hamon resume {out}" in err,
                   f"{name} while loading: exit {p.returncode}, stderr {first + err!r}")
    if not failures.check(os.path.isfile(os.path.join(out + ".partial", "checkpoint.bin")),
                          f"{name} while loading: no checkpoint in DIR.partial"):
        return None
    # The same data, now from a file, for the rest of the run.
    os.remove(pipe)
    shutil.copyfile(data, pipe)

    # Without its checkpoint, the stopped run is not one `hamon resume` can continue.
    bare = os.path.join(work, f"bare_{name}")
    shutil.copytree(out + ".partial", bare + ".partial")
    for suffix in ("", ".new", ".prev"):
        path = os.path.join(bare + ".partial", "checkpoint.bin" + suffix)
        if os.path.exists(path):
            os.remove(path)
    blocked = clitest.run(hamon, ["train", config, "--out", bare])
    failures.check(blocked.returncode == 2 and "hamon resume" not in blocked.stderr and
                   "--overwrite" in blocked.stderr,
                   f"{name}: train over a run without checkpoint: {blocked.stderr!r}")
    refused = clitest.run(hamon, ["resume", bare])
    failures.check(refused.returncode == 2 and "--overwrite" in refused.stderr,
                   f"{name}: resume without checkpoint: {refused.returncode} {refused.stderr!r}")

    resumed = clitest.run(hamon, ["resume", out, "--quiet"], timeout=600)
    failures.check(resumed.returncode == 0 and os.path.isfile(os.path.join(out, "weights.npy")),
                   f"{name}: resume after a stop while loading: {resumed.stderr!r}")
    return config, out


def overwrite_training(failures, hamon, config, out):
    notes = os.path.join(out, "mynotes.txt")
    with open(notes, "w") as f:
        f.write("mine\n")
    before = sorted(os.listdir(out))
    refused = clitest.run(hamon, ["train", config, "--out", out, "--overwrite"])
    failures.check(refused.returncode == 2 and "mynotes.txt" in refused.stderr,
                   f"train --overwrite over a user's file: {refused.returncode} {refused.stderr!r}")
    failures.check(sorted(os.listdir(out)) == before, "a refused --overwrite changed DIR")
    os.remove(notes)
    replaced = clitest.run(hamon, ["train", config, "--out", out, "--overwrite", "--quiet"],
                           timeout=600)
    failures.check(replaced.returncode == 0 and not clitest.leftovers(out),
                   f"train --overwrite over an earlier training run: {replaced.stderr!r}")


def second_signal(failures, hamon, work):
    config, pipe, _ = training_with_pipe(work, "twice")
    out = os.path.join(work, "twice")
    p = start_training(hamon, config, out + "_run")
    opened = signal_while_reading(failures, p, pipe, signal.SIGINT, "second signal")
    if opened is None:
        return
    fd, first = opened
    p.send_signal(signal.SIGTERM)  # the data never comes: only the signal can end it
    _, err = p.communicate(timeout=120)
    os.close(fd)
    failures.check(first.startswith(STOPPING), f"second signal: first line {first!r}")
    failures.check(p.returncode == -signal.SIGTERM,
                   f"a second signal did not end the process at once: {p.returncode} {err!r}")
    failures.check(not clitest.leftovers(out + "_run"), "a process ended while loading left files")


def same_outputs(failures, what, whole, got):
    for name in ("betas.npy", "energies.npy", "index_process.npy", "samples.npy",
                 "checkpoint.bin"):
        a, b = os.path.join(whole, name), os.path.join(got, name)
        failures.check(os.path.isfile(b) and open(a, "rb").read() == open(b, "rb").read(),
                       f"{what}: {name} differs from the uninterrupted run")


def stop_while_reading_experiment(failures, hamon, work, whole):
    """The experiment file is a named pipe: the signal comes before the model exists."""
    with open(os.path.join(clitest.EXAMPLES_DIR, "graph_inline.yaml"), "rb") as f:
        text = f.read()
    pipe = os.path.join(work, "experiment.yaml")
    os.mkfifo(pipe)
    out = os.path.join(work, "early")
    p = subprocess.Popen([hamon, "run", pipe, "--out", out, "--quiet"] + SHORT,
                         env=clitest.clean_env(), stdout=subprocess.DEVNULL,
                         stderr=subprocess.PIPE, errors="replace")
    opened = signal_while_reading(failures, p, pipe, signal.SIGTERM, "reading the experiment")
    if opened is None:
        return
    fd, first = opened
    try:
        os.write(fd, text)
    except BrokenPipeError:
        pass  # the process died of the signal: reported below
    os.close(fd)
    _, err = p.communicate(timeout=120)
    failures.check(first.startswith(STOPPING) and p.returncode == 3 and
                   f"hamon resume {out}" in err,
                   f"SIGTERM while reading the experiment: exit {p.returncode} {first + err!r}")
    partial = out + ".partial"
    failures.check(os.path.isdir(partial) and os.listdir(partial) == ["config.yaml"],
                   "a stop before sampling leaves config.yaml alone: "
                   f"{os.listdir(partial) if os.path.isdir(partial) else None}")
    resumed = clitest.run(hamon, ["resume", out, "--device", "serial"])
    failures.check(resumed.returncode == 0 and "from the beginning" in resumed.stdout,
                   f"resume of a run stopped before sampling: {resumed.returncode} "
                   f"{resumed.stderr!r}")
    same_outputs(failures, "stopped before sampling, resumed", whole, out)


def from_the_beginning(failures, hamon, work):
    config = os.path.join(clitest.EXAMPLES_DIR, "graph_inline.yaml")
    whole = os.path.join(work, "whole")
    ref = clitest.run(hamon, ["run", config, "--out", whole, "--quiet", "--device", "serial"] +
                      SHORT)
    if not failures.check(ref.returncode == 0, f"uninterrupted run: {ref.stderr}"):
        return None
    # What a stop before sampling leaves: the resolved experiment alone.
    cut = os.path.join(work, "cut")
    os.makedirs(cut + ".partial")
    shutil.copyfile(os.path.join(whole, "config.yaml"), os.path.join(cut + ".partial",
                                                                     "config.yaml"))
    again = clitest.run(hamon, ["run", config, "--out", cut, "--quiet"] + SHORT)
    failures.check(again.returncode == 2 and f"hamon resume {cut}" in again.stderr,
                   f"a new run into a run without checkpoint: {again.stderr!r}")
    resumed = clitest.run(hamon, ["resume", cut, "--device", "serial"])
    failures.check(resumed.returncode == 0 and "from the beginning" in resumed.stdout,
                   f"resume without checkpoint: {resumed.returncode} {resumed.stderr!r}")
    same_outputs(failures, "started from the beginning", whole, cut)
    return whole


def main():
    args = clitest.arguments(__doc__)
    failures = clitest.Failures()
    whole = from_the_beginning(failures, args.hamon, args.work)
    if whole:
        stop_while_reading_experiment(failures, args.hamon, args.work, whole)
    second_signal(failures, args.hamon, args.work)
    for sig in (signal.SIGTERM, signal.SIGINT):
        stop_while_tuning(failures, args.hamon, args.work, sig)
        finished = stop_while_loading(failures, args.hamon, args.work, sig)
        if sig == signal.SIGTERM and finished:
            overwrite_training(failures, args.hamon, *finished)
    failures.finish("stop signals")


if __name__ == "__main__":
    main()
