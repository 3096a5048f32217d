#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Checks that a change to hamon changes no output: every example's run directory, byte for
byte, timing fields aside.

    python3 tools/same_outputs.py --before OLD/bin/hamon --after build/bin/hamon
    python3 tools/same_outputs.py --backends build/bin/hamon [--examples ising2d rbm]

--before/--after runs every example (examples/*.yaml, or those --examples names) with both
binaries, each into a fresh directory of its own, and compares every file of the two run
directories (an ensemble's instances/ included). --backends runs each example with one
binary on Serial, on OpenMP with 1 thread and on OpenMP with 2 threads and compares the
three (the determinism the README promises). One line per example: `same`, or `DIFFERENT:`
with each file that differs and the first keys (YAML), columns (CSV), sections (checkpoint)
or elements (.npy) where it does. Exit status: 0 when everything matched, 1 when anything
differed or a run failed, 2 bad arguments.

What is compared: .npy and other files as bytes; summary.yaml, config.yaml and training.yaml
line by line as text, so a float that changes in its last digit counts; curves.csv cell by
cell; checkpoint.bin section by section, as bytes. Only the values IGNORED lists below are
left out (and, with --backends, BACKEND_IGNORED: what names the space on purpose).

How the examples run: `hamon run EXAMPLE --out NAME --quiet` in a fresh temporary
directory per binary (or space), so the recorded output.dir is the same relative NAME;
training files (top level `train:`) through `hamon train`. The environment is the one the
tests use: no HAMON_DEVICE, thresholds or calibration file, OMP_PROC_BIND=false,
OMP_NUM_THREADS=--threads (default 1), and the tuning cache off (an empty HAMON_CACHE_DIR),
so a tuned example tunes in both runs. The sampling examples run as shipped (seconds each)
unless --rounds/--burn-in shorten all of them, identically for both sides; `hamon train`
has no length override, so a training file is run from a shortened copy (2 epochs, 150 rows
per data file, a 16-rung log Z) unless --full-training. The output says so when either
happens. Nothing is written outside the temporary directory, which is removed at the end
(--keep DIR keeps the run directories in DIR instead, for a look at what differs).

`explore_sweeps: auto` (in `tune: auto`, autotune_ising2d.yaml) picks the sweeps per round
by effective samples per wall-second, so a loaded machine can flip that choice, and with it
every later bit, between two runs of one binary. Such an example runs again on every side
(up to TIMED_TRIES times in all) until every side has a run with the same choice, and those
runs are compared; the line says when it took more than one try, or that no try agreed.

Standard library only (python3 >= 3.6). CTest runs --backends on three short examples
(cli.same_outputs.backends) and checks that another seed on one side is caught
(cli.same_outputs.catches), in tests/cli/CMakeLists.txt.
"""

import argparse
import difflib
import os
import re
import shlex
import struct
import subprocess
import sys
import tempfile

SOURCE_DIR = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
EXAMPLES_DIR = os.path.join(SOURCE_DIR, "examples")

# Every value left out of the comparison: (file, key, why). `file` is a file name (any
# directory, an ensemble's instances too); `key` a dotted YAML key path (its whole subtree),
# a CSV column, or in checkpoint.bin* a section field or an attachment and a line of it.
IGNORED = [
    ("summary.yaml", "timing", "wall-clock seconds of the run and the rate derived from them"),
    ("summary.yaml", "tuning.seconds", "wall-clock seconds of the tuning"),
    ("summary.yaml", "tuning.tuned_seconds", "wall-clock seconds of the tuning that made the plan"),
    ("summary.yaml", "tuning.cache_entry", "a path in the tuning cache directory"),
    ("summary.yaml", "hamon.version", "the program's version: a change may bump it"),
    ("summary.yaml", "hamon.build.kokkos", "the Kokkos version the program was built with"),
    ("summary.yaml", "training.seconds", "wall-clock seconds of the training"),
    ("summary.yaml", "training.seconds_per_epoch", "wall-clock seconds per epoch"),
    ("curves.csv", "seconds", "wall-clock seconds at each monitored epoch"),
    ("checkpoint.bin", "IDNT.hamon_version", "the version of the program that wrote it"),
    ("checkpoint.bin", "ATCH.plan.seconds", "wall-clock seconds of the tuning"),
    ("checkpoint.bin", "ATCH.plan.tuned_seconds", "wall-clock seconds of the tuning"),
    ("checkpoint.bin", "ATCH.plan.cache_entry", "a path in the tuning cache directory"),
    ("checkpoint.bin", "ATCH.training.seconds", "wall-clock seconds of the training so far"),
    ("checkpoint.bin", "ATCH.training.curves.seconds", "curves.csv's seconds column"),
    ("checkpoint.bin", "ATCH.training.base_dir", "a path: the training file's directory"),
    ("checkpoint.bin", "section CRC-32", "where the payload differs only in the above"),
]
# With --backends only: what says which space ran, on purpose (the command line's --device).
BACKEND_IGNORED = [
    ("config.yaml", "device", "the space asked for (--device serial / openmp)"),
    ("summary.yaml", "config.device", "the space asked for (--device serial / openmp)"),
    ("summary.yaml", "device", "how the device was resolved and the space that ran"),
    ("summary.yaml", "training.execution_space", "the space that ran"),
]
# No output holds a date, a host name or a thread count: nothing to leave out for those.

# The spaces --backends compares: (label, --device, OMP_NUM_THREADS).
BACKENDS = [("serial", "serial", "1"), ("openmp-1", "openmp", "1"), ("openmp-2", "openmp", "2")]
# How often an example whose sweeps per round are tuned by timing (explore_sweeps: auto)
# runs on every side, at most, until the sides' choices agree.
TIMED_TRIES = 8
# A shortened training file: (key pattern, replacement, what it says in the output).
TRAINING_SHORT = [(r"(\n\s*)epochs:\s*\d+", r"\1epochs: 2", "2 epochs"),
                  (r"(\n(\s*)heldout_fraction:[^\n]*)", r"\1\n\2rows_per_file: 150",
                   "150 rows per data file"),
                  (r"log_z:\s*\{[^}]*\}", "log_z: {rungs: 16, rounds: 100, burn_in: 20}",
                   "a 16-rung log Z of 100 rounds")]


def ignored_keys(file_name, backends):
    rules = IGNORED + (BACKEND_IGNORED if backends else [])
    plain = re.sub(r"\.(prev|new)$", "", file_name)  # checkpoint.bin.prev is a checkpoint
    return [key for name, key, _ in rules if name == plain]


# ---- YAML (as hamon writes it: block mappings, flow collections on one line) ------------

KEY_LINE = re.compile(r"^(?P<key>\"[^\"]*\"|[^\s#\-\[{\"'][^:]*?):(?P<rest>\s.*|)$")


def yaml_lines(text, ignored):
    """(key path, text) per line, the ignored keys' values masked and their children gone."""
    stack, out = [], []  # stack: (indent, key)
    for line in text.split("\n"):
        body = line.lstrip(" ")
        indent = len(line) - len(body)
        if not body or body.startswith("#"):
            out.append((".".join(k for _, k in stack), line))
            continue
        item = body.startswith("- ")
        while stack and (stack[-1][0] > indent or (stack[-1][0] == indent and not item)):
            stack.pop()
        parent = ".".join(k for _, k in stack)
        match = None if item else KEY_LINE.match(body)
        path = f"{parent}.{match['key']}".lstrip(".") if match else parent
        if any(parent == key or parent.startswith(key + ".") for key in ignored):
            continue  # inside an ignored block
        if match:
            stack.append((indent, match["key"]))
            if path in ignored:
                line = " " * indent + match["key"] + ": <ignored>"
            elif match["rest"].strip().startswith("{"):  # flow mapping: mask keys inside
                for key in ignored:
                    if key.startswith(path + ".") and "." not in key[len(path) + 1:]:
                        name = re.escape(key[len(path) + 1:])
                        line = re.sub(r"([{,]\s*" + name + r":\s*)[^,}]*", r"\1<ignored>", line)
        out.append((path, line))
    return out


def differing_keys(a_lines, b_lines):
    """The key paths of the lines that differ, in order, each once."""
    keys = []
    matcher = difflib.SequenceMatcher(None, [t for _, t in a_lines], [t for _, t in b_lines],
                                      autojunk=False)
    for op, i1, i2, j1, j2 in matcher.get_opcodes():
        if op != "equal":
            for path, _ in a_lines[i1:i2] + b_lines[j1:j2]:
                if (path or "(top)") not in keys:
                    keys.append(path or "(top)")
    return keys


def compare_yaml(a, b, ignored):
    return differing_keys(yaml_lines(a.decode(errors="replace"), ignored),
                          yaml_lines(b.decode(errors="replace"), ignored))


# ---- CSV (curves.csv) ------------------------------------------------------------------

def csv_cells(text, ignored):
    rows = [r.split(",") for r in text.split("\n")]
    header = rows[0] if rows else []
    masked = [k for k, name in enumerate(header) if name in ignored]
    return header, [[("<ignored>" if k in masked and r is not rows[0] else c)
                     for k, c in enumerate(r)] for r in rows]


def compare_csv(a, b, ignored):
    header, ra = csv_cells(a.decode(errors="replace"), ignored)
    _, rb = csv_cells(b.decode(errors="replace"), ignored)
    if len(ra) != len(rb):
        return [f"{len(ra)} rows against {len(rb)}"]
    keys, seen = [], set()
    for row, (x, y) in enumerate(zip(ra, rb)):
        for k in range(max(len(x), len(y))):
            if (x[k] if k < len(x) else None) != (y[k] if k < len(y) else None):
                name = header[k] if k < len(header) else f"column {k}"
                if name not in seen:  # each column once, at its first differing row
                    seen.add(name)
                    keys.append(f"{name} (row {row})")
    return keys


# ---- checkpoint.bin (core/hamon/core/sampler/checkpoint.hpp) ---------------------------

def checkpoint_sections(data):
    """[(tag, crc, payload)] after the 16-byte header, or None when it does not parse."""
    if data[:8] != b"HAMONCKP" or len(data) < 16:
        return None
    count, pos, sections = struct.unpack_from("<I", data, 12)[0], 16, []
    for _ in range(count):
        if pos + 16 > len(data):
            return None
        tag = data[pos:pos + 4].decode(errors="replace")
        length, crc = struct.unpack_from("<QI", data, pos + 4)
        sections.append((tag, crc, data[pos + 16:pos + 16 + length]))
        pos += 16 + length
    return sections if pos == len(data) else None


def texts(payload, count):
    """`count` length-prefixed texts (ByteWriter::text) from the payload, and the rest."""
    out, pos = [], 0
    for _ in range(count):
        n = struct.unpack_from("<Q", payload, pos)[0]
        out.append(payload[pos + 8:pos + 8 + n])
        pos += 8 + n
    return out, payload[pos:]


def masked_attachment(name, text, ignored):
    """An attachment's text with its ignored lines or columns masked."""
    if f"ATCH.{name}" in ignored:
        return b"<ignored>"
    words = {k[len(f"ATCH.{name}."):] for k in ignored if k.startswith(f"ATCH.{name}.")}
    if not words:
        return text
    if name.endswith("curves"):  # curves.csv's text
        _, rows = csv_cells(text.decode(errors="replace"), words)
        return "\n".join(",".join(r) for r in rows).encode()
    lines = text.decode(errors="replace").split("\n")  # "key value" lines (plan_record)
    return "\n".join(line.split(" ", 1)[0] + " <ignored>" if line.split(" ", 1)[0] in words
                     else line for line in lines).encode()


def masked_section(tag, payload, ignored):
    """A section's payload as compared: IDNT without the version, ATCH attachment by
    attachment (name -> text); any other section as it is."""
    try:
        if tag == "IDNT" and "IDNT.hamon_version" in ignored:
            return texts(payload, 1)[1]
        if tag == "ATCH":
            (count,) = struct.unpack_from("<Q", payload, 0)
            pairs, _ = texts(payload[8:], 2 * count)
            return {pairs[k].decode(errors="replace"):
                    masked_attachment(pairs[k].decode(errors="replace"), pairs[k + 1], ignored)
                    for k in range(0, len(pairs), 2)}
    except struct.error:
        pass
    return payload


def compare_checkpoint(a, b, ignored):
    sa, sb = checkpoint_sections(a), checkpoint_sections(b)
    if sa is None or sb is None:
        return compare_bytes(a, b)
    keys = [] if a[:16] == b[:16] else ["header (format version, section count)"]
    if [t for t, _, _ in sa] != [t for t, _, _ in sb]:
        return keys + [f"sections {[t for t, _, _ in sa]} against {[t for t, _, _ in sb]}"]
    for (tag, crc_a, pa), (_, crc_b, pb) in zip(sa, sb):
        if pa == pb:
            if crc_a != crc_b:
                keys.append(f"{tag} checksum")
            continue
        ma, mb = masked_section(tag, pa, ignored), masked_section(tag, pb, ignored)
        if isinstance(ma, dict) and isinstance(mb, dict):
            keys += [f"ATCH {n}" for n in sorted(set(ma) | set(mb)) if ma.get(n) != mb.get(n)]
        elif ma != mb:
            keys.append(f"section {tag}")
    return keys


# ---- .npy and other files --------------------------------------------------------------

def first_difference(a, b):
    n = min(len(a), len(b))
    lo = 0
    step = 1 << 16
    while lo < n and a[lo:lo + step] == b[lo:lo + step]:
        lo += step
    return next((k for k in range(lo, min(lo + step, n)) if a[k] != b[k]), n)


def compare_bytes(a, b):
    if a == b:
        return []
    at = first_difference(a, b)
    size = "" if len(a) == len(b) else f", {len(a)} bytes against {len(b)}"
    return [f"byte {at}{size}"]


def compare_npy(a, b):
    if a == b:
        return []
    if a[:6] != b"\x93NUMPY" or b[:6] != b"\x93NUMPY":
        return compare_bytes(a, b)
    width = 2 if a[6] == 1 else 4
    start = 8 + width + int.from_bytes(a[8:8 + width], "little")
    header = a[8 + width:start].decode(errors="replace")
    if a[:start] != b[:start]:
        other = b[8 + width:8 + width + int.from_bytes(b[8:8 + width], "little")]
        return [f"header {header.strip()} against {other.decode(errors='replace').strip()}"]
    item = re.search(r"'descr':\s*'[<>|]?[a-zA-Z](\d+)'", header)
    shape = re.search(r"'shape':\s*\(([^)]*)\)", header)
    at = first_difference(a, b) - start
    if not item or not shape:
        return [f"data byte {at}"]
    element = at // int(item.group(1))
    dims = [int(d) for d in shape.group(1).replace(",", " ").split()]
    if len(dims) == 2 and dims[1] > 0:
        return [f"row {element // dims[1]}, column {element % dims[1]}"]
    return [f"element {element}"]


def compare_file(name, a, b, ignored):
    if name.endswith(".yaml"):
        return compare_yaml(a, b, ignored)
    if name.endswith(".csv"):
        return compare_csv(a, b, ignored)
    if name.startswith("checkpoint.bin"):
        return compare_checkpoint(a, b, ignored)
    if name.endswith(".npy"):
        return compare_npy(a, b)
    return compare_bytes(a, b)


def files_under(root):
    out = []
    for here, _, names in os.walk(root):
        out += [os.path.relpath(os.path.join(here, n), root) for n in names]
    return sorted(out)


def compare_dirs(a, b, labels, backends):
    """["FILE: KEY, KEY"] for every file that differs between run directories a and b."""
    fa, fb = files_under(a), files_under(b)
    problems = [f"only in {labels[0]}'s: {f}" for f in fa if f not in fb]
    problems += [f"only in {labels[1]}'s: {f}" for f in fb if f not in fa]
    for rel in (f for f in fa if f in fb):
        with open(os.path.join(a, rel), "rb") as x, open(os.path.join(b, rel), "rb") as y:
            keys = compare_file(os.path.basename(rel), x.read(), y.read(),
                                ignored_keys(os.path.basename(rel), backends))
        if keys:
            more = f" (+{len(keys) - 4} more)" if len(keys) > 4 else ""
            problems.append(f"{rel}: {', '.join(keys[:4])}{more}")
    return problems


# ---- running ---------------------------------------------------------------------------

def environment(threads):
    env = dict(os.environ)
    for name in ("HAMON_DEVICE", "HAMON_DEVICE_THRESHOLD", "HAMON_HOST_THRESHOLD",
                 "HAMON_MEMORY_LIMIT", "KOKKOS_NUM_THREADS", "KOKKOS_DISABLE_WARNINGS"):
        env.pop(name, None)
    env.update(HAMON_CALIBRATION="", HAMON_CACHE_DIR="", OMP_NUM_THREADS=str(threads),
               OMP_PROC_BIND="false")
    return env


def is_training(path):
    with open(path) as f:
        return re.search(r"^train:", f.read(), re.M) is not None


def shortened_training(path, into):
    """A copy of training file `path` in directory `into`, shortened, its data paths made
    absolute (they are relative to the file). Returns (path, what was shortened)."""
    with open(path) as f:
        text = f.read()
    here = os.path.dirname(os.path.abspath(path))
    text = re.sub(r"(files:\s*\[)([^\]]*)\]", lambda m: m.group(1) + ", ".join(
        os.path.join(here, p.strip()) for p in m.group(2).split(",")) + "]", text)
    said = []
    for pattern, replacement, what in TRAINING_SHORT:
        text, n = re.subn(pattern, replacement, text, count=1)
        if n == 0:
            print(f"same_outputs: cannot shorten {path} ({what}): its keys have changed; "
                  "use --full-training", file=sys.stderr)
            sys.exit(2)
        said.append(what)
    copy = os.path.join(into, os.path.basename(path))
    with open(copy, "w") as f:
        f.write(text)
    return copy, ", ".join(said)


def run(side, example, config, workdir, opts):
    """Runs one example with one side (label, binary, device, threads, extra `hamon run`
    arguments) into workdir/example; returns an error line or None."""
    _, binary, device, threads, extra = side
    os.makedirs(workdir, exist_ok=True)
    if is_training(config):
        command = [binary, "train", config, "--out", example, "--quiet"]
    else:
        command = [binary, "run", config, "--out", example, "--quiet"] + opts["run"] + extra
    if device:
        command += ["--device", device]
    try:
        r = subprocess.run(command, cwd=workdir, env=environment(threads),
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           universal_newlines=True, timeout=opts["timeout"])
    except subprocess.TimeoutExpired:
        return f"{' '.join(command)}: no result in {opts['timeout']} s"
    if r.returncode != 0:
        return f"{' '.join(command)} exited {r.returncode}: {r.stderr.strip()[-400:]}"
    return None


def timed_sweeps(run_dir):
    """The sweeps per round a tuning chose by wall-clock timing (explore_sweeps: auto), or
    None: summary.yaml's tuning.plan.explore_sweeps when tuning.tuned names it."""
    path = os.path.join(run_dir, "summary.yaml")
    if not os.path.isfile(path):
        return None
    with open(path, "rb") as f:
        lines = dict(yaml_lines(f.read().decode(errors="replace"), []))
    if "explore_sweeps" not in lines.get("tuning.tuned", ""):
        return None
    return lines.get("tuning.plan.explore_sweeps", ":").split(":", 1)[1].strip()


def runs_to_compare(sides, example, config, root, opts):
    """Runs the example on every side; returns ({label: run dir}, errors, note). Where the
    sweeps per round are tuned by timing, runs every side again (TIMED_TRIES in all) until
    each side has a run with the same choice, and returns those runs."""
    made = {side[0]: [] for side in sides}
    for attempt in range(TIMED_TRIES):
        for side in sides:
            workdir = os.path.join(root, side[0] + (f".try{attempt + 1}" if attempt else ""))
            error = run(side, example, config, workdir, opts)
            if error:
                return None, [f"{side[0]}: {error}"], None
            made[side[0]].append(os.path.join(workdir, example))
        chosen = {label: [timed_sweeps(d) for d in dirs] for label, dirs in made.items()}
        if all(c is None for c in chosen[sides[0][0]]):
            return {label: dirs[0] for label, dirs in made.items()}, [], None
        common = [v for v in chosen[sides[0][0]] if all(v in c for c in chosen.values())]
        if common:
            note = None if attempt == 0 else (
                f"explore_sweeps: auto (chosen by timing) agreed on {common[0]} at try "
                f"{attempt + 1}")
            return {label: made[label][chosen[label].index(common[0])] for label in made}, [], note
    return ({label: dirs[0] for label, dirs in made.items()}, [],
            f"explore_sweeps: auto, chosen by wall-clock timing, differed in all "
            f"{TIMED_TRIES} tries ({chosen}): a change in the tuning, or a very loaded machine")


def compare_example(sides, example, config, root, opts, backends):
    """The example's line, and whether it is `same`."""
    dirs, errors, note = runs_to_compare(sides, example, config, root, opts)
    if errors:
        return f"{example}: FAILED: " + "; ".join(errors), False
    first = sides[0][0]
    problems, notes = [], {note} if note else set()
    for label, *_ in sides[1:]:
        found = compare_dirs(dirs[first], dirs[label], (first, label), backends)
        problems += [f"{first} vs {label}: {x}" if backends else x for x in found]
    return verdict(example, problems, notes), not problems


def verdict(example, problems, notes):
    """One line: same, or DIFFERENT: the first few files (and keys) that differ."""
    if not problems:
        return f"{example}: same" + "".join(f" ({n})" for n in sorted(notes))
    shown = problems[:6] + ([f"... {len(problems) - 6} more files"] if len(problems) > 6 else [])
    return f"{example}: DIFFERENT: " + "; ".join(shown + [f"note: {n}" for n in sorted(notes)])


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter,
                                epilog=__doc__.split("\n", 2)[2])
    p.add_argument("--before", metavar="BIN", help="hamon binary before the change")
    p.add_argument("--after", metavar="BIN", help="hamon binary after the change")
    p.add_argument("--backends", metavar="BIN", help="compare Serial, OpenMP 1 and 2 threads")
    p.add_argument("--examples", nargs="+", metavar="NAME",
                   help="example names (examples/NAME.yaml) or paths; default: every example")
    p.add_argument("--rounds", type=int, metavar="N",
                   help="--rounds N for every `hamon run` (both sides)")
    p.add_argument("--burn-in", type=int, metavar="N",
                   help="--burn-in N for every `hamon run` (both sides)")
    p.add_argument("--full-training", action="store_true",
                   help="run training files as shipped (minutes), not shortened")
    p.add_argument("--threads", type=int, default=1, metavar="N",
                   help="OMP_NUM_THREADS for --before/--after (default 1)")
    p.add_argument("--device", metavar="SPEC",
                   help="--device SPEC for both sides of --before/--after")
    p.add_argument("--before-args", default="", metavar="ARGS",
                   help="extra `hamon run` arguments, before only")
    p.add_argument("--after-args", default="", metavar="ARGS",
                   help="extra `hamon run` arguments, after only (e.g. \"--seed 7\", to see "
                   "the check catch a difference)")
    p.add_argument("--timeout", type=int, default=1800, metavar="S",
                   help="seconds per run (default 1800)")
    p.add_argument("--keep", metavar="DIR", help="keep the run directories in DIR (new)")
    a = p.parse_args()
    if bool(a.backends) == bool(a.before or a.after) or bool(a.before) != bool(a.after):
        p.error("give --before BIN --after BIN, or --backends BIN")
    # Absolute: the runs start in their own directories.
    binaries = [os.path.abspath(b) for b in ([a.backends] if a.backends else [a.before, a.after])]
    if a.backends:
        a.backends = binaries[0]
    else:
        a.before, a.after = binaries
    for b in binaries:
        if not (os.path.isfile(b) and os.access(b, os.X_OK)):
            p.error(f"{b}: not an executable")
    if a.keep and os.path.exists(a.keep) and os.listdir(a.keep):
        p.error(f"--keep {a.keep}: exists and is not empty")
    names = a.examples or sorted(f[:-5] for f in os.listdir(EXAMPLES_DIR) if f.endswith(".yaml"))
    configs = []
    for n in names:
        path = n if n.endswith(".yaml") else os.path.join(EXAMPLES_DIR, n + ".yaml")
        if not os.path.isfile(path):
            p.error(f"{n}: no such example ({path})")
        configs.append((os.path.basename(path)[:-5], os.path.abspath(path)))

    for b in binaries:
        version = subprocess.run([b, "--version"], stdout=subprocess.PIPE,
                                 universal_newlines=True).stdout.strip()
        print(f"same_outputs: {b}: {version}")
    if a.backends:  # the thread counts the runs get (no output records them)
        for label, _, threads in BACKENDS[1:]:
            said = subprocess.run([a.backends, "devices"], env=environment(threads),
                                  stdout=subprocess.PIPE, universal_newlines=True).stdout
            found = re.search(r"host_concurrency:\s*(\d+)", said)
            print(f"same_outputs: {label}: OMP_NUM_THREADS={threads}, OpenMP host_concurrency "
                  f"{found.group(1) if found else '(not reported)'}")
    run_args = [str(x) for k, v in (("--rounds", a.rounds), ("--burn-in", a.burn_in))
                if v is not None for x in (k, v)]
    if run_args:
        print(f"same_outputs: every `hamon run` shortened by {' '.join(run_args)}, "
              "the same for both sides")
    if a.before_args or a.after_args:
        print(f"same_outputs: before runs with [{a.before_args}], after with [{a.after_args}]")
    opts = {"run": run_args, "timeout": a.timeout}
    differ, failed = [], []
    with tempfile.TemporaryDirectory(prefix="same_outputs.") as scratch:
        root = os.path.abspath(a.keep) if a.keep else scratch
        os.makedirs(os.path.join(root, "inputs"), exist_ok=True)
        for example, config in configs:
            if is_training(config) and not a.full_training:
                config, said = shortened_training(config, os.path.join(root, "inputs"))
                print(f"same_outputs: {example}: training shortened ({said}; `hamon train` has "
                      "no length override), the same for both sides")
            if a.backends:
                sides = [(label, a.backends, device, threads, [])
                         for label, device, threads in BACKENDS]
            else:
                sides = [("before", a.before, a.device, a.threads, shlex.split(a.before_args)),
                         ("after", a.after, a.device, a.threads, shlex.split(a.after_args))]
            line, same = compare_example(sides, example, config, root, opts, bool(a.backends))
            print(line, flush=True)
            if not same:
                (failed if ": FAILED: " in line else differ).append(example)
        if a.keep:
            print(f"same_outputs: run directories kept in {root}")
    if not differ and not failed:
        print(f"same_outputs: every output the same ({len(configs)} examples)")
        return 0
    print(f"same_outputs: DIFFERENT: {' '.join(differ) or 'none'}; "
          f"FAILED: {' '.join(failed) or 'none'}")
    return 1


if __name__ == "__main__":
    sys.exit(main())
