#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Wall time of every example's default run against one thread and two OpenMP threads.

For each experiment in examples/ (and the training example), `hamon run FILE` (or
`hamon train`) as a new user starts it, in these modes:

  default   no OMP_* / KOKKOS_* thread variables, the file's device (auto): what a user gets
  serial    --device serial with OMP_NUM_THREADS=1 (one thread, the usual advice)
  omp2      --device openmp with OMP_NUM_THREADS=2 (OpenMP on two threads)
  before    the default run of another build (--before BINARY), e.g. the build before a change

idle, then with a second busy process (`yes > /dev/null`, one core's worth) beside it. The
modes are interleaved within each repeat; the table gives min and median of --repeats runs
(`before`: --before-repeats runs, each cut off at --before-timeout seconds). The floor is
met when default's median <= 1.2 x the smaller of serial's and omp2's medians (a cut-off run counts
as its cut-off time).

Long examples are shortened with --rounds/--burn-in (the ROUNDS table below; the training
example trains one epoch): the report says which. Every run writes into a fresh temporary
directory (the tuning cache too: the autotune example tunes every time, as a first run
does).

  python3 perf/tools/default_threads.py --out perf/results/default_threads/DATE-host.md \
      [--hamon build/bin/hamon] [--before OLD/hamon] [--repeats 3] [--only ising2d,...]
