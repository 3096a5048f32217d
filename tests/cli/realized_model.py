# SPDX-License-Identifier: Apache-2.0
"""A run directory's realized model (DIR/model/) re-creates the run, for every model kind.

For each kind (lattice Ising, 2D with the checkerboard and 3D odd with the greedy colouring;
lattice Potts; graph Ising and Potts with fields and clamps; an RBM with random weights and
biases, and one with a clamped visible layer; a Gaussian lattice; a double-well graph),
with every number that can be drawn drawn: run once, then run an experiment that differs
only in `model: RUN/model/model.yaml`. The oracle is exact: the second run's traces
(samples, energies, index process, betas, best state) are the first's byte for byte, and
its summary.yaml equals the first's but for the experiment it echoes (`config`, which names
the model file) and the wall-clock timings. The model files are checked for what the docs
promise (model.yaml's keys, model.graph's first line, the RBM's .npy shapes).

Bad references are refused before anything runs (exit status 2), naming the key and the
problem: a model file that is an experiment, a lattice whose shape, periodicity or variables
differ from the graph file's, a graph file beside `coupling`.

Failure and older directories:
  - an export that fails (the file size limit, RLIMIT_FSIZE, stops model.graph) fails the
    run with a message naming model/, and leaves DIR.partial with config.yaml alone: no
    model/, no half-written model.partial-*; `hamon resume` then starts it and writes model/;
  - a run directory without model/ (one an older hamon wrote): `hamon resume` of a stopped
    one gives the uninterrupted run's bits, `hamon extend` of a complete one works.
"""

import os
import resource
import shutil
import signal
import struct
import subprocess
import time

import yaml

import clitest

NRPT = "nrpt: {chains: 4, beta_min: 0.1, beta_max: 1.5, rounds: 300, burn_in: 20}\n"
OUTPUT = "output: {dir: %s, samples: {every: 1}}\n"

# kind name -> the model section (with every drawable number drawn).
MODELS = {
    "lattice_ising": """
  kind: lattice
  shape: [6, 6]
  coupling: {distribution: gaussian, std: 1.0, seed: 3}
  field: {distribution: gaussian, std: 0.5, mean: 0.1, seed: 4}
""",
    "lattice_ising_odd_3d": """
  kind: lattice
  shape: [3, 4, 5]
  coupling: {distribution: pm_one, seed: 13}
  field: {distribution: pm_one, value: 0.25, seed: 14}
""",
    "lattice_potts": """
  kind: lattice
  potts: 3
  shape: [6, 6]
  coupling: {distribution: pm_one, seed: 5}
  field: {distribution: gaussian, std: 0.3, seed: 6}
""",
    "graph_ising": """
  kind: graph
  nodes: 8
  edges: [[5, 2, 0.7], [0, 1, -1.25], [1, 2, 0.3333333333333333], [3, 0, 1e-3],
          [2, 3, -0.6], [4, 5, 2.0], [6, 7, 0.1], [7, 4, -0.9], [1, 6, 0.45]]
  field: [0.1, -0.2, 0.30000000000000004, 0.0, -0.0, 1e-300, 0.5, -0.7]
  clamped: {0: 1, 5: -1}
""",
    "graph_potts": """
  kind: graph
  potts: 3
  nodes: 6
  edges: [[0, 1, 1.0], [1, 2, -0.5], [2, 3, 0.75], [3, 4, 1.1], [4, 5, -0.2], [5, 0, 0.6],
          [0, 3, 0.4]]
  field: [[0.1, 0.0, -0.1], [0.2, 0.3, 0.0], [0.0, 0.0, 0.0], [-0.3, 0.1, 0.2],
          [0.0, 0.5, -0.5], [0.7, 0.0, 0.1]]
  clamped: {2: 1}
""",
    "rbm": """
  kind: rbm
  visible: 6
  hidden: 4
  random: {seed: 11, std: 0.7, bias_std: 0.5}
""",
    "rbm_clamped": """
  kind: rbm
  visible: 5
  hidden: 3
  random: {seed: 21, std: 0.9, bias_std: 0.3}
  clamped_visible: [1, -1, 1, 1, -1]
""",
    "gaussian": """
  kind: gaussian
  shape: [4, 4]
  coupling: {distribution: gaussian, std: 0.2, seed: 8}
  diag: {distribution: gaussian, mean: 3.0, std: 0.1, seed: 10}
  field: {distribution: gaussian, std: 0.5, seed: 9}
""",
    "double_well": """
  kind: double_well
  nodes: 6
  edges: [[0, 1, 0.3], [1, 2, -0.2], [2, 3, 0.25], [3, 4, 0.1], [4, 5, -0.3], [5, 0, 0.2]]
  barrier: {distribution: gaussian, mean: 1.0, std: 0.1, seed: 12}
  field: {distribution: gaussian, std: 0.2, seed: 15}
""",
}

