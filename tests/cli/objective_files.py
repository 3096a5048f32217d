#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""QUBO and MAX-CUT files (model.kind qubo / maxcut) end to end, against exact oracles:

  - qubo_mapping: random small QUBOs (n = 1..10; integer and quarter-integer Q of both signs,
    zeros, with and without a 'variables N' line): for every one of the 2^n states,
    QUBO(x) == scale * E(s) + offset exactly, E computed from the run's realized model
    (model/model.graph, every number written to round-trip) and scale/offset from the
    summary. The data are multiples of 1/4 well inside double's precision, so no sum rounds
    and equality is exact, not approximate. The run's best_objective is the enumerated
    minimum, equals the QUBO of best_assignment.npy (uint8 0/1, the spins of best_state.npy
    mapped by x = (s + 1) / 2) and scale * best_energy + offset;
  - maxcut_bruteforce: random graphs (n = 2..12, integer weights of both signs, G-set format,
    edges in either orientation): the same identity for every state, and the run's
    best_objective is the maximum cut by enumeration and the cut of best_assignment.npy
    (node sides 0/1);
  - resume: a larger MAX-CUT run stopped (SIGTERM) and resumed, and one extended, write the
    bits of an uninterrupted run (best_assignment.npy included);
  - every failure of the files and of the model section: exit 2, one line naming the file,
    line and column, no run directory created and an existing run left as it was.

  objective_files.py --list | --case NAME ...
"""

import itertools
import os
import random
import sys

import numpy as np

import checkpoint_resume
import clitest

# n up to 10 QUBO, 12 MAX-CUT: every state is enumerated.
QUBO_SIZES = [1, 2, 3, 5, 7, 8, 10, 10]
MAXCUT_SIZES = [2, 3, 5, 8, 10, 12, 12]


def experiment(path, model, out, rounds=1500, extra=""):
    with open(path, "w") as f:
        f.write(f"""seed: 5
device: serial
model:
{model}
nrpt:
  chains: 10
  beta_min: 0.0
  beta_max: 4.0
  rounds: {rounds}
  burn_in: 100
  explore_sweeps: 2
{extra}output:
  dir: {out}
""")


def read_graph(path):
    """model.graph (the graph text format): n, edges {(i, j): J}, fields."""
    n, edges, fields = 0, [], {}
    with open(path) as f:
        for line in f:
            words = line.split("#")[0].split()
            if not words:
                continue
            if words[0] == "nodes":
                n = int(words[1])
            elif words[0] == "edge":
                edges.append((int(words[1]), int(words[2]), float(words[3])))
            elif words[0] == "field":
                fields[int(words[1])] = float(words[2])
            else:
                raise ValueError(f"{path}: unexpected line {line!r}")
    return n, edges, [fields.get(i, 0.0) for i in range(n)]


def ising_energy(graph, s):
    """E(s) = -(sum h_i s_i + sum J_ij s_i s_j), in plain Python floats."""
    _, edges, fields = graph
    e = 0.0
    for i, h in enumerate(fields):
        e += h * s[i]
    for i, j, coupling in edges:
        e += coupling * s[i] * s[j]
    return -e


def qubo_value(terms, x):
    return sum(q * x[i] * x[j] for i, j, q in terms)


def cut_value(edges, side):
    return sum(w for i, j, w in edges if side[i] != side[j])


def run_problem(hamon, work, name, kind, text, failures, rounds=1500):
    data = os.path.join(work, name + ".txt")
    with open(data, "w") as f:
        f.write(text)
    config = os.path.join(work, name + ".yaml")
    out = os.path.join(work, name)
    experiment(config, f"  kind: {kind}\n  file: {data}", out, rounds)
    summary = clitest.run_checked(hamon, config, out, name, failures)
    return None if summary is None else (out, summary)


def check_best(failures, name, out, summary, objective, optimum, to_assignment):
    """The run's best against the enumerated optimum and its own files."""
    search = summary["search"]
    best_state = np.load(os.path.join(out, "best_state.npy"))[0]
    assignment = np.load(os.path.join(out, "best_assignment.npy"))
    failures.check(assignment.dtype == np.uint8 and assignment.shape == best_state.shape,
                   f"{name}: best_assignment.npy {assignment.dtype} {assignment.shape}")
    failures.check(list(assignment) == [to_assignment(s) for s in best_state],
                   f"{name}: best_assignment.npy is not best_state.npy's spins mapped")
    failures.check(search["best_objective"] == objective(assignment),
                   f"{name}: best_objective {search['best_objective']} != the objective of "
                   f"best_assignment.npy {objective(assignment)}")
    failures.check(search["best_objective"] == optimum,
                   f"{name}: best_objective {search['best_objective']}, the optimum is {optimum}")
    o = search["objective"]
    failures.check(search["best_objective"] == o["scale"] * search["best_energy"] + o["offset"],
                   f"{name}: best_objective != scale * best_energy + offset: {search}")