"""
import argparse
import datetime
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples"
# Examples run shorter than shipped (measured rounds, burn-in): the rest run as shipped.
ROUNDS = {"ea3d_spin_glass": (2000, 500)}
TRAINING = {"mnist_rbm"}
THREAD_VARS = ("OMP_NUM_THREADS", "KOKKOS_NUM_THREADS", "OMP_WAIT_POLICY", "OMP_PROC_BIND",
               "GOMP_SPINCOUNT", "HAMON_DEVICE", "HAMON_HOST_THRESHOLD", "HAMON_CALIBRATION")


def examples(only):
    names = sorted(p.stem for p in EXAMPLES.glob("*.yaml"))
    return [n for n in names if not only or n in only]


def shortened_training(tmp):
    """mnist_rbm.yaml with one epoch (its data paths made absolute)."""
    text = (EXAMPLES / "mnist_rbm.yaml").read_text()
    text = text.replace("data/mnist/", str(EXAMPLES / "data/mnist") + "/")
    text = text.replace("  epochs: 10", "  epochs: 1")
    text = text.replace("log_likelihood_every: 5", "log_likelihood_every: 1")
    path = Path(tmp) / "mnist_rbm_1epoch.yaml"
    path.write_text(text)
    return path


def command(binary, name, mode, out, tmp):
    if name in TRAINING:
        cmd = [binary, "train", str(shortened_training(tmp)), "--out", out, "--quiet"]
    else:
        cmd = [binary, "run", str(EXAMPLES / f"{name}.yaml"), "--out", out, "--quiet"]
        if name in ROUNDS:
            rounds, burn_in = ROUNDS[name]
            cmd += ["--rounds", str(rounds), "--burn-in", str(burn_in)]
    env = {k: v for k, v in os.environ.items() if k not in THREAD_VARS}
    env["HAMON_CALIBRATION"] = ""  # the built-in thresholds, not this machine's file
    env["HAMON_CACHE_DIR"] = str(Path(tmp) / f"cache-{time.monotonic_ns()}")
    if mode == "serial":
        cmd += ["--device", "serial"]
        env["OMP_NUM_THREADS"] = "1"
    elif mode == "omp2":
        cmd += ["--device", "openmp"]
        env["OMP_NUM_THREADS"] = "2"
    return cmd, env


def timed(cmd, env, timeout):
    start = time.monotonic()
    try:
        done = subprocess.run(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                              timeout=timeout, text=True)
    except subprocess.TimeoutExpired:
        return None
    if done.returncode != 0:
        sys.exit(f"failed ({done.returncode}): {' '.join(cmd)}\n{done.stderr}")
    return time.monotonic() - start


def placement_of(out):
    summary = Path(out) / "summary.yaml"
    if not summary.exists():
        return "?"
    lines = summary.read_text().splitlines()
    found = {}
    for line in lines:
        s = line.strip()
        for key in ("placement:", "execution_space:", "host_tier:"):
            if s.startswith(key) and key not in found:
                found[key] = s[len(key):].strip()
    text = found.get("execution_space:", found.get("placement:", "?"))
    tier = found.get("host_tier:", "")
    if "threads:" in tier:
        text += " (" + tier[tier.index("threads:"):].rstrip("}") + ")"
    if "cores busy" in tier:
        text += " (cores busy)"
    return text


def measure(args, names, load, tmp, log):
    rows = {}
    modes = ["default", "serial", "omp2"]
    for name in names:
        times = {m: [] for m in modes + ["before"]}
        chose = set()
        for rep in range(args.repeats):
            for mode in modes:
                out = str(Path(tmp) / f"{name}-{load}-{mode}-{rep}")
                cmd, env = command(args.hamon, name, mode, out, tmp)
                t = timed(cmd, env, args.timeout)
                times[mode].append(t)
                if mode == "default":
                    chose.add(placement_of(out))
                shutil.rmtree(out, ignore_errors=True)
                log(f"{load:5} {name:18} {mode:8} " +
                    (f"{t:8.3f} s" if t is not None else f"> {args.timeout} s"))
        if args.before:
            for rep in range(args.before_repeats):
                out = str(Path(tmp) / f"{name}-{load}-before-{rep}")
                cmd, env = command(args.before, name, "default", out, tmp)
                t = timed(cmd, env, args.before_timeout)
                times["before"].append(t)
                shutil.rmtree(out, ignore_errors=True)
                log(f"{load:5} {name:18} before   " +
                    (f"{t:8.3f} s" if t is not None else f"> {args.before_timeout} s"))
        rows[name] = (times, ", ".join(sorted(chose)))
    return rows


def fmt(values, timeout):
    """"min / median"; a run cut off counts as the cut-off time (the median is then a
    lower bound, marked >)."""
    if not values:
        return "", None
    done = [v if v is not None else timeout for v in values]
    med = statistics.median(done)
    cut = "> " if any(v is None for v in values) else ""
    if all(v is None for v in values):
        return f"> {timeout:.0f}", med
    return f"{min(done):.2f} / {cut}{med:.2f}", med


def table(rows, args):
    head = ("| example | default chose | default min / median | serial | omp2 | "
            "default / best | floor ≤ 1.2 |" + (" before (default) |" if args.before else ""))
    lines = [head, "|" + "---|" * (head.count("|") - 1)]
    verdicts = []
    for name, (times, chose) in rows.items():
        d, dm = fmt(times["default"], args.timeout)
        s, sm = fmt(times["serial"], args.timeout)
        o, om = fmt(times["omp2"], args.timeout)
        ratio = dm / min(sm, om)
        verdicts.append(ratio <= 1.2)
        label = name + (" (shortened)" if name in ROUNDS or name in TRAINING else "")
        line = (f"| {label} | {chose} | {d} | {s} | {o} | {ratio:.2f} | "
                f"{'yes' if ratio <= 1.2 else '**no**'} |")
        if args.before:
            b, _ = fmt(times["before"], args.before_timeout)
            line += f" {b} |"
        lines.append(line)
    return lines, verdicts


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--hamon", default=str(ROOT / "build/bin/hamon"))
    parser.add_argument("--before", help="another build's hamon: its default run, for comparison")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--before-repeats", type=int, default=1)
    parser.add_argument("--before-timeout", type=float, default=30.0)
    parser.add_argument("--timeout", type=float, default=60.0,
                        help="cut off a run after this many seconds (counted as that long)")
    parser.add_argument("--loads", default="idle,busy")
    parser.add_argument("--only", default="", help="comma-separated example names")
    parser.add_argument("--out", required=True, help="the Markdown record to write")
    args = parser.parse_args()
    names = examples(set(filter(None, args.only.split(","))))
    lscpu = subprocess.run(["lscpu"], capture_output=True, text=True).stdout
    model = next((l.split(":", 1)[1].strip() for l in lscpu.splitlines()
                  if l.startswith("Model name")), platform.processor())
    started = datetime.datetime.now(datetime.timezone.utc)
    log_lines = []

    def log(text):
        print(text, flush=True)
        log_lines.append(text)

    sections = []
    with tempfile.TemporaryDirectory(prefix="hamon-default-threads-") as tmp:
        for load in args.loads.split(","):
            before = Path("/proc/loadavg").read_text().split()[:3]
            busy = None
            if load == "busy":
                busy = subprocess.Popen(["yes"], stdout=subprocess.DEVNULL)
            try:
                rows = measure(args, names, load, tmp, log)
            finally:
                if busy:
                    busy.kill()
                    busy.wait()
            after = Path("/proc/loadavg").read_text().split()[:3]
            lines, verdicts = table(rows, args)
            sections.append((load, before, after, lines, verdicts))
    ended = datetime.datetime.now(datetime.timezone.utc)
    git = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--short", "HEAD"],
                         capture_output=True, text=True).stdout.strip()
    cpus = os.cpu_count()
    text = [f"# Default run against one and two threads, every example\n",
            f"- machine: {model}, {cpus} CPUs (`lscpu`), {platform.system()} "
            f"{platform.release()}",
            f"- date: {started:%Y-%m-%d %H:%M}–{ended:%H:%M} UTC",
            f"- code: `{git}` (`{args.hamon}`)" +
            (f"; before: `{args.before}`" if args.before else ""),
            f"- command: `python3 perf/tools/{Path(__file__).name} "
            + " ".join(sys.argv[1:]) + "`",
            f"- seconds, wall time of the whole process, min / median of {args.repeats} "
            f"(before: {args.before_repeats}); a run cut off at {args.timeout:.0f} s "
            f"(before: {args.before_timeout:.0f} s) counts as that long, marked >",
            ""]
    for load, before, after, lines, verdicts in sections:
        what = ("no load of ours (the machine is shared: other sessions' builds may run)"
                if load == "idle" else "beside `yes > /dev/null` (one busy core)")
        text += [f"## {load}: {what}", "",
                 f"1-minute load average {before[0]} before, {after[0]} after.", ""]
        text += lines
        text += ["", f"Floor met on {sum(verdicts)} of {len(verdicts)} examples.", ""]
    text += ["## Every run", "", "```"] + log_lines + ["```", ""]
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    Path(args.out).write_text("\n".join(text))
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