TRACES = ["samples.npy", "energies.npy", "index_process.npy", "betas.npy", "best_state.npy"]


def write(path, text):
    with open(path, "w") as f:
        f.write(text)


def experiment(model_text, out_dir, seed=7, nrpt=NRPT):
    return f"seed: {seed}\ndevice: serial\nmodel:{model_text}" + nrpt + OUTPUT % out_dir


def npy_shape(path):
    """The shape in a .npy header (version 1)."""
    with open(path, "rb") as f:
        head = f.read(10)
        length = struct.unpack("<H", head[8:10])[0]
        header = f.read(length).decode("latin1")
    shape = header[header.index("(") + 1:header.index(")")]
    return tuple(int(x) for x in shape.split(",") if x.strip())


def summary_numbers(run_dir):
    with open(os.path.join(run_dir, "summary.yaml")) as f:
        summary = yaml.safe_load(f)
    for key in ("config", "timing"):  # the experiment as given; wall-clock seconds
        summary.pop(key, None)
    return summary


def check_model_files(failures, name, run_dir, model_text):
    model_dir = os.path.join(run_dir, "model")
    if not failures.check(os.path.isfile(os.path.join(model_dir, "model.yaml")),
                          f"{name}: no model/model.yaml in {os.listdir(run_dir)}"):
        return
    with open(os.path.join(model_dir, "model.yaml")) as f:
        section = yaml.safe_load(f)["model"]
    given = yaml.safe_load("model:" + model_text)["model"]
    failures.check(section["kind"] == given["kind"],
                   f"{name}: model.yaml kind {section['kind']}, the run's {given['kind']}")
    if "shape" in given:
        failures.check(section.get("shape") == given["shape"] and section.get("periodic") is True,
                       f"{name}: model.yaml shape {section.get('shape')} {section.get('periodic')}")
    failures.check(section.get("potts") == given.get("potts"),
                   f"{name}: model.yaml potts {section.get('potts')}")
    if given["kind"] == "rbm":
        v, h = given["visible"], given["hidden"]
        failures.check(sorted(os.listdir(model_dir)) ==
                       ["hidden_bias.npy", "model.yaml", "visible_bias.npy", "weights.npy"],
                       f"{name}: model/ holds {sorted(os.listdir(model_dir))}")
        for file, shape in (("weights.npy", (v, h)), ("visible_bias.npy", (v,)),
                            ("hidden_bias.npy", (h,))):
            got = npy_shape(os.path.join(model_dir, file))
            failures.check(got == shape, f"{name}: {file} has shape {got}, expected {shape}")
        failures.check(section.get("clamped_visible") == given.get("clamped_visible"),
                       f"{name}: clamped_visible {section.get('clamped_visible')}")
        return
    failures.check(sorted(os.listdir(model_dir)) == ["model.graph", "model.yaml"] and
                   section.get("file") == "model.graph",
                   f"{name}: model/ holds {sorted(os.listdir(model_dir))}, file {section.get('file')}")
    with open(os.path.join(model_dir, "model.graph")) as f:
        first = f.readline().split()
    failures.check(first[0] == "nodes", f"{name}: model.graph opens with {first}")


