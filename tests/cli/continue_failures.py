#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""`hamon extend` and `hamon resume` when they fail, checkpoint versions, and the writes
a run makes (`hamon run` / `resume` / `extend`):
  - a failed extend leaves DIR byte for byte as it was (every file's bytes, the listing,
    nothing left beside it): a samples.npy shorter than the checkpoint recorded and a
    corrupt checkpoint (refused before DIR is touched), and a file-size limit that makes a
    trace append fail after DIR became DIR.partial (rolled back); a later extend then
    gives the bits of a run configured longer from the start;
  - a failed resume leaves DIR.partial as it was (a trace shorter than the checkpoint,
    another beyond it) or resumable (a write failure while sampling);
  - errors name only the system error that happened (no stale errno text);
  - a checkpoint whose recorded hamon version differs continues the run (with a note, the
    same bits); one of another random-stream version is refused;
  - a due checkpoint at the final round is written once (counted with strace);
  - fsync failures (injected with strace) fail the run with the file named."""

import os
import re
import resource
import shutil
import struct
import subprocess
import zlib

import clitest

TIMING = re.compile(r"^\s*(total_s|sampling_s|checkpoint_s|spin_updates_per_ns|seconds):")


def experiment(path, rounds=300, every=50):
    with open(path, "w") as f:
        f.write(f"""seed: 11
model:
  kind: lattice
  shape: [8, 8]
  periodic: true
  coupling: {{distribution: gaussian, seed: 3}}
  field: {{distribution: gaussian, seed: 4, std: 0.3}}
nrpt:
  chains: 4
  beta_max: 1.2
  rounds: {rounds}
  burn_in: 50
  explore_sweeps: 1
output:
  dir: run
  samples: {{every: 5, nodes: all}}
  checkpoint: {{every: {every}}}
""")


snapshot = clitest.contents  # every entry of a directory and its bytes


def results(d):
    """What a run's bits are: every file, summary.yaml without its timing lines."""
    files = snapshot(d)
    files["summary.yaml"] = b"\n".join(line for line in files["summary.yaml"].split(b"\n")
                                       if not TIMING.match(line.decode()))
    return files


def beside(d):
    """The entries next to `d` that start with its name (DIR.partial, DIR.restore-*, ...)."""
    parent, base = os.path.split(os.path.abspath(d))
    return sorted(n for n in os.listdir(parent) if n.startswith(base) and n != base)


def fresh(work, name):
    d = os.path.join(work, name)
    shutil.rmtree(d, ignore_errors=True)
    os.makedirs(d)
    return d


def limited(hamon, args, cwd, limit):
    """hamon under a file-size limit (hamon ignores SIGXFSZ: a write past it fails)."""
    def small_files():
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))
    return subprocess.run([hamon] + args, cwd=cwd, env=clitest.clean_env(), errors="replace",
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          preexec_fn=small_files, timeout=120)


def forge_identity(path, hamon_version=None, stream_version=None):
    """Rewrites the IDNT section of a checkpoint (checkpoint.hpp's layout) and its CRC-32,
    as the checkpoint code computes it (zlib's)."""
    with open(path, "rb") as f:
        data = f.read()
    pos = 16  # magic, format version, section count
    while data[pos:pos + 4] != b"IDNT":
        length = struct.unpack_from("<Q", data, pos + 4)[0]
        pos += 16 + length
    length = struct.unpack_from("<Q", data, pos + 4)[0]
    payload = data[pos + 16:pos + 16 + length]
    n = struct.unpack_from("<Q", payload, 0)[0]
    version = payload[8:8 + n]
    rest = payload[8 + n:]
    if hamon_version is not None:
        version = hamon_version.encode()
    if stream_version is not None:
        rest = struct.pack("<I", stream_version) + rest[4:]
    new = struct.pack("<Q", len(version)) + version + rest
    frame = b"IDNT" + struct.pack("<QI", len(new), zlib.crc32(new) & 0xFFFFFFFF)
    with open(path, "wb") as f:
        f.write(data[:pos] + frame + new + data[pos + 16 + length:])


def strace_usable():
    try:
        return subprocess.run(["strace", "-f", "-qq", "-o", os.devnull, "true"],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                              timeout=30).returncode == 0
    except (OSError, subprocess.SubprocessError):
        return False


def traced(hamon, strace_args, args, cwd):
    # LeakSanitizer cannot run under ptrace (a sanitizer build's leak check stays off here).
    asan = ":".join(o for o in [os.environ.get("ASAN_OPTIONS", ""), "detect_leaks=0"] if o)
    return subprocess.run(["strace", "-f", "-qq"] + strace_args + [hamon] + args, cwd=cwd,
                          env=clitest.clean_env(ASAN_OPTIONS=asan), stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, errors="replace", timeout=300)


