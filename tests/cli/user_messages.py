#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""What a new user is told says what is wrong, where, and what works; one case each
(`--case NAME`, `--list`), every refusal leaving the run directory as it was:
  - output_dir_creatable: `validate` finds an output.dir that cannot be created (on a file
    system that takes no directories, /proc), as `run` would, with file:line:col;
  - training_complete: `resume` and `extend` of a complete training run say what works
    instead, and not `extend`; its suggestion (`hamon run` of the trained model) runs;
  - validate_overwrite: `validate` takes the --overwrite its own refusal suggests, and
    checks as `run --overwrite` would;
  - yaml_tab: a tab in the indentation is named a tab, at its own file:line:col;
  - training_rows: the training and held-out row counts read as such;
  - graph_file_order: a graph file's first error is the one reported (a conflicting
    repeated edge before a bad field)."""

import os

import numpy as np

import clitest

LATTICE = "model: {kind: lattice, shape: [4, 4]}\n"
NRPT = "nrpt:\n  chains: 4\n  beta_max: 1.0\n  rounds: 20\n"


def write(path, text):
    with open(path, "w") as f:
        f.write(text)
    return path


def located_line(failures, label, result, file, line=None, column=None):
    """The one located error line of a refused command (exit 2), or None."""
    lines = result.stderr.splitlines()
    if not failures.check(result.returncode == 2 and len(lines) == 1,
                          f"{label}: exit {result.returncode}, stderr {result.stderr!r}"):
        return None
    match = clitest.LOCATED_ERROR.match(lines[0])
    if not failures.check(match is not None and match["file"] == file,
                          f"{label}: not located in {file}: {lines[0]!r}"):
        return None
    if line is not None:
        failures.check((int(match["line"]), int(match["column"])) == (line, column),
                       f"{label}: at {match['line']}:{match['column']}, expected "
                       f"{line}:{column}: {lines[0]!r}")
    return lines[0]


def training_file(work, out="trained"):
    """A training run of a few seconds: two classes of 20 rows of 8 units, 5 held out each."""
    rng = np.random.default_rng(7)
    for k in range(2):
        np.save(os.path.join(work, f"class{k}.npy"), (rng.random((20, 8)) < 0.3 + 0.4 * k)
                .astype(np.uint8))
    return write(os.path.join(work, "train.yaml"), f"""train:
  data: {{files: [class0.npy, class1.npy], labels: true, heldout_fraction: 0.25}}
  model: {{kind: rbm, hidden: 4}}
  epochs: 2
  batch: 10
  learning_rate: 0.01
  ladder: [0.5, 1.0]
  seed: 1
  monitor: {{every: 1, samples: 4, log_z: {{rungs: 4, rounds: 20, burn_in: 5}}}}
output: {{dir: {out}}}
""")


def case_output_dir_creatable(failures, hamon, work):
    out = "/proc/hamon-nope"
    if not os.path.isdir("/proc/self"):
        print("no /proc here: skipped")
        return
    config = write(os.path.join(work, "proc.yaml"), LATTICE + NRPT + f"output:\n  dir: {out}\n")
    for command in (["validate", config], ["run", config, "--quiet"]):
        result = clitest.run(hamon, command)
        line = located_line(failures, command[0], result, config, 7, 8)
        if line:
            failures.check("output.dir: cannot create '/proc/hamon-nope'" in line,
                           f"{command[0]}: {line!r}")


def case_training_complete(failures, hamon, work):
    train = training_file(work)
    made = clitest.run(hamon, ["train", train, "--quiet"], cwd=work, timeout=300)
    if not failures.check(made.returncode == 0, f"the training run: {made.stderr!r}"):
        return
    trained = os.path.join(work, "trained")
    before = clitest.contents(trained)
    for command in (["resume", "trained"], ["extend", "trained", "--rounds", "10"]):
        result = clitest.run(hamon, command, cwd=work)
        label = f"{command[0]} of a complete training run"
        failures.check(result.returncode == 2 and result.stdout == "",
                       f"{label}: exit {result.returncode}: {result.stderr!r}")
        failures.check("complete training run" in result.stderr and
                       "hamon extend" not in result.stderr and "hamon train" in result.stderr and
                       "trained/weights.npy" in result.stderr,
                       f"{label}: says {result.stderr!r}")
        failures.check(clitest.contents(trained) == before and not clitest.leftovers(trained),
                       f"{label}: changed the run")
    # What it suggests works: `hamon run` of the trained model.
    write(os.path.join(work, "sample.yaml"), """seed: 3