def random_qubo(rng, n, quarters, declared):
    terms = []
    for i in range(n):
        for j in range(i, n):
            if i == j or rng.random() < 0.5:
                q = rng.randint(-12, 12)
                terms.append((i, j, q / 4 if quarters else float(q)))
    if all(i != 0 for i, _, _ in terms):
        terms.append((0, 0, 0.0))
    rng.shuffle(terms)  # any order of lines
    lines = ["# a random QUBO"] + ([f"variables {n}"] if declared else [])
    lines += [f"{i} {j} {q!r}  # Q_{i}{j}" for i, j, q in terms]
    return terms, "\n".join(lines) + "\n"


def check_problem(hamon, work, name, kind, text, n, objective, want, failures):
    """Runs the problem; checks the mapping over all 2^n states (x in {0,1}^n, s = 2x - 1)
    and the run's best against the enumerated optimum. `objective(x)` is the problem's value,
    `want` the summary's expected objective entries but for the offset (and for MAX-CUT the
    offset too). Returns the run directory, or None."""
    ran = run_problem(hamon, work, name, kind, text, failures)
    if ran is None:
        return None
    out, summary = ran
    o = summary["search"]["objective"]
    failures.check(all(o.get(key) == value for key, value in want.items()),
                   f"{name}: objective {o}, expected {want}")
    graph = read_graph(os.path.join(out, "model", "model.graph"))
    failures.check(graph[0] == n, f"{name}: {graph[0]} nodes, expected {n}")
    values = []
    for x in itertools.product((0, 1), repeat=n):
        value = objective(x)
        got = o["scale"] * ising_energy(graph, [2 * v - 1 for v in x]) + o["offset"]
        values.append(value)
        if not failures.check(got == value, f"{name}: x = {x}: the objective is {value!r}, "
                                            f"scale * E + offset = {got!r}"):
            break
    optimum = min(values) if want["goal"] == "minimise" else max(values)
    check_best(failures, name, out, summary, objective, optimum, lambda s: 1 if s > 0 else 0)
    return out


def case_qubo_mapping(hamon, work, failures):
    rng = random.Random(20261207)
    for k, n in enumerate(QUBO_SIZES):
        terms, text = random_qubo(rng, n, quarters=k % 2 == 1, declared=k % 3 != 2)
        name = f"qubo{k}_n{n}"
        out = check_problem(hamon, work, name, "qubo", text, n,
                            lambda x, terms=terms: qubo_value(terms, x),
                            {"name": "qubo_value", "goal": "minimise", "scale": 1.0}, failures)
        if out is not None and k == len(QUBO_SIZES) - 1:
            check_realized(hamon, work, name, out, failures)


def check_realized(hamon, work, name, out, failures):
    """The realized model (model/model.yaml, the Ising graph) samples the run's bits again."""
    config = os.path.join(work, name + "-again.yaml")
    again = os.path.join(work, name + "-again")
    experiment(config, "  " + os.path.join(out, "model", "model.yaml"), again)  # model: PATH
    result = clitest.run(hamon, ["run", config, "--quiet"], timeout=300)
    if not failures.check(result.returncode == 0, f"{name} again: {result.stderr.strip()}"):
        return
    for trace in ("energies.npy", "samples.npy", "best_state.npy", "index_process.npy"):
        with open(os.path.join(out, trace), "rb") as a, open(os.path.join(again, trace), "rb") as b:
            failures.check(a.read() == b.read(), f"{name}: {trace} differs when re-run from "
                                                 "the realized model")


