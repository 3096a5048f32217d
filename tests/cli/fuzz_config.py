#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Fuzz-style robustness of the experiment parser: mutates the examples many ways (delete
keys, swap types, odd and random numbers, typos, truncation, garbage bytes, deep nesting,
extra keys — the tuning keys and `auto` among them) with a fixed seed and feeds every
mutant to `hamon validate`; a subset that validates and is small also goes through `hamon
run` (a few of them tuned). Every exit must be 0 or 2 — never a signal, never
another code — within a time limit; bad input must leave no run directory.

Mutants that fail are written to WORK/failures/ for reproduction."""

import copy
import os
import random
import resource
import shutil
import subprocess
import time

import yaml

import clitest

ODD_VALUES = [None, True, False, 0, 1, 2, 3, -1, -7, 2 ** 31, 2 ** 32, 2 ** 63, -2 ** 63,
              2 ** 64, 10 ** 30, 0.5, -0.5, 1e-300, 1e300, float("nan"), float("inf"),
              float("-inf"), "", "abc", "auto", "all", "gpu", "tpu", "none", "geometric",
              "constant", "graph", "rbm", "lattice", "~", "0x10", "1e6", "+3", "nan", [], {},
              [1, 2], [[0, 1, 1.0]], {"a": 1}, {"file": "nope.txt"},
              {"distribution": "gaussian", "std": -1}, "x" * 300]
GARBAGE = [b"\x00", b"\xff\xfe", b"\t", b"\r", b"\x1b[2J", b"&a", b"*a", b"!!binary ", b"? ",
           b"{", b"}", b"[", b"]", b":", b"- ", b"%YAML 1.2\n", b"---\n", b"...\n", b"'", b'"',
           b"|\n", b">\n", b"#", b"\xe2\x82\xac", b"\\u0000"]
MEMORY_LIMIT = 4 << 30  # bytes of address space per child: huge models fail, not the machine


def limit_memory():
    # AddressSanitizer reserves terabytes of shadow address space: under it (the asan test
    # preset sets ASAN_OPTIONS) an address-space cap would stop every child at start, so
    # HAMON_MEMORY_LIMIT bounds what hamon itself may plan to allocate instead.
    if "ASAN_OPTIONS" in os.environ:
        return
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_LIMIT, MEMORY_LIMIT))


def paths(node, prefix=()):
    """Every (path, value) in a YAML tree."""
    yield prefix, node
    if isinstance(node, dict):
        for k, v in node.items():
            yield from paths(v, prefix + (k,))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            yield from paths(v, prefix + (i,))


def set_at(tree, path, value):
    if not path:
        return value
    parent = tree
    for p in path[:-1]:
        parent = parent[p]
    parent[path[-1]] = value
    return tree


def delete_at(tree, path):
    if not path:
        return tree
    parent = tree
    for p in path[:-1]:
        parent = parent[p]
    del parent[path[-1]]
    return tree


def typo(word, rng):
    word = str(word)
    if not word:
        return "x"
    i = rng.randrange(len(word))
    op = rng.randrange(4)
    if op == 0:
        return word[:i] + word[i + 1:]
    if op == 1:
        return word[:i] + rng.choice("abcdefghijklmnopqrstuvwxyz_") + word[i:]
    if op == 2 and len(word) > 1:
        i = min(i, len(word) - 2)
        return word[:i] + word[i + 1] + word[i] + word[i + 2:]
    return word.upper()


def random_number(rng):
    # Small on purpose: a valid lattice of 10^7 nodes is legal but takes seconds to build,
    # and the absurd sizes are among ODD_VALUES.
    return rng.choice([rng.randint(-5, 64), rng.uniform(-3, 3), -rng.randint(1, 10 ** 6)])


def tree_mutation(tree, rng):
    items = list(paths(tree))
    path, value = rng.choice(items)
    kind = rng.randrange(7)
    if kind == 0 and path:                                   # delete a key / element
        return delete_at(tree, path)
    if kind == 1:                                            # an odd value
        return set_at(tree, path, copy.deepcopy(rng.choice(ODD_VALUES)))
    if kind == 2:                                            # a random number
        return set_at(tree, path, random_number(rng))
    if kind == 3:                                            # swap the type
        swapped = [value] if not isinstance(value, list) else (value[0] if value else {})
        return set_at(tree, path, swapped)
    if kind == 4 and path and isinstance(path[-1], str):     # rename a key (typo)
        parent = tree
        for p in path[:-1]:
            parent = parent[p]
        parent[typo(path[-1], rng)] = parent.pop(path[-1])
        return tree
    if kind == 5 and isinstance(value, dict):                # an extra key
        key = rng.choice(["extra", "tune", "chains", "rounds", "file", "seed", "kind", "betas",
                          "explore_sweeps", "max_chains", "target_acceptance", "tune_rounds"])
        value[key] = copy.deepcopy(rng.choice(ODD_VALUES + ["auto"] * 8))
        return tree
    if kind == 6 and isinstance(value, list) and value:      # duplicate / drop elements
        if rng.random() < 0.5:
            value.append(copy.deepcopy(rng.choice(value)))
        else:
            del value[rng.randrange(len(value)):]
        return tree
    return set_at(tree, path, random_number(rng))


def text_mutation(text, rng):
    data = text.encode()
    kind = rng.randrange(4)
    if kind == 0:                                            # truncate
        return data[:rng.randrange(len(data) + 1)]
    if kind == 1:                                            # garbage bytes
        i = rng.randrange(len(data) + 1)
        return data[:i] + rng.choice(GARBAGE) * rng.randint(1, 3) + data[i:]
    if kind == 2:                                            # random bytes
        i = rng.randrange(len(data) + 1)
        return data[:i] + bytes(rng.randrange(256) for _ in range(rng.randint(1, 8))) + data[i:]
    lines = data.split(b"\n")                                # shuffle / drop lines
    i = rng.randrange(len(lines))
    if rng.random() < 0.5:
        del lines[i]
    else:
        j = rng.randrange(len(lines))
        lines[i], lines[j] = lines[j], lines[i]
    return b"\n".join(lines)


def make_mutant(base_text, rng):
    if rng.random() < 0.35:
        return text_mutation(base_text, rng)
    tree = yaml.safe_load(base_text)
    for _ in range(rng.randint(1, 3)):
        try:
            tree = tree_mutation(tree, rng)
        except (KeyError, IndexError, TypeError):
            pass
    try:
        return yaml.safe_dump(tree, allow_unicode=True).encode()
    except yaml.YAMLError:
        return base_text.encode()


def estimated_work(validate_stdout):
    """Spin updates of a 25-round run, plus a rough bound on its tuning (chains x nodes x
    60 tune_rounds), from `hamon validate`'s report; (work, tuned), or None if unknown."""
    nodes = chains = sweeps = tune_rounds = None
    for line in validate_stdout.splitlines():
        words = line.split()
        if words[:1] == ["model"]:
            nodes = int(words[2])
        if words[:1] == ["nrpt"]:
            # "nrpt  16 chains, ..." or "nrpt  auto chains (at most 32), ..."
            chains = int(words[5].rstrip("),")) if words[1] == "auto" else int(words[1])
            given = words[words.index("sweeps/round") - 1]
            sweeps = 8 if given == "auto" else int(given)  # 8: the largest candidate
        if words[:1] == ["tuning"]:  # "tuning  chains, betas (tune_rounds 200)"
            tune_rounds = int(words[-1].rstrip(")"))
    if None in (nodes, chains, sweeps):
        return None
    work = nodes * chains * sweeps * 25
    if tune_rounds is not None:
        work += nodes * chains * tune_rounds * 60
    return work, tune_rounds is not None