model:
  kind: rbm
  visible: 10
  hidden: 4
  weights: {file: trained/weights.npy}
  visible_bias: {file: trained/visible_bias.npy}
  hidden_bias: {file: trained/hidden_bias.npy}
nrpt: {chains: 2, beta_min: 0.9, beta_max: 1.0, rounds: 20}
output: {dir: sampled}
""")
    sampled = clitest.run(hamon, ["run", "sample.yaml", "--quiet"], cwd=work)
    failures.check(sampled.returncode == 0, f"sampling the trained model: {sampled.stderr!r}")


def case_validate_overwrite(failures, hamon, work):
    config = write(os.path.join(work, "run.yaml"), LATTICE + NRPT)
    out = os.path.join(work, "run")
    first = clitest.run(hamon, ["run", config, "--out", out, "--quiet"])
    if not failures.check(first.returncode == 0, f"the first run: {first.stderr!r}"):
        return
    before = clitest.contents(out)
    refused = clitest.run(hamon, ["validate", config, "--out", out])
    failures.check(refused.returncode == 2 and "pass --overwrite" in refused.stderr,
                   f"validate into an earlier run: {refused.returncode} {refused.stderr!r}")
    taken = clitest.run(hamon, ["validate", config, "--out", out, "--overwrite"])
    failures.check(taken.returncode == 0 and ": ok" in taken.stdout,
                   f"validate --overwrite: {taken.returncode} {taken.stderr!r}")
    # It checks as run --overwrite would: a user's file in the run is still refused.
    write(os.path.join(out, "notes.txt"), "mine\n")
    kept = clitest.run(hamon, ["validate", config, "--out", out, "--overwrite"])
    failures.check(kept.returncode == 2 and "notes.txt" in kept.stderr,
                   f"validate --overwrite over a user's file: {kept.returncode} {kept.stderr!r}")
    os.remove(os.path.join(out, "notes.txt"))
    failures.check(clitest.contents(out) == before and not clitest.leftovers(out),
                   "validate changed the run directory")
    train = training_file(work, out=os.path.join(work, "run"))
    result = clitest.run(hamon, ["validate", train, "--overwrite"])
    failures.check(result.returncode == 0,
                   f"validate --overwrite of a training file over a sampling run: "
                   f"{result.returncode} {result.stderr!r}")


def case_yaml_tab(failures, hamon, work):
    for text, where in ((LATTICE + "nrpt:\n\tchains: 4\n  beta_max: 1.0\n", (3, 1)),
                        (LATTICE + "nrpt:\n  chains: 4\n  \tbeta_max: 1.0\n", (4, 3)),
                        (LATTICE + NRPT.replace("  rounds", "\trounds"), (5, 1))):
        config = write(os.path.join(work, "tab.yaml"), text)
        line = located_line(failures, f"a tab at {where}", clitest.run(hamon, ["validate", config]),
                            config, *where)
        if line:
            failures.check("a tab in the indentation" in line, f"a tab at {where}: {line!r}")
    # A tab where YAML allows one (after the key) is no error.
    config = write(os.path.join(work, "tab_ok.yaml"), LATTICE + NRPT.replace("chains: 4",
                                                                              "chains:\t4"))
    ok = clitest.run(hamon, ["validate", config])
    failures.check(ok.returncode == 0, f"a tab after a key: {ok.stderr!r}")


def case_training_rows(failures, hamon, work):
    train = training_file(work)
    result = clitest.run(hamon, ["validate", train], cwd=work)
    failures.check(result.returncode == 0 and
                   "30 training rows (+ 10 held out)" in result.stdout,
                   f"validate of a training file: {result.returncode} {result.stdout!r} "
                   f"{result.stderr!r}")


def case_graph_file_order(failures, hamon, work):
    write(os.path.join(work, "g.txt"), "nodes 3\nedge 0 1 1.0\nedge 1 0 2.0\nfield 1 abc\n")
    config = write(os.path.join(work, "graph.yaml"),
                   "model: {kind: graph, file: g.txt}\n" + NRPT)
    line = located_line(failures, "graph file", clitest.run(hamon, ["validate", config], cwd=work),
                        config)
    if line:
        failures.check("g.txt:3: edge (0, 1) given again with coupling 2 (line 2 gave 1)" in line,
                       f"graph file: the conflicting edge on line 3 is not the error: {line!r}")


def main():
    clitest.run_cases(__doc__, globals(), "user messages")


if __name__ == "__main__":
    main()