def random_graph(rng, n):
    pairs = [(i, j) for i in range(n) for j in range(i + 1, n) if rng.random() < 0.45]
    if not pairs:
        pairs = [(0, 1)]
    edges = [(i, j, rng.choice([-3, -1, 1, 1, 2, 5])) for i, j in pairs]
    rng.shuffle(edges)
    lines = [f"{n} {len(edges)}"]
    for i, j, w in edges:
        a, b = (i, j) if rng.random() < 0.5 else (j, i)  # either orientation
        lines.append(f"{a + 1} {b + 1} {w}")
    return [(i, j, float(w)) for i, j, w in edges], "\n".join(lines) + "\n"


def case_maxcut_bruteforce(hamon, work, failures):
    rng = random.Random(7)
    for k, n in enumerate(MAXCUT_SIZES):
        edges, text = random_graph(rng, n)
        want = {"name": "cut_value", "goal": "maximise", "scale": -0.5,
                "offset": sum(w for _, _, w in edges) / 2}
        check_problem(hamon, work, f"maxcut{k}_n{n}", "maxcut", text, n,
                      lambda side, edges=edges: cut_value(edges, side), want, failures)


def case_resume(hamon, work, failures):
    """A 300-node G-set graph through checkpoint_resume's kill -9 / SIGTERM / extend cases."""
    rng = random.Random(3)
    n = 300
    pairs = set()
    while len(pairs) < 900:
        i, j = sorted(rng.sample(range(n), 2))
        pairs.add((i, j))
    data = os.path.join(work, "gset300.txt")
    with open(data, "w") as f:
        f.write(f"{n} {len(pairs)}\n")
        for i, j in sorted(pairs):
            f.write(f"{i + 1} {j + 1} {rng.choice([-1, 1])}\n")
    checkpoint_resume.stop_resume_extend_cases(hamon, work, rng, failures, "maxcut",
                                               f"  kind: maxcut\n  file: {data}")
    for d in ("maxcut_reference", "maxcut_killed", "maxcut_sigterm", "maxcut_extend"):
        failures.check(os.path.isfile(os.path.join(work, d, "run", "best_assignment.npy")),
                       f"resume: {d}/run has no best_assignment.npy")


QUBO_OK = "0 0 -1\n0 1 2\n1 1 -1\n"
GSET_OK = "3 2\n1 2 1\n2 3 1\n"


def bad(name, kind, data, line, column, fragment, model_extra="", located_in_data=True, env=None):
    """A case: the data file (or, not located_in_data, the experiment) is bad at line:column;
    `env`: variables set for hamon."""
    return dict(name=name, kind=kind, data=data, line=line, column=column, fragment=fragment,
                model_extra=model_extra, in_data=located_in_data, env=env or {})


