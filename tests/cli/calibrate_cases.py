#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""`hamon calibrate --quick`: writes nothing unless told where (--output FILE, or --write for
the calibration file), since a smoke test's timings are no calibration; when told, it writes
a calibration file that `hamon devices` (the threshold loader) reads back, keeps what it
cannot measure, and refuses an output it cannot write (or a malformed existing file) with
exit 2, one clear line and nothing written. No timing is asserted: only what the file says
and where the thresholds come from."""

import os

import yaml

import clitest

KEYS = {"device_threshold", "host_threshold"}


def read_file(path):
    values = {}
    with open(path) as f:
        for line in f:
            line = line.split(" #")[0].strip()
            if line and not line.startswith("#"):
                key, value = (part.strip() for part in line.split(":", 1))
                values[key] = float(value)
    return values


def main():
    args = clitest.arguments(__doc__)
    failures = clitest.Failures()
    dev = clitest.devices(args.hamon)
    both_hosts = {"SERIAL", "OPENMP"} <= set(dev["backends"])
    gpu = bool(dev["accelerator"]["visible"])

    def calibrate(extra, env=None):
        return clitest.run(args.hamon, ["calibrate", "--quick"] + extra, env=env, timeout=300)

    # A fresh file, then `hamon devices` with it as the calibration file.
    path = os.path.join(args.work, "config", "hamon", "calibration.yaml")
    result = calibrate(["--output", path])
    if failures.check(result.returncode == 0, f"calibrate: exit {result.returncode}: "
                                              f"{result.stderr.strip()}"):
        failures.check(os.path.isfile(path), f"calibrate wrote no {path}")
        values = read_file(path) if os.path.isfile(path) else {}
        failures.check(set(values) <= KEYS, f"unexpected keys: {values}")
        failures.check(("host_threshold" in values) == both_hosts,
                       f"host_threshold written: {values}, both host backends: {both_hosts}")
        failures.check(("device_threshold" in values) == gpu, f"device_threshold: {values}")
        for key, value in values.items():
            failures.check(value >= 1 and int(value) & (int(value) - 1) == 0,
                           f"{key} = {value} is not a power of two")
        failures.check(f"wrote calibration {path}" in result.stdout, result.stdout)
        shown = clitest.run(args.hamon, ["devices"], env=clitest.clean_env(HAMON_CALIBRATION=path))
        if failures.check(shown.returncode == 0, f"devices: {shown.stderr}"):
            d = yaml.safe_load(shown.stdout)
            failures.check(d["calibration"] == {"file": path, "present": True}, d["calibration"])
            host = d["thresholds"]["host"]
            if both_hosts:
                failures.check(host["source"] == "calibration file" and host["origin"] == path
                               and host["value"] == values.get("host_threshold"),
                               f"host threshold not read from the file: {host}")

    # Not asked to write: the default calibration file (XDG, or $HAMON_CALIBRATION) is not
    # created, nor an existing one changed; stdout says so.
    config_home = os.path.join(args.work, "xdg")
    default = os.path.join(config_home, "hamon", "calibration.yaml")
    result = calibrate([], env=clitest.clean_env(HAMON_CALIBRATION=None,
                                                 XDG_CONFIG_HOME=config_home))
    failures.check(result.returncode == 0, f"calibrate --quick: exit {result.returncode}: "
                                           f"{result.stderr.strip()}")
    failures.check(not os.path.exists(config_home), f"--quick wrote under {config_home}: "
                                                    f"{list(os.walk(config_home))}")
    failures.check("not written" in result.stdout and "wrote" not in result.stdout,
                   f"--quick stdout: {result.stdout!r}")
    untouched = os.path.join(args.work, "untouched.yaml")
    with open(untouched, "w") as f:
        f.write("host_threshold: 64\n")
    result = calibrate([], env=clitest.clean_env(HAMON_CALIBRATION=untouched))
    with open(untouched) as f:
        failures.check(result.returncode == 0 and f.read() == "host_threshold: 64\n",
                       f"--quick changed $HAMON_CALIBRATION: exit {result.returncode}")
    # With no file to write, --quick alone still runs (it writes nothing).
    result = calibrate([], env=clitest.clean_env(HAMON_CALIBRATION=""))
    failures.check(result.returncode == 0, f"--quick without a calibration path: exit "
                                           f"{result.returncode}, {result.stderr!r}")
    # --write: the default file, with XDG_CONFIG_HOME.
    result = calibrate(["--write"], env=clitest.clean_env(HAMON_CALIBRATION=None,
                                                          XDG_CONFIG_HOME=config_home))
    failures.check(result.returncode == 0 and os.path.isfile(default)
                   and f"wrote calibration {default}" in result.stdout,
                   f"--quick --write: exit {result.returncode}, {result.stdout!r}")

    # --write to $HAMON_CALIBRATION: a value it cannot measure is kept.
    kept = os.path.join(args.work, "kept.yaml")
    with open(kept, "w") as f:
        f.write("# calibrated by hand\ndevice_threshold: 1234\n")
    result = calibrate(["--write"], env=clitest.clean_env(HAMON_CALIBRATION=kept))
    if failures.check(result.returncode == 0, f"calibrate (HAMON_CALIBRATION): {result.stderr}"):
        values = read_file(kept)
        if not gpu:
            failures.check(values.get("device_threshold") == 1234,
                           f"the unmeasured device threshold was not kept: {values}")
        failures.check(("host_threshold" in values) == both_hosts, f"kept file: {values}")

    # Outputs that cannot be written: exit 2, one line naming the path, nothing written.
    blocker = os.path.join(args.work, "a-file")
    with open(blocker, "w") as f:
        f.write("not a directory\n")
    bad_paths = {
        "inside a file": os.path.join(blocker, "calibration.yaml"),
        "a directory": args.work,
    }
    for label, bad in bad_paths.items():
        before = sorted(os.listdir(args.work))
        result = calibrate(["--output", bad])
        failures.check(result.returncode == 2, f"{label}: exit {result.returncode}")
        lines = result.stderr.strip().splitlines()
        failures.check(len(lines) == 1 and lines[0].startswith("hamon: error: --output")
                       and bad in lines[0], f"{label}: stderr {result.stderr!r}")
        failures.check("recommended" not in result.stdout, f"{label}: it measured first")
        failures.check(sorted(os.listdir(args.work)) == before, f"{label}: files appeared")
    with open(blocker) as f:
        failures.check(f.read() == "not a directory\n", "the blocking file was changed")

    # A malformed existing file: refused, left as it was.
    malformed = os.path.join(args.work, "malformed.yaml")
    with open(malformed, "w") as f:
        f.write("host_threshold: lots\n")
    result = calibrate(["--output", malformed])
    failures.check(result.returncode == 2 and "malformed.yaml:1" in result.stderr,
                   f"malformed file: exit {result.returncode}, {result.stderr!r}")
    with open(malformed) as f:
        failures.check(f.read() == "host_threshold: lots\n", "the malformed file was changed")

    # No file to write at all (HAMON_CALIBRATION empty, no --output).
    result = calibrate(["--write"], env=clitest.clean_env(HAMON_CALIBRATION=""))
    failures.check(result.returncode == 2 and "--output" in result.stderr,
                   f"no calibration path: exit {result.returncode}, {result.stderr!r}")
    failures.finish("calibrate")


if __name__ == "__main__":
    main()
