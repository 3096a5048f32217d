#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Every error of every command in one voice: one line on stderr, exit 2 for bad input,
"FILE:LINE:COL: error: KEY: ..." for a place in a file and "hamon: error: ..." otherwise,
never a second "hamon:" inside the message:
  - an invalid HAMON_DEVICE, HAMON_DEVICE_THRESHOLD, HAMON_HOST_THRESHOLD or
    HAMON_MEMORY_LIMIT is an error of `devices`, `validate`, `run`, `train` and `resolve`
    alike, before anything else and never located in the experiment file; a malformed
    calibration file is one of `devices` on stderr too (and in its listing);
  - a device HAMON_DEVICE asks for and this build lacks is blamed on HAMON_DEVICE;
  - an experiment file given to `train`, or a training file to `run`, is recognised and
    the error names the command that takes it; `validate` checks training files too;
  - a resume (or extend) whose config.yaml has other options names the keys that differ;
  - a round count has one range, the same whatever the value out of it;
  - '.nan' and 'nan' are "not finite" in YAML values and in graph files alike;
  - every command's --device help lists the same words, aliases included."""

import os
import re
import shutil

import yaml

import clitest

LATTICE = "model: {kind: lattice, shape: [4, 4]}\n"
NRPT = "nrpt:\n  chains: 4\n  beta_max: 1.0\n  rounds: 20\n"
MNIST = os.path.join(clitest.EXAMPLES_DIR, "data", "mnist")
BAD_SETTINGS = [("HAMON_DEVICE", "bogus"), ("HAMON_HOST_THRESHOLD", "abc"),
                ("HAMON_DEVICE_THRESHOLD", "-3"), ("HAMON_MEMORY_LIMIT", "abc")]


def write(path, text):
    with open(path, "w") as f:
        f.write(text)
    return path


def training_file(work, name="train.yaml", extra=""):
    """examples/mnist_rbm.yaml with its data found from anywhere."""
    with open(os.path.join(clitest.EXAMPLES_DIR, "mnist_rbm.yaml")) as f:
        text = f.read().replace("data/mnist/", MNIST + "/")
    return write(os.path.join(work, name), text + extra)


def one_error(failures, label, result, status=2):
    """The one stderr line of a failed command (None when there is not exactly one)."""
    failures.check(result.returncode == status,
                   f"{label}: exit {result.returncode}, expected {status}; {result.stderr!r}")
    failures.check(result.stdout == "", f"{label}: stdout not empty: {result.stdout[:200]!r}")
    lines = result.stderr.splitlines()
    if not failures.check(len(lines) == 1, f"{label}: expected one line on stderr: {lines}"):
        return None
    line = lines[0]
    failures.check(line.count("hamon:") <= 1, f"{label}: a doubled prefix in {line!r}")
    return line


def unlocated(failures, label, result, *fragments):
    line = one_error(failures, label, result)
    if line is None:
        return None
    failures.check(line.startswith("hamon: error: "), f"{label}: {line!r}")
    for fragment in fragments:
        failures.check(fragment in line, f"{label}: {fragment!r} not in {line!r}")
    return line


def located(failures, label, result, file, key, *fragments):
    line = one_error(failures, label, result)
    if line is None:
        return None
    match = clitest.LOCATED_ERROR.match(line)
    if failures.check(match is not None, f"{label}: no file:line:col in {line!r}"):
        failures.check(match["file"] == file, f"{label}: names {match['file']}, not {file}")
        failures.check(match["rest"].startswith(key + ": "), f"{label}: key {key!r}: {line!r}")
    for fragment in fragments:
        failures.check(fragment in line, f"{label}: {fragment!r} not in {line!r}")
    return line