def same_runs(failures, what, a, b):
    for trace in TRACES:
        pa, pb = os.path.join(a, trace), os.path.join(b, trace)
        if not os.path.exists(pa) and not os.path.exists(pb):
            continue
        failures.check(os.path.isfile(pb) and open(pa, "rb").read() == open(pb, "rb").read(),
                       f"{what}: {trace} differs")
    failures.check(summary_numbers(a) == summary_numbers(b), f"{what}: summary.yaml differs")


def round_trips(failures, hamon, work):
    for name, model_text in MODELS.items():
        d = os.path.join(work, name)
        os.makedirs(d)
        write(os.path.join(d, "drawn.yaml"), experiment(model_text, "drawn"))
        first = clitest.run(hamon, ["run", "drawn.yaml", "--quiet"], cwd=d)
        if not failures.check(first.returncode == 0, f"{name}: run failed: {first.stderr}"):
            continue
        check_model_files(failures, name, os.path.join(d, "drawn"), model_text)
        # The same experiment but for its model: the realized one, by path.
        write(os.path.join(d, "again.yaml"),
              experiment(" drawn/model/model.yaml\n", "again"))
        again = clitest.run(hamon, ["run", "again.yaml", "--quiet"], cwd=d)
        if not failures.check(again.returncode == 0, f"{name}: re-run failed: {again.stderr}"):
            continue
        same_runs(failures, name, os.path.join(d, "drawn"), os.path.join(d, "again"))
        # The re-created run's own model/ is the same model, written the same way.
        for file in sorted(os.listdir(os.path.join(d, "drawn", "model"))):
            if file == "model.yaml":
                continue
            failures.check(open(os.path.join(d, "drawn", "model", file), "rb").read() ==
                           open(os.path.join(d, "again", "model", file), "rb").read(),
                           f"{name}: the re-created run's model/{file} differs")
        print(f"{name}: re-created bit for bit")


def bad_references(failures, hamon, work):
    d = os.path.join(work, "lattice_ising")  # its drawn/ run is there
    graph = "drawn/model/model.graph"
    cases = [
        (" drawn/config.yaml", "a model file holds the model section alone"),
        (" {kind: lattice, shape: [6, 5], file: %s}" % graph, "the graph has 36 nodes, the lattice 30"),
        (" {kind: lattice, shape: [6, 6], periodic: false, file: %s}" % graph,
         "the graph has 72 edges, the lattice 60 bonds"),
        (" {kind: lattice, shape: [6, 6], potts: 3, file: %s}" % graph, "holds +-1 spins"),
        (" {kind: gaussian, shape: [6, 6], file: %s}" % graph, "is a discrete model"),
        (" {kind: lattice, shape: [6, 6], file: %s, coupling: 1.0}" % graph,
         "model.coupling: cannot be combined with 'file'"),
    ]
    for model, words in cases:
        write(os.path.join(d, "bad.yaml"), experiment(model + "\n", "bad"))
        p = clitest.run(hamon, ["validate", "bad.yaml"], cwd=d)
        failures.check(p.returncode == 2 and words in p.stderr,
                       f"model:{model}: rc {p.returncode}, {p.stderr!r} (expected {words!r})")
    print("bad references: refused")


def limit_file_size(limit):
    def apply():
        # A write past the limit fails with EFBIG instead of killing hamon with SIGXFSZ.
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))
    return apply


