#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""The progress display: on a terminal (stderr is a pty) `hamon run` draws rounds done,
rate, Lambda, minimum acceptance and ETA (a tuned run first says what it tunes, then the
plan); with --quiet, or when stderr is not a terminal, stderr stays empty."""

import os
import pty
import subprocess

import clitest


def run_on_pty(command, env):
    """Runs with stderr on a pseudo-terminal; returns (exit code, what it wrote there)."""
    master, slave = pty.openpty()
    process = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL, stderr=slave)
    os.close(slave)
    chunks = []
    while True:
        try:
            data = os.read(master, 4096)
        except OSError:  # EIO: the child closed the terminal
            break
        if not data:
            break
        chunks.append(data)
    os.close(master)
    return process.wait(timeout=120), b"".join(chunks).decode(errors="replace")


def main():
    args = clitest.arguments(__doc__)
    failures = clitest.Failures()
    config = os.path.join(clitest.EXAMPLES_DIR, "ising2d.yaml")
    env = clitest.clean_env()
    base = [args.hamon, "run", config, "--rounds", "3000", "--burn-in", "500"]

    code, shown = run_on_pty(base + ["--out", os.path.join(args.work, "tty")], env)
    failures.check(code == 0, f"run on a terminal exited {code}: {shown!r}")
    for word in ("rounds", "rounds/s", "Lambda", "min acc", "ETA", "3500/3500"):
        failures.check(word in shown, f"progress display lacks {word!r}: {shown[-300:]!r}")

    tuned = os.path.join(clitest.EXAMPLES_DIR, "autotune_ising2d.yaml")
    code, shown = run_on_pty([args.hamon, "run", tuned, "--rounds", "300", "--burn-in", "100",
                              "--out", os.path.join(args.work, "tuned")], env)
    failures.check(code == 0, f"tuned run on a terminal exited {code}: {shown!r}")
    for words in ("tuning chains, betas, explore_sweeps", "tuned: ", "sweeps/round", "400/400"):
        failures.check(words in shown, f"tuned progress display lacks {words!r}: {shown[-300:]!r}")

    code, shown = run_on_pty(base + ["--out", os.path.join(args.work, "quiet"), "--quiet"], env)
    failures.check(code == 0 and shown == "", f"--quiet on a terminal wrote {shown!r}")

    piped = clitest.run(args.hamon, base[1:] + ["--out", os.path.join(args.work, "piped")])
    failures.check(piped.returncode == 0 and piped.stderr == "",
                   f"stderr not a terminal: wrote {piped.stderr!r}")
    failures.finish("progress display")


if __name__ == "__main__":
    main()