FAILURES = [
    bad("qubo_two_fields", "qubo", "0 0 1\n0 1\n", 2, 3, "expected 'i j Q' (three fields), got 2"),
    bad("qubo_four_fields", "qubo", "0 0 1 7\n", 1, 7, "(three fields), got 4"),
    bad("qubo_bad_number", "qubo", "0 0 1\n0 1 x2\n", 2, 5, "expected Q (a number), got 'x2'"),
    bad("qubo_not_finite", "qubo", "0 0 nan\n", 1, 5, "Q must be finite"),
    bad("qubo_bad_index", "qubo", "0 0 1\n0 1.5 2\n", 2, 3, "expected an index (an integer)"),
    bad("qubo_negative_index", "qubo", "0 0 1\n-1 1 2\n", 2, 1, "index -1 out of range"),
    bad("qubo_lower_triangle", "qubo", QUBO_OK + "1 0 3\n", 4, 1, "i > j (1 > 0)"),
    bad("qubo_duplicate", "qubo", QUBO_OK + "# again\n0  1 5\n", 5, 1,
        "entry (0, 1) given twice (first on line 2)"),
    bad("qubo_out_of_range", "qubo", "variables 2\n0 0 1\n0 2 1\n", 3, 3,
        "index 2 out of range 0..1 (0-based, 'variables 2' on line 1)"),
    bad("qubo_one_based", "qubo", "1 1 -1\n1 2 2\n2 2 -1\n", 1, 1, "a 1-based file?"),
    bad("qubo_empty", "qubo", "# nothing\n", 0, 0, "no QUBO entries"),
    bad("qubo_bad_variables", "qubo", "variables two\n0 0 1\n", 1, 11,
        "expected the variable count N (an integer)"),
    bad("qubo_zero_variables", "qubo", "variables 0\n0 0 1\n", 1, 11, "the variable count must be"),
    bad("qubo_late_variables", "qubo", "0 0 1\nvariables 3\n", 2, 1, "may only be the first line"),
    bad("maxcut_bad_header", "maxcut", "3\n1 2 1\n", 1, 1, "expected a first line 'n m'"),
    bad("maxcut_header_number", "maxcut", "3 x\n", 1, 3, "expected the edge count m"),
    bad("maxcut_too_few_edges", "maxcut", "3 3\n1 2 1\n2 3 1\n", 1, 3,
        "the first line declares m = 3 edges, the file has 2"),
    bad("maxcut_too_many_edges", "maxcut", GSET_OK + "1 3 1\n", 4, 1,
        "more edges than the 2 the first line (line 1) declares"),
    bad("maxcut_index_zero", "maxcut", "3 2\n0 2 1\n2 3 1\n", 2, 1,
        "index 0 out of range 1..3 (G-set nodes are 1-based, n = 3)"),
    bad("maxcut_index_high", "maxcut", "3 2\n1 2 1\n2 4 1\n", 3, 3, "index 4 out of range 1..3"),
    bad("maxcut_self_loop", "maxcut", "3 2\n1 2 1\n3 3 1\n", 3, 1, "self-loop on node 3"),
    bad("maxcut_duplicate", "maxcut", "3 3\n1 2 1\n2 3 1\n2 1 4\n", 4, 1,
        "edge (2, 1) given twice (first on line 2)"),
    bad("maxcut_bad_weight", "maxcut", "3 2\n1 2 1\n2 3 one\n", 3, 5,
        "expected the weight w (a number), got 'one'"),
    bad("maxcut_bad_line", "maxcut", "3 2\n1 2\n2 3 1\n", 2, 3, "expected 'i j w' (three fields)"),
    bad("maxcut_empty", "maxcut", "", 0, 0, "empty file"),
    # The model section (the error names the experiment file).
    bad("missing_file_key", "qubo", None, 3, 3, "model: missing required key 'file'",
        located_in_data=False),
    bad("no_such_file", "maxcut", None, 4, 9, "model.file: cannot open MAX-CUT file",
        model_extra="  file: nowhere.txt\n", located_in_data=False),
    bad("extra_key", "qubo", QUBO_OK, 5, 3, "model.nodes: unknown key 'nodes'", model_extra="  nodes: 3\n",
        located_in_data=False),
    bad("potts", "maxcut", GSET_OK, 5, 10, "model.potts: Potts variables are for kind lattice",
        model_extra="  potts: 3\n", located_in_data=False),
    # n from the largest index: refused before the model is allocated (as 'nodes N' is).
    bad("too_large", "qubo", "0 0 1\n0 100000000 1\n", 4, 9,
        "model.file: " + "{data}: a model of 100000001 variables needs", located_in_data=False,
        env={"HAMON_MEMORY_LIMIT": "1G"}),
    bad("instances", "qubo", QUBO_OK, 2, 12, "instances: 2 instances would be copies of one model "
        "(a qubo file draws nothing)", located_in_data=False),
    bad("instance_files", "maxcut", GSET_OK, 2, 20, "a maxcut file is one problem",
        located_in_data=False),
]


