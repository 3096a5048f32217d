# SPDX-License-Identifier: Apache-2.0
"""Shared helpers of the tests/cli scripts: where hamon is, a clean environment, runs.

Every script takes --hamon PATH (CMake passes $<TARGET_FILE:hamon_cli>) and --work DIR (a
scratch directory under the build tree). The environment is scrubbed of the routing
variables (HAMON_DEVICE, thresholds, calibration file) so results do not depend on the
machine's settings, and OpenMP runs one thread (the test machines are shared). The tuning
cache (HAMON_CACHE_DIR) lies under --work unless the caller set it.
"""

import argparse
import os
import re
import shutil
import subprocess
import sys

import yaml

SOURCE_DIR = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
EXAMPLES_DIR = os.path.join(SOURCE_DIR, "examples")
# Keep in step with _examples in CMakeLists.txt.
EXAMPLES = ["ising2d", "ea3d_spin_glass", "rbm", "graph_inline", "graph_file", "autotune_ising2d",
            "potts_lattice", "potts_graph", "glass_search", "ea3d_ensemble", "gaussian_lattice",
            "double_well_graph", "qubo_small", "maxcut_gset"]

# "FILE:LINE:COL: error: KEY: message" (apps/config/config_error.hpp)
LOCATED_ERROR = re.compile(r"^(?P<file>.+?):(?P<line>\d+):(?P<column>\d+): error: (?P<rest>.*)$")


def arguments(description, extra=None):
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--hamon", required=True, help="the hamon executable")
    parser.add_argument("--work", required=True, help="scratch directory (recreated)")
    if extra:
        extra(parser)
    args = parser.parse_args()
    shutil.rmtree(args.work, ignore_errors=True)
    os.makedirs(args.work)
    # A run that tunes writes the tuning cache: never into the user's (CTest sets this too).
    os.environ.setdefault("HAMON_CACHE_DIR", os.path.join(args.work, "tuning-cache"))
    return args


def clean_env(**overrides):
    env = dict(os.environ)
    for name in ("HAMON_DEVICE", "HAMON_DEVICE_THRESHOLD", "HAMON_HOST_THRESHOLD",
                 "HAMON_MEMORY_LIMIT", "KOKKOS_DISABLE_WARNINGS"):
        env.pop(name, None)
    env["HAMON_CALIBRATION"] = ""  # no calibration file
    env["OMP_NUM_THREADS"] = "1"
    env["OMP_PROC_BIND"] = "false"
    for name, value in overrides.items():
        if value is None:
            env.pop(name, None)
        else:
            env[name] = value
    return env


def run(hamon, args, cwd=None, env=None, timeout=120, **kwargs):
    """Runs hamon; returns CompletedProcess with text stdout/stderr."""
    return subprocess.run([hamon] + [str(a) for a in args], cwd=cwd,
                          env=env if env is not None else clean_env(), timeout=timeout,
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          errors="replace", **kwargs)


def run_checked(hamon, config, out, name, failures):
    """`hamon run CONFIG --quiet` (its output.dir `out`), then the run directory against the
    schema (check_run.py), each problem a failure named `name`. The summary, or None when
    the run failed."""
    from check_run import check_run  # numpy, which not every script here needs
    result = run(hamon, ["run", config, "--quiet"], timeout=300)
    if not failures.check(result.returncode == 0, f"{name}: exit {result.returncode}: "
                                                  f"{result.stderr.strip()}"):
        return None
    problems = []
    summary = check_run(out, problems)
    for p in problems:
        failures.check(False, f"{name}: {p}")
    return summary


def devices(hamon):
    result = run(hamon, ["devices"])
    if result.returncode != 0:
        raise RuntimeError(f"hamon devices failed: {result.stderr}")
    return yaml.safe_load(result.stdout)


class Failures:
    """Collects failures so one run reports all of them."""

    def __init__(self):
        self.items = []

    def check(self, condition, message):
        if not condition:
            self.items.append(message)
            print(f"FAIL: {message}")
        return condition

    def finish(self, what):
        if self.items:
            print(f"{what}: {len(self.items)} failure(s)")
            sys.exit(1)
        print(f"{what}: ok")
        sys.exit(0)


def run_cases(description, module_globals, what):
    """A script of cases: each `case_NAME(failures, hamon, work)` in `module_globals` runs in
    its own fresh folder under --work; `--list` prints the names (CTest makes one test of
    each) and `--case NAME` (repeatable) runs only those."""
    cases = {name[len("case_"):]: check for name, check in module_globals.items()
             if name.startswith("case_")}
    if "--list" in sys.argv:
        print(";".join(cases))
        return
    args = arguments(description, lambda p: p.add_argument("--case", action="append"))
    unknown = [c for c in args.case or [] if c not in cases]
    if unknown:
        print(f"unknown case {unknown}")
        sys.exit(1)
    failures = Failures()
    for name in args.case or cases:
        work = os.path.join(args.work, name)
        shutil.rmtree(work, ignore_errors=True)
        os.makedirs(work)
        cases[name](failures, args.hamon, work)
    failures.finish(what + " " + ", ".join(args.case or cases))


def leftovers(out_dir):
    """Directories a run leaves next to out_dir when it did not finish: DIR.partial (an
    interrupted run), DIR.tmp-* / DIR.old-* (atomic replacement in progress)."""
    parent = os.path.dirname(os.path.abspath(out_dir)) or "."
    base = os.path.basename(os.path.abspath(out_dir))
    if not os.path.isdir(parent):
        return []
    return [n for n in os.listdir(parent)
            if n == base + ".partial" or n.startswith(base + ".tmp-") or
            n.startswith(base + ".old-")]


def contents(directory):
    """{path: bytes} of the files under `directory` (to check that a refusal changed
    nothing); a subdirectory's files (a run's model/) as "model/model.yaml"."""
    out = {}
    for here, dirs, names in os.walk(directory):
        dirs.sort()
        for name in sorted(names):
            path = os.path.join(here, name)
            with open(path, "rb") as f:
                out[os.path.relpath(path, directory)] = f.read()
    return out


MASK = (1 << 64) - 1


def mix64(z):
    z = ((z ^ (z >> 30)) * 0xbf58476d1ce4e5b9) & MASK
    z = ((z ^ (z >> 27)) * 0x94d049bb133111eb) & MASK
    return z ^ (z >> 31)


def splitmix64(x):
    return mix64((x + 0x9e3779b97f4a7c15) & MASK)


def derive_seed(seed, stream, index):
    """hamon/core/util/seeds.hpp's derive_seed."""
    s = splitmix64(seed ^ splitmix64(stream))
    return splitmix64((s + splitmix64((index + 0x632be59bd9b4e019) & MASK)) & MASK)