def main():
    args = clitest.arguments(__doc__, lambda p: (
        p.add_argument("--mutations", type=int, default=600),
        p.add_argument("--runs", type=int, default=40),
        p.add_argument("--tuned-runs", type=int, default=5),
        p.add_argument("--seed", type=int, default=20261130),
        p.add_argument("--time-limit", type=float, default=90.0)))
    rng = random.Random(args.seed)
    failures = clitest.Failures()
    bases = {}
    for name in clitest.EXAMPLES:
        with open(os.path.join(clitest.EXAMPLES_DIR, name + ".yaml")) as f:
            bases[name] = f.read()
    shutil.copy(os.path.join(clitest.EXAMPLES_DIR, "graph_file.txt"), args.work)
    failed_dir = os.path.join(args.work, "failures")
    env = clitest.clean_env()
    if "ASAN_OPTIONS" in os.environ:  # no address-space cap (see limit_memory)
        env["HAMON_MEMORY_LIMIT"] = str(MEMORY_LIMIT)

    def record_failure(index, data, message):
        os.makedirs(failed_dir, exist_ok=True)
        path = os.path.join(failed_dir, f"mutant{index}.yaml")
        with open(path, "wb") as f:
            f.write(data)
        failures.check(False, f"mutant {index} ({path}): {message}")

    def invoke(command, index, data, timeout):
        try:
            return subprocess.run([args.hamon] + command, env=env, timeout=timeout,
                                  stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                  errors="replace", preexec_fn=limit_memory)
        except subprocess.TimeoutExpired:
            record_failure(index, data, f"{command[0]} did not finish in {timeout} s")
            return None

    started = time.monotonic()
    counts = {0: 0, 2: 0}
    runs = 0
    tuned_runs = 0
    deep = b"model: " + b"[" * 20000 + b"]" * 20000 + b"\n"
    for index in range(args.mutations):
        if time.monotonic() - started > args.time_limit:
            failures.check(False, f"time limit {args.time_limit} s reached after {index} mutants")
            break
        base = rng.choice(clitest.EXAMPLES)
        data = deep if index == 0 else make_mutant(bases[base], rng)
        path = os.path.join(args.work, "mutant.yaml")
        with open(path, "wb") as f:
            f.write(data)
        out = os.path.join(args.work, "out")
        result = invoke(["validate", path, "--out", out], index, data, 20)
        if result is None:
            continue
        if result.returncode not in (0, 2):
            what = (f"signal {-result.returncode}" if result.returncode < 0
                    else f"exit {result.returncode}")
            record_failure(index, data, f"validate: {what}; stderr: {result.stderr[-500:]!r}")
            continue
        counts[result.returncode] += 1
        if result.returncode == 2 and len(result.stderr.splitlines()) != 1:
            record_failure(index, data, f"validate: not one line of error: {result.stderr!r}")
        estimate = estimated_work(result.stdout) if result.returncode == 0 else None
        work, tunes = estimate if estimate is not None else (None, False)
        # Tuned mutants (a few; the cache under --work serves repeats) may do more work.
        affordable = work is not None and (work <= 100_000_000 and tuned_runs < args.tuned_runs
                                           if tunes else work <= 2_000_000)
        if runs < args.runs and affordable:
            runs += 1
            tuned_runs += tunes
            ran = invoke(["run", path, "--out", out, "--rounds", "20", "--burn-in", "5",
                          "--quiet"], index, data, 30)
            if ran is None:
                continue
            if ran.returncode != 0:
                record_failure(index, data, f"validated but run exited {ran.returncode}: "
                                            f"{ran.stderr[-500:]!r}")
            elif not os.path.isfile(os.path.join(out, "summary.yaml")):
                record_failure(index, data, "run exited 0 without summary.yaml")
            shutil.rmtree(out, ignore_errors=True)
        failures.check(not os.path.exists(out) and not clitest.leftovers(out),
                       f"mutant {index}: output left behind")
        shutil.rmtree(out, ignore_errors=True)
    print(f"{args.mutations} mutants: {counts[0]} valid, {counts[2]} rejected; "
          f"{runs} run ({tuned_runs} tuned); {time.monotonic() - started:.1f} s")
    failures.check(counts[0] + counts[2] >= 500 or args.mutations < 500, "fewer than 500 mutants")
    failures.check(counts[2] > 0 and counts[0] > 0, "mutants were all valid or all rejected")
    failures.finish("fuzz")


if __name__ == "__main__":
    main()