def check_settings(failures, hamon, work):
    experiment = write(os.path.join(work, "settings.yaml"), LATTICE + NRPT)
    training = training_file(work)
    out = os.path.join(work, "settings-out")
    commands = {
        "devices": ["devices"],
        "validate": ["validate", experiment],
        "run": ["run", experiment, "--out", out, "--quiet"],
        "train": ["train", training, "--out", out, "--quiet"],
        "resolve": ["resolve", "--chains", "4", "--nodes", "16"],
    }
    for name, value in BAD_SETTINGS:
        env = clitest.clean_env(**{name: value})
        for command, args in commands.items():
            result = clitest.run(hamon, args, env=env)
            unlocated(failures, f"{command} with {name}={value}", result, f"{name}='{value}'")
            failures.check(not os.path.exists(out) and not clitest.leftovers(out),
                           f"{command} with {name}={value}: created {out}")
    # A malformed calibration file: `devices` still lists everything (the error in its
    # place), and says it once on stderr though both thresholds read the file.
    calibration = write(os.path.join(work, "calibration.yaml"), "device_threshold: lots\n")
    result = clitest.run(hamon, ["devices"], env=clitest.clean_env(HAMON_CALIBRATION=calibration))
    failures.check(result.returncode == 2 and result.stderr.splitlines() ==
                   [f"hamon: error: malformed calibration file {calibration}:1: 'device_threshold'"
                    " must be a number >= 0, got 'lots'"],
                   f"devices with a malformed calibration file: {result.returncode} "
                   f"{result.stderr!r}")
    listed = yaml.safe_load(result.stdout) if result.stdout else {}
    failures.check("lots" in str(listed.get("thresholds", {}).get("device", {}).get("error")),
                   f"devices with a malformed calibration file: {listed.get('thresholds')}")
    if not clitest.devices(hamon)["accelerator"]["visible"]:
        env = clitest.clean_env(HAMON_DEVICE="cuda")
        for command in ("validate", "run", "train"):
            result = clitest.run(hamon, commands[command], env=env)
            unlocated(failures, f"{command} with HAMON_DEVICE=cuda", result,
                      "requested by HAMON_DEVICE=cuda")


def check_kinds(failures, hamon, work):
    experiment = write(os.path.join(work, "experiment.yaml"), "seed: 3\n" + LATTICE + NRPT)
    training = training_file(work)
    out = os.path.join(work, "kinds-out")
    result = clitest.run(hamon, ["train", experiment, "--out", out])
    line = located(failures, "train of an experiment file", result, experiment, "nrpt",
                   "an experiment file", f"`hamon run {experiment}`")
    if line:
        failures.check("unknown key" not in line, f"train of an experiment file: {line!r}")
    for command in ("run", "validate"):
        result = clitest.run(hamon, [command, training, "--out", out, "--rounds", "5"]
                             if command == "run" else [command, training, "--rounds", "5"])
        if command == "run":
            line = located(failures, "run of a training file", result, training, "train",
                           "a training file", f"`hamon train {training}`")
            if line:
                failures.check("unknown key" not in line, f"run of a training file: {line!r}")
        else:
            unlocated(failures, "validate --rounds of a training file", result, "--rounds: ",
                      "a training file")
    failures.check(not os.path.exists(out), f"a refused command created {out}")

    result = clitest.run(hamon, ["validate", training, "--out", out])
    failures.check(result.returncode == 0 and result.stderr == "",
                   f"validate of a training file: exit {result.returncode}: {result.stderr!r}")
    failures.check(result.stdout.startswith(training + ": ok (a training file)\n") and
                   "787 visible x 500 hidden" in result.stdout and out in result.stdout,
                   f"validate of a training file: {result.stdout!r}")
    failures.check(not os.path.exists(out), f"validate of a training file created {out}")
    bad = write(os.path.join(work, "bad_training.yaml"),
                open(training).read().replace("epochs: 10", "epochs: 0"))
    located(failures, "validate of a bad training file", clitest.run(hamon, ["validate", bad]),
            bad, "train.epochs", "out of range")


