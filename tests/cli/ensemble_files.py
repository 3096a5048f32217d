#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""An ensemble whose instances come from graph files (`instances: {files: ...}`):

  - a list of Ising graph files: instance k is the run of file k with the sampler seed
    derive_seed(seed, instance_sampler, k) (the documented rule): its results are, byte for
    byte, those of a hand-written single run of that file and seed; the count is the
    list's; the ensemble's config.yaml lists the files (absolute) and resumes from them;
  - a pattern with {k} over Potts graph files and over double-well (continuous) graph
    files: the count is the number of files 0, 1, ... found; `count: N` takes the first N;
  - bad input, each exit 2 with FILE:LINE:COL at the right key and nothing written (no DIR,
    no DIR.partial), for `run` and `validate`: a missing file in the list, a count that is
    not the list's, a pattern matching nothing, a pattern with a gap, a count beyond the
    pattern's files, a malformed file k (found before instance 0 runs), a lattice model,
    a model section that names a file."""

import os
import shutil

import numpy as np
import yaml

import clitest

NRPT = "nrpt: {chains: 4, beta_max: 1.2, rounds: 150, burn_in: 10}\n"
OUTPUT = "output: {samples: {every: 5}}\n"
RESULTS = ("energies.npy", "index_process.npy", "samples.npy", "betas.npy", "best_state.npy",
           "checkpoint.bin")


def ring(path, k, potts=""):
    """A ring of 8 nodes whose couplings depend on k (so the instances differ)."""
    rng = np.random.default_rng(k)
    with open(path, "w") as f:
        f.write("nodes 8\n" + potts)
        for i in range(8):
            f.write(f"edge {i} {(i + 1) % 8} {rng.choice([-1.0, 1.0]) * (1 + 0.1 * k)}\n")


def write(path, text):
    with open(path, "w") as f:
        f.write(text)
    return path


def load(path):
    with open(path) as f:
        return yaml.safe_load(f)


def same_results(failures, a, b, what):
    for name in RESULTS:
        with open(os.path.join(a, name), "rb") as x, open(os.path.join(b, name), "rb") as y:
            failures.check(x.read() == y.read(), f"{what}: {name} differs")


def check_list(args, failures, graphs):
    files = [os.path.join(graphs, f"ising_{k}.txt") for k in range(3)]
    config = write(os.path.join(args.work, "list.yaml"),
                   "seed: 21\ninstances:\n  files: [graphs/ising_0.txt, graphs/ising_1.txt, "
                   "graphs/ising_2.txt]\nmodel: {kind: graph}\n" + NRPT + OUTPUT)
    out = os.path.join(args.work, "list")
    result = clitest.run(args.hamon, ["run", config, "--out", out])
    if not failures.check(result.returncode == 0, f"list ensemble: {result.stderr}"):
        return
    failures.check("ensemble of 3 instances" in result.stdout, f"report: {result.stdout}")
    ensemble = load(os.path.join(out, "config.yaml"))
    failures.check(ensemble["instances"] == {"files": files} and "file" not in ensemble["model"],
                   f"the ensemble's config.yaml: {ensemble['instances']}, {ensemble['model']}")
    summary = load(os.path.join(out, "summary.yaml"))
    failures.check(summary["ensemble"]["instances"] == 3, "ensemble.instances is not 3")
    energies = []
    for k in range(3):
        instance = os.path.join(out, "instances", str(k))
        own = load(os.path.join(instance, "config.yaml"))
        failures.check(own["model"] == {"kind": "graph", "file": files[k]} and
                       own["seed"] == clitest.derive_seed(21, 7, k) and "instances" not in own,
                       f"instance {k}'s config.yaml: {own}")
        # The documented rule, written by hand: file k, sampler seed derive_seed(21, 7, k).
        alone_config = write(os.path.join(args.work, f"alone_{k}.yaml"),
                             f"seed: {clitest.derive_seed(21, 7, k)}\nmodel: "
                             f"{{kind: graph, file: "
                             f"{files[k]}}}\n" + NRPT + OUTPUT)
        alone = os.path.join(args.work, f"alone_{k}")
        result = clitest.run(args.hamon, ["run", alone_config, "--out", alone, "--quiet"])
        if failures.check(result.returncode == 0, f"alone {k}: {result.stderr}"):
            same_results(failures, alone, instance, f"instance {k} vs file {k} alone")
        energies.append(load(os.path.join(instance, "summary.yaml"))
                        ["observables"]["energy_per_node"]["mean"])
    failures.check(len(set(energies)) == 3, f"the instances' files do not make them differ: "
                                            f"{energies}")
    # Resumed from its own config.yaml (which lists the files): the same bytes.
    os.rename(out, out + ".partial")
    os.remove(os.path.join(out + ".partial", "summary.yaml"))
    shutil.rmtree(os.path.join(out + ".partial", "instances", "2"))
    result = clitest.run(args.hamon, ["resume", out, "--quiet"])
    if failures.check(result.returncode == 0, f"resume: {result.stderr}"):
        same_results(failures, os.path.join(args.work, "alone_2"),
                     os.path.join(out, "instances", "2"), "resumed instance 2")


def check_patterns(args, failures, graphs):
    for k in range(3):
        ring(os.path.join(graphs, f"potts_{k}.txt"), k, potts="potts 3\n")
    with open(os.path.join(clitest.EXAMPLES_DIR, "double_well_graph.txt")) as f:
        well = f.read()
    for k in range(2):
        write(os.path.join(graphs, f"well_{k}.txt"), well.replace("edge 0 1 0.3",
                                                                  f"edge 0 1 {0.3 + 0.2 * k}"))
    cases = (("potts", "kind: graph", "graphs/potts_{k}.txt", "", 3),
             ("potts_first", "kind: graph", "graphs/potts_{k}.txt", ", count: 2", 2),
             ("well", "kind: double_well", "graphs/well_{k}.txt", "", 2))
    for name, kind, pattern, count, expected in cases:
        config = write(os.path.join(args.work, name + ".yaml"),
                       f"seed: 4\ninstances: {{files: \"{pattern}\"{count}}}\nmodel: {{{kind}}}\n" +
                       NRPT + OUTPUT)
        out = os.path.join(args.work, name)
        result = clitest.run(args.hamon, ["run", config, "--out", out, "--quiet"])
        if not failures.check(result.returncode == 0, f"{name}: {result.stderr}"):
            continue
        listed = load(os.path.join(out, "config.yaml"))["instances"]["files"]
        wanted = [os.path.join(graphs, pattern[len("graphs/"):].replace("{k}", str(k)))
                  for k in range(expected)]
        failures.check(listed == wanted, f"{name}: the files {listed}, expected {wanted}")
        failures.check(sorted(os.listdir(os.path.join(out, "instances"))) ==
                       [str(k) for k in range(expected)], f"{name}: instances")
        energies = [load(os.path.join(out, "instances", str(k), "summary.yaml"))
                    ["observables"]["energy_per_node"]["mean"] for k in range(expected)]
        failures.check(len(set(energies)) == expected, f"{name}: instances alike: {energies}")


def check_bad_inputs(args, failures, graphs):
    ring(os.path.join(graphs, "gap_0.txt"), 0)
    ring(os.path.join(graphs, "gap_2.txt"), 2)
    write(os.path.join(graphs, "broken.txt"), "nodes 4\nedge 0 9 1.0\n")
    # (name, instances and model lines, line, column, key, words in the message)
    cases = (
        ("missing", "instances:\n  files: [graphs/ising_0.txt, graphs/nope.txt]\n"
         "model: {kind: graph}\n", 2, 31, "instances.files[1]", "nope.txt"),
        ("count_list", "instances: {files: [graphs/ising_0.txt, graphs/ising_1.txt], "
         "count: 3}\nmodel: {kind: graph}\n", 1, 69, "instances.count", "lists 2 files"),
        ("nothing", "instances: {files: \"graphs/none_{k}.txt\"}\nmodel: {kind: graph}\n",
         1, 20, "instances.files", "matches no file"),
        ("gap", "instances: {files: \"graphs/gap_{k}.txt\"}\nmodel: {kind: graph}\n",
         1, 20, "instances.files", "gap_1.txt"),
        ("count_pattern", "instances: {files: \"graphs/ising_{k}.txt\", count: 4}\n"
         "model: {kind: graph}\n", 1, 51, "instances.count", "ising_3.txt"),
        ("no_k", "instances: {files: graphs/ising_0.txt}\nmodel: {kind: graph}\n",
         1, 20, "instances.files", "{k}"),
        ("broken", "instances:\n  files: [graphs/ising_0.txt, graphs/broken.txt]\n"
         "model: {kind: graph}\n", 2, 31, "instances.files[1]", "broken.txt:2"),
        ("lattice", "instances: {files: \"graphs/ising_{k}.txt\"}\n"
         "model: {kind: lattice, shape: [4, 4]}\n", 1, 20, "instances.files", "graph"),
        ("model_file", "instances: {files: \"graphs/ising_{k}.txt\"}\n"
         "model: {kind: graph, file: graphs/ising_0.txt}\n", 2, 28, "model.file", "remove"),
        ("model_path", "instances: {files: \"graphs/ising_{k}.txt\"}\n"
         "model: graphs/model.yaml\n", 2, 8, "model", "model section with its kind"),
    )
    for name, head, line, column, key, words in cases:
        config = write(os.path.join(args.work, f"bad_{name}.yaml"), head + NRPT)
        out = os.path.join(args.work, f"bad_{name}")
        for command in ("validate", "run"):
            result = clitest.run(args.hamon, [command, config, "--out", out, "--quiet"]
                                 if command == "run" else [command, config, "--out", out])
            lines = result.stderr.strip().splitlines()
            match = clitest.LOCATED_ERROR.match(lines[-1]) if lines else None
            failures.check(
                result.returncode == 2 and match is not None and
                os.path.samefile(match["file"], config) and
                (int(match["line"]), int(match["column"])) == (line, column) and
                match["rest"].startswith(key + ":") and words in match["rest"],
                f"{name} ({command}): exit {result.returncode}, expected {line}:{column} {key} "
                f"with '{words}': {result.stderr}")
            failures.check(not os.path.exists(out) and not clitest.leftovers(out),
                           f"{name} ({command}) wrote {out}")


def main():
    args = clitest.arguments(__doc__)
    failures = clitest.Failures()
    graphs = os.path.join(args.work, "graphs")
    os.makedirs(graphs)
    for k in range(3):
        ring(os.path.join(graphs, f"ising_{k}.txt"), k)
    check_list(args, failures, graphs)
    check_patterns(args, failures, graphs)
    check_bad_inputs(args, failures, graphs)
    failures.finish("ensemble_files")


if __name__ == "__main__":
    main()