def check_failure(hamon, work, c, failures):
    os.makedirs(work, exist_ok=True)
    data = os.path.join(work, "problem.txt")
    model = f"  kind: {c['kind']}\n"
    if c["data"] is not None:
        with open(data, "w") as f:
            f.write(c["data"])
        model += f"  file: {data}\n"
    model += c["model_extra"]
    config = os.path.join(work, "experiment.yaml")
    head = ""
    if c["name"] == "instances":
        head = "instances: 2\n"
    elif c["name"] == "instance_files":
        head = f"instances: {{files: [{data}, {data}]}}\n"
    # A complete earlier run in one output directory, none in the other: neither may change.
    kept = os.path.join(work, "kept")
    with open(config, "w") as f:
        f.write(f"seed: 1\n{head}model:\n{model}nrpt:\n  chains: 2\n  beta_max: 1.0\n"
                f"  rounds: 10\noutput:\n  dir: {kept}\n")
    earlier = os.path.join(work, "earlier.yaml")
    with open(earlier, "w") as f:
        f.write(f"seed: 1\nmodel: {{kind: lattice, shape: [3, 3]}}\nnrpt:\n  chains: 2\n"
                f"  beta_max: 1.0\n  rounds: 10\noutput:\n  dir: {kept}\n")
    made = clitest.run(hamon, ["run", earlier, "--quiet"])
    if not failures.check(made.returncode == 0, f"{c['name']}: earlier run: {made.stderr}"):
        return
    before = {n: open(os.path.join(kept, n), "rb").read() for n in sorted(os.listdir(kept))
              if os.path.isfile(os.path.join(kept, n))}
    fresh = os.path.join(work, "fresh")
    for command in (["validate", config], ["run", config, "--overwrite"],
                    ["run", config, "--out", fresh]):
        label = f"{c['name']} ({' '.join(command[:1] + command[2:])})"
        result = clitest.run(hamon, command, env=clitest.clean_env(**c["env"]))
        failures.check(result.returncode == 2,
                       f"{label}: exit {result.returncode}, expected 2; stderr {result.stderr!r}")
        lines = result.stderr.splitlines()
        if not failures.check(len(lines) == 1, f"{label}: expected one line on stderr: {lines}"):
            continue
        line = lines[0]
        fragment = c["fragment"].replace("{data}", data)
        failures.check(fragment in line, f"{label}: {fragment!r} not in {line!r}")
        where = data if c["in_data"] else config
        if c["line"] > 0:
            failures.check(line.startswith(f"{where}:{c['line']}:{c['column']}: error: "),
                           f"{label}: expected {where}:{c['line']}:{c['column']}, got {line!r}")
        else:
            failures.check(line.startswith(f"{where}: error: "), f"{label}: {line!r}")
        if c["in_data"]:
            failures.check(": error: model.file: " in line, f"{label}: key not named: {line!r}")
        failures.check(not os.path.exists(fresh), f"{label}: {fresh} was created")
        after = {n: open(os.path.join(kept, n), "rb").read() for n in sorted(os.listdir(kept))
                 if os.path.isfile(os.path.join(kept, n))}
        failures.check(after == before, f"{label}: the earlier run in {kept} was changed")
        failures.check(not clitest.leftovers(kept) and not clitest.leftovers(fresh),
                       f"{label}: staging left behind")


CASES = {"qubo_mapping": case_qubo_mapping, "maxcut_bruteforce": case_maxcut_bruteforce,
         "resume": case_resume}


def main():
    names = list(CASES) + ["fail_" + c["name"] for c in FAILURES]
    if "--list" in sys.argv:
        print(";".join(names))
        return
    args = clitest.arguments(__doc__, lambda p: p.add_argument("--case", action="append"))
    selected = args.case or names
    failures = clitest.Failures()
    for name in selected:
        work = os.path.join(args.work, name)
        os.makedirs(work, exist_ok=True)
        if name in CASES:
            CASES[name](args.hamon, work, failures)
            continue
        c = [c for c in FAILURES if "fail_" + c["name"] == name]
        if not failures.check(len(c) == 1, f"unknown case {name}"):
            continue
        check_failure(args.hamon, work, c[0], failures)
    failures.finish("objective files " + ", ".join(selected) if len(selected) < 4
                    else f"objective files ({len(selected)} cases)")


if __name__ == "__main__":
    main()