def failed_export(failures, hamon, work):
    d = os.path.join(work, "failed_export")
    os.makedirs(d)
    big = """
  kind: lattice
  shape: [64, 64]
  coupling: {distribution: gaussian, seed: 3}
  field: {distribution: gaussian, seed: 4}
"""
    short = "nrpt: {chains: 4, beta_min: 0.1, beta_max: 1.0, rounds: 20, burn_in: 0}\n"
    write(os.path.join(d, "big.yaml"), experiment(big, "run", nrpt=short))
    # config.yaml (about 1 KB) fits under 64 KB; model.graph (8192 edges, 4096 fields) does not.
    p = clitest.run(hamon, ["run", "big.yaml", "--quiet"], cwd=d,
                    preexec_fn=limit_file_size(64 * 1024))
    partial = os.path.join(d, "run.partial")
    failures.check(p.returncode != 0 and "realized model" in p.stderr and
                   os.path.join("run.partial", "model") in p.stderr,
                   f"failed export: rc {p.returncode}, {p.stderr!r}")
    failures.check(not os.path.exists(os.path.join(d, "run")), "failed export: DIR exists")
    left = sorted(os.listdir(partial)) if os.path.isdir(partial) else None
    failures.check(left == ["config.yaml"],
                   f"failed export: DIR.partial holds {left}, expected config.yaml alone")
    # Nothing stops the same run once the disk takes the files: resume starts it.
    resumed = clitest.run(hamon, ["resume", "run", "--quiet"], cwd=d)
    failures.check(resumed.returncode == 0 and
                   os.path.isfile(os.path.join(d, "run", "model", "model.graph")),
                   f"resume after a failed export: rc {resumed.returncode}, {resumed.stderr}")
    print("failed export: nothing half-written; resume completes it")


def without_model_dir(failures, hamon, work):
    d = os.path.join(work, "older")
    os.makedirs(d)
    model = """
  kind: lattice
  shape: [16, 16]
  coupling: {distribution: gaussian, seed: 3}
"""
    nrpt = "nrpt: {chains: 8, beta_min: 0.1, beta_max: 1.5, rounds: 20000, burn_in: 0}\n"
    text = experiment(model, "run", nrpt=nrpt).replace(
        "output: {", "output: {checkpoint: {every: 200}, ")
    write(os.path.join(d, "long.yaml"), text)
    write(os.path.join(d, "whole.yaml"), text.replace("dir: run", "dir: whole"))
    whole = clitest.run(hamon, ["run", "whole.yaml", "--quiet"], cwd=d, timeout=300)
    failures.check(whole.returncode == 0, f"uninterrupted run: {whole.stderr}")
    # Stopped after its second checkpoint, model/ removed: an older hamon's DIR.partial.
    p = subprocess.Popen([hamon, "run", "long.yaml", "--quiet"], cwd=d, env=clitest.clean_env(),
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, errors="replace")
    deadline = time.monotonic() + 120
    prev = os.path.join(d, "run.partial", "checkpoint.bin.prev")
    while time.monotonic() < deadline and not os.path.exists(prev) and p.poll() is None:
        time.sleep(0.01)
    p.send_signal(signal.SIGTERM)
    _, err = p.communicate(timeout=120)
    if not failures.check(p.returncode == 3, f"stopped run: rc {p.returncode}, {err}"):
        return
    shutil.rmtree(os.path.join(d, "run.partial", "model"), ignore_errors=True)
    resumed = clitest.run(hamon, ["resume", "run", "--quiet"], cwd=d, timeout=300)
    failures.check(resumed.returncode == 0, f"resume without model/: {resumed.stderr}")
    if resumed.returncode == 0:
        same_runs(failures, "resume without model/", os.path.join(d, "whole"),
                  os.path.join(d, "run"))
        failures.check(not os.path.exists(os.path.join(d, "run", "model")),
                       "resume wrote a model/ into a directory that had none")
    # A complete run without model/ is extended.
    shutil.rmtree(os.path.join(d, "whole", "model"), ignore_errors=True)
    extended = clitest.run(hamon, ["extend", "whole", "--rounds", "21000", "--quiet"], cwd=d,
                           timeout=300)
    failures.check(extended.returncode == 0, f"extend without model/: {extended.stderr}")
    print("resume and extend of directories without model/: ok")


def main():
    args = clitest.arguments(__doc__)
    failures = clitest.Failures()
    round_trips(failures, args.hamon, args.work)
    bad_references(failures, args.hamon, args.work)
    failed_export(failures, args.hamon, args.work)
    without_model_dir(failures, args.hamon, args.work)
    failures.finish("realized_model")


if __name__ == "__main__":
    main()