def check_resume(failures, hamon, work):
    config = write(os.path.join(work, "resume.yaml"),
                   "seed: 5\n" + LATTICE + NRPT + "  explore_sweeps: 2\noutput:\n  dir: run\n")
    result = clitest.run(hamon, ["run", config, "--quiet", "--device", "serial"], cwd=work)
    if not failures.check(result.returncode == 0, f"resume: the run failed: {result.stderr}"):
        return
    config_yaml = os.path.join(work, "run", "config.yaml")
    text = open(config_yaml).read()
    write(config_yaml, text.replace("explore_sweeps: 2", "explore_sweeps: 3")
          .replace("seed: 5", "seed: 6"))
    wanted = ["the sampling options differ", "seed (the checkpoint has 5, config.yaml has 6)",
              "nrpt.explore_sweeps (the checkpoint has 2, config.yaml has 3)"]
    unlocated(failures, "extend with other options",
              clitest.run(hamon, ["extend", "run", "--rounds", "5"], cwd=work), *wanted)
    # An interrupted run is DIR.partial; a complete one renamed so is one at its end.
    os.rename(os.path.join(work, "run"), os.path.join(work, "run.partial"))
    unlocated(failures, "resume with other options",
              clitest.run(hamon, ["resume", "run"], cwd=work), *wanted)
    write(os.path.join(work, "run.partial", "config.yaml"), text)
    result = clitest.run(hamon, ["resume", "run", "--quiet"], cwd=work)
    failures.check(result.returncode == 0, f"resume with its own options: {result.stderr!r}")


def check_ranges(failures, hamon, work):
    config = write(os.path.join(work, "ranges.yaml"), LATTICE + NRPT)
    out = os.path.join(work, "ranges-out")
    for option, low, high in (("--rounds", "0", "5000000000"), ("--burn-in", "-1", "5000000000")):
        lines = []
        for value in (low, high):
            for command in ("validate", "run"):
                result = clitest.run(hamon, [command, config, "--out", out, option, value])
                lines.append(unlocated(failures, f"{command} {option} {value}", result,
                                       f"hamon: error: {option}: {value} is out of range "))
        ranges = {re.sub(r".* is out of range ", "", line) for line in lines if line}
        failures.check(len(ranges) == 1, f"{option}: ranges that disagree: {sorted(ranges)}")
    # extend's --rounds adds to the same counter: the same range as run's.
    for value in ("0", "5000000000"):
        result = clitest.run(hamon, ["extend", "nowhere", "--rounds", value])
        unlocated(failures, f"extend --rounds {value}", result,
                  f"--rounds: {value} is out of range [1, 4294967295]")


def check_not_finite(failures, hamon, work):
    for word in (".nan", "nan", ".inf"):
        yaml_file = write(os.path.join(work, "nan.yaml"),
                          LATTICE + NRPT.replace("beta_max: 1.0", f"beta_max: {word}"))
        located(failures, f"beta_max: {word}", clitest.run(hamon, ["validate", yaml_file]),
                yaml_file, "nrpt.beta_max", f"'{word}' is not finite")
        write(os.path.join(work, "g.txt"), f"nodes 3\nedge 0 1 {word}\n")
        graph = write(os.path.join(work, "graph.yaml"), "model: {kind: graph, file: g.txt}\n" + NRPT)
        located(failures, f"a graph file's coupling {word}",
                clitest.run(hamon, ["validate", graph]), graph, "model.file",
                f"coupling '{word}' is not finite")


def check_help(failures, hamon):
    helps = {}
    for command in ("run", "validate", "demo", "train", "resolve", "resume"):
        result = clitest.run(hamon, [command, "--help"])
        found = re.search(r"--device SPEC\s+(.*)", result.stdout)
        if failures.check(found is not None, f"{command} --help: no --device: {result.stdout!r}"):
            helps[command] = re.sub(r" \(.*\)$", "", found[1].replace("(alias", "[alias"))
            failures.check("gpu (alias cuda)" in found[1] and "none (alias off)" in found[1],
                           f"{command} --help: the aliases are missing: {found[1]!r}")
    failures.check(len(set(helps.values())) == 1, f"--device help differs: {helps}")


def main():
    args = clitest.arguments(__doc__)
    failures = clitest.Failures()
    for name, check in (("settings", check_settings), ("kinds", check_kinds),
                        ("resume", check_resume), ("ranges", check_ranges),
                        ("not_finite", check_not_finite)):
        work = os.path.join(args.work, name)
        shutil.rmtree(work, ignore_errors=True)
        os.makedirs(work)
        check(failures, args.hamon, work)
    check_help(failures, args.hamon)
    failures.finish("error voice")


if __name__ == "__main__":
    main()