def main():
    args = clitest.arguments(__doc__)
    failures = clitest.Failures()
    hamon = args.hamon
    config = os.path.join(args.work, "e.yaml")
    experiment(config)
    longer = os.path.join(args.work, "longer.yaml")
    experiment(longer, rounds=500)
    ref = fresh(args.work, "reference")
    r = clitest.run(hamon, ["run", longer, "--quiet", "--device", "serial"], cwd=ref)
    if not failures.check(r.returncode == 0, f"reference run: {r.stderr}"):
        failures.finish("continue failures")
    want_longer = results(os.path.join(ref, "run"))
    base = fresh(args.work, "base")
    r = clitest.run(hamon, ["run", config, "--quiet", "--device", "serial"], cwd=base)
    failures.check(r.returncode == 0, f"base run: {r.stderr}")
    complete = os.path.join(base, "run")

    def same_as_longer(what, run_dir):
        """Every file of `run_dir` is the 500-round reference run's."""
        got = results(run_dir)
        failures.check(sorted(got) == sorted(want_longer), f"{what}: files {sorted(got)}")
        for n, data in want_longer.items():
            failures.check(got.get(n) == data, f"{what}: {n} differs from a run of 500 rounds")

    # ---- a failed extend leaves DIR as it was -------------------------------------------
    def extend_case(name, damage, limit=None, rc=None, words=()):
        d = fresh(args.work, "extend_" + name)
        shutil.copytree(complete, os.path.join(d, "run"))
        damage(os.path.join(d, "run"))
        before = snapshot(os.path.join(d, "run"))
        command = ["extend", "run", "--rounds", "200", "--quiet"]
        r = limited(hamon, command, d, limit) if limit else clitest.run(hamon, command, cwd=d)
        failures.check(r.returncode == rc, f"extend {name}: exit {r.returncode}, want {rc}: "
                       f"{r.stderr!r}")
        for w in words:
            failures.check(w in r.stderr, f"extend {name}: {w!r} not in {r.stderr!r}")
        after = snapshot(os.path.join(d, "run")) if os.path.isdir(os.path.join(d, "run")) else {}
        failures.check(sorted(after) == sorted(before),
                       f"extend {name}: DIR lists {sorted(after)}, was {sorted(before)}")
        for n, data in before.items():
            failures.check(after.get(n) == data, f"extend {name}: {n} changed")
        failures.check(beside(os.path.join(d, "run")) == [],
                       f"extend {name}: left beside DIR: {beside(os.path.join(d, 'run'))}")
        return d

    def cut_samples(d):
        path = os.path.join(d, "samples.npy")
        os.truncate(path, os.path.getsize(path) - 64)

    def flip_checkpoint(d):
        with open(os.path.join(d, "checkpoint.bin"), "r+b") as f:
            f.seek(60)
            byte = f.read(1)
            f.seek(60)
            f.write(bytes([byte[0] ^ 0xFF]))

    extend_case("short_samples", cut_samples, rc=2,
                words=["samples.npy: holds", "fewer than the", "rows the checkpoint recorded"])
    d = fresh(args.work, "errno_text")
    shutil.copytree(complete, os.path.join(d, "run"))
    cut_samples(os.path.join(d, "run"))
    r = clitest.run(hamon, ["extend", "run", "--rounds", "200", "--quiet"], cwd=d)
    failures.check("No such file" not in r.stderr and "(" not in r.stderr.split("recorded")[-1],
                   f"a short trace's error carries a system error that did not happen: "
                   f"{r.stderr!r}")
    extend_case("corrupt_checkpoint", flip_checkpoint, rc=2, words=["checksum"])
    # The limit lets config.yaml be rewritten but no trace grow: the extension fails while
    # sampling, after DIR was renamed to DIR.partial.
    limit = os.path.getsize(os.path.join(complete, "samples.npy"))
    failed = extend_case("write_fails_while_sampling", lambda d: None, limit=limit, rc=1,
                         words=["File too large"])
    r = clitest.run(hamon, ["extend", "run", "--rounds", "200", "--quiet"], cwd=failed)
    failures.check(r.returncode == 0, f"extend after the failed one: {r.stderr}")
    if r.returncode == 0:
        same_as_longer("extended after a failed extension", os.path.join(failed, "run"))

    # ---- a failed resume leaves DIR.partial as it was, or resumable -----------------------
    stopped = fresh(args.work, "stopped")
    shutil.copytree(complete, os.path.join(stopped, "run.partial"))
    for n in ("summary.yaml", "betas.npy"):
        os.remove(os.path.join(stopped, "run.partial", n))
    with open(os.path.join(stopped, "run.partial", "config.yaml")) as f:
        text = f.read()
    with open(os.path.join(stopped, "run.partial", "config.yaml"), "w") as f:
        f.write(text.replace("rounds: 300", "rounds: 500"))

    def resume_case(name, damage, limit=None, rc=None, words=(), unchanged=True):
        d = fresh(args.work, "resume_" + name)
        shutil.copytree(os.path.join(stopped, "run.partial"), os.path.join(d, "run.partial"))
        damage(os.path.join(d, "run.partial"))
        before = snapshot(os.path.join(d, "run.partial"))
        command = ["resume", "run", "--quiet"]
        r = limited(hamon, command, d, limit) if limit else clitest.run(hamon, command, cwd=d)
        failures.check(r.returncode == rc, f"resume {name}: exit {r.returncode}, want {rc}: "
                       f"{r.stderr!r}")
        for w in words:
            failures.check(w in r.stderr, f"resume {name}: {w!r} not in {r.stderr!r}")
        if unchanged:
            after = snapshot(os.path.join(d, "run.partial"))
            failures.check(sorted(after) == sorted(before), f"resume {name}: listing changed")
            for n, data in before.items():
                failures.check(after.get(n) == data, f"resume {name}: {n} changed")
        return d

    def short_energies_long_samples(d):
        # Rows past the checkpoint (a run killed between two) in one trace, and another
        # trace shorter than the checkpoint: refused before the first is cut back.
        with open(os.path.join(d, "samples.npy"), "ab") as f:
            f.write(bytes(64 * 3))
        path = os.path.join(d, "energies.npy")
        os.truncate(path, os.path.getsize(path) - 32)

    resume_case("short_trace", short_energies_long_samples, rc=2,
                words=["energies.npy: holds", "rows the checkpoint recorded"])
    d = resume_case("write_fails_while_sampling", lambda d: None, limit=limit, rc=1,
                    words=["File too large"], unchanged=False)
    r = clitest.run(hamon, ["resume", "run", "--quiet"], cwd=d)
    failures.check(r.returncode == 0, f"resume after the failed one: {r.stderr}")
    if r.returncode == 0:
        same_as_longer("resumed after a failed resume", os.path.join(d, "run"))

    # ---- checkpoint versions ----------------------------------------------------------
    d = fresh(args.work, "other_hamon_version")
    shutil.copytree(complete, os.path.join(d, "run"))
    forge_identity(os.path.join(d, "run", "checkpoint.bin"), hamon_version="0.0.1-forged")
    r = clitest.run(hamon, ["extend", "run", "--rounds", "200", "--quiet"], cwd=d)
    failures.check(r.returncode == 0 and "written by hamon 0.0.1-forged" in r.stderr,
                   f"another hamon version, same format and stream: exit {r.returncode}, "
                   f"{r.stderr!r}")
    if r.returncode == 0:
        same_as_longer("another hamon version", os.path.join(d, "run"))
    d = fresh(args.work, "other_stream_version")
    shutil.copytree(complete, os.path.join(d, "run"))
    forge_identity(os.path.join(d, "run", "checkpoint.bin"), stream_version=1)
    before = snapshot(os.path.join(d, "run"))
    r = clitest.run(hamon, ["extend", "run", "--rounds", "200", "--quiet"], cwd=d)
    failures.check(r.returncode == 2 and "the random-stream version differs" in r.stderr,
                   f"another random stream: exit {r.returncode}, {r.stderr!r}")
    failures.check(snapshot(os.path.join(d, "run")) == before, "another random stream: DIR changed")

    # ---- with strace: saves counted, fsync failures injected -----------------------------
    if not strace_usable():
        print("strace is not usable here: the save count and fsync failures are not checked")
        failures.finish("continue failures")
    # burn_in + rounds = 350, a multiple of every = 50: saves at rounds 0, 50, ..., 350.
    d = fresh(args.work, "save_count")
    trace = os.path.join(d, "strace.txt")
    r = traced(hamon, ["-e", "trace=rename,renameat,renameat2", "-o", trace],
               ["run", config, "--quiet", "--device", "serial"], d)
    failures.check(r.returncode == 0, f"traced run: {r.stderr}")
    with open(trace) as f:
        saves = sum(1 for line in f if re.search(r'checkpoint\.bin\.new", .*checkpoint\.bin"', line))
    failures.check(saves == 350 // 50 + 1, f"{saves} checkpoint saves, want {350 // 50 + 1}")

    d = fresh(args.work, "fsync_order")
    trace = os.path.join(d, "strace.txt")
    r = traced(hamon, ["-y", "-e", "trace=fsync", "-o", trace],
               ["run", config, "--quiet", "--device", "serial"], d)
    with open(trace) as f:
        synced = [m.group(1) for m in re.finditer(r"fsync\(\d+<([^>]*)>\)", f.read())]
    partial = os.path.join(os.path.realpath(d), "run.partial")
    # The config's temporary file, run.partial itself after its rename, ... and the
    # checkpoint's directory fsync: the second fsync of run.partial.
    which = {"config.yaml": 1, "its directory": 2}
    dir_syncs = [k + 1 for k, path in enumerate(synced) if path == partial]
    if failures.check(len(dir_syncs) >= 2 and synced[0].startswith(partial + "/config.yaml"),
                      f"fsyncs of a run: {synced[:8]}"):
        which["the checkpoint's directory"] = dir_syncs[1]
    for what, when in which.items():
        d = fresh(args.work, "fsync_" + str(when))
        r = traced(hamon, ["-o", os.devnull, "-e", "trace=fsync",
                           "-e", f"inject=fsync:error=EIO:when={when}"],
                   ["run", config, "--quiet", "--device", "serial"], d)
        failures.check(r.returncode == 1 and "fsync" in r.stderr and
                       "Input/output error" in r.stderr,
                       f"fsync of {what} fails (EIO): exit {r.returncode}, {r.stderr!r}")
    failures.finish("continue failures")


if __name__ == "__main__":
    main()
