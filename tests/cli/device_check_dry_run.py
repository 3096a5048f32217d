#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""tools/device-check.sh without a GPU: its dry run over the host build, its time budget, its
failure verdicts and its exit codes.

  - a dry run over the build's own binaries runs every step, exits 0 and leaves the
    documented files (at most 8, flat: what a lent machine sends back), with rows from
    every benchmark step (a benchmark name, filter or path that broke would leave none);
  - a one-second time limit skips every step after the machine record, says so in the
    summary and exits 3; $OUT wins over --out;
  - stand-in binaries (a failing test, benchmarks that print no row) give exit 1 and name
    what failed;
  - without --dry-run and without nvidia-smi: exit 4; a bad option: exit 2 with a message.
"""
import json
import os
import re
import shutil
import stat
import subprocess
import sys

from clitest import SOURCE_DIR, arguments, clean_env

SCRIPT = os.path.join(SOURCE_DIR, "tools", "device-check.sh")
STEPS = ["machine", "build", "tests", "kernels_device", "round_loop_device", "potts_device",
         "crossover", "kernels_host", "round_loop_host", "potts_host"]
BENCH_STEPS = [s for s in STEPS if s.endswith(("_device", "_host"))]
FILES = {"summary.md", "machine.txt", "run.log", "tests.json", "bench.json", "crossover.csv",
         "calibration.yaml"}


def check(run, args, env, expect_rc, timeout=60):
    result = subprocess.run(["bash", SCRIPT] + args, env=env, capture_output=True, text=True,
                            timeout=timeout, check=False)
    if result.returncode != expect_rc:
        sys.exit(f"{run}: exit {result.returncode}, expected {expect_rc}\n{result.stderr}")
    return result


def step_table(out):
    with open(os.path.join(out, "summary.md"), encoding="utf-8") as f:
        summary = f.read()
    rows = re.findall(r"^\| (\w+) \| (\w+) \| (\d+) \| ([-\d]+) \| (.*) \|$", summary, re.M)
    return summary, {name: (status, detail) for name, status, _, _, detail in rows}


def expect(condition, message):
    if not condition:
        sys.exit(message)


def full_dry_run(build, work, env):
    out = os.path.join(work, "full")
    check("dry run", ["--dry-run", "--build", build, "--out", out, "--time-limit", "120"], env, 0)
    names = set(os.listdir(out))
    expect(names == FILES, f"dry run: files {sorted(names)}, expected {sorted(FILES)}")
    expect(all(os.path.isfile(os.path.join(out, n)) for n in names), "dry run: a folder in out")
    summary, steps = step_table(out)
    expect("Verdict: passed" in summary, f"dry run: no pass verdict\n{summary}")
    expect(list(steps) == STEPS, f"dry run: steps {list(steps)}, expected {STEPS}")
    expect(all(status == "ok" for status, _ in steps.values()), f"dry run: {steps}")
    with open(os.path.join(out, "bench.json"), encoding="utf-8") as f:
        bench = json.load(f)
    expect(sorted(bench) == sorted(BENCH_STEPS), f"dry run: bench.json has {sorted(bench)}")
    for step, report in bench.items():
        rows = [row["name"] for row in report["benchmarks"]]
        expect(rows, f"dry run: {step} has no row")
        if step.endswith("_device"):
            expect(all("<Kokkos::Serial>" in r for r in rows), f"dry run: {step}: {rows}")
        else:
            expect(all(r.startswith("plain") for r in rows), f"dry run: {step}: {rows}")
    with open(os.path.join(out, "tests.json"), encoding="utf-8") as f:
        tests = json.load(f)
    expect(tests["tests"] >= 1 and tests["failures"] == 0, f"dry run: tests.json {tests}")
    expect(re.search(rf"Passed: {tests['tests']}, failed: 0", summary), "dry run: test counts")
    with open(os.path.join(out, "machine.txt"), encoding="utf-8") as f:
        machine = f.read()
    for section in ("== date", "== git", "== nvidia-smi", "== nvcc", "== lscpu", "== build"):
        expect(section in machine, f"dry run: machine.txt lacks {section}")
    if os.path.isdir(os.path.join(SOURCE_DIR, ".git")):
        expect(re.search(r"^[0-9a-f]{40}$", machine, re.M), "dry run: machine.txt: no commit")
    expect("Skipped: none" in summary, "dry run: summary should list no skipped step")


def out_of_time(build, work, env):
    out, ignored = os.path.join(work, "late"), os.path.join(work, "ignored")
    late_env = dict(env, OUT=out)  # $OUT, as on a lent machine, wins over --out
    check("time limit", ["--dry-run", "--build", build, "--out", ignored, "--time-limit", "1"],
          late_env, 3)
    expect(not os.path.exists(ignored), "time limit: wrote into --out although $OUT was set")
    summary, steps = step_table(out)
    expect("Verdict: incomplete" in summary, f"time limit: verdict\n{summary}")
    expect(steps["machine"][0] == "ok", f"time limit: {steps}")
    later = STEPS[2:]
    expect(all(steps[s][0] == "skipped" for s in later), f"time limit: {steps}")
    expect(f"Skipped: {', '.join(later)}" in summary, f"time limit: skipped list\n{summary}")
    expect(not os.path.exists(os.path.join(out, "bench.json")), "time limit: benchmarks ran")


def stub(path, body):
    with open(path, "w", encoding="utf-8") as f:
        f.write("#!/bin/sh\n" + body + "\n")
    os.chmod(path, os.stat(path).st_mode | stat.S_IXUSR)


def failures(work, env):
    build = os.path.join(work, "stub-build")
    os.makedirs(os.path.join(build, "bin"))
    # A test binary with one failure (its JSON report as Google Test writes it), and
    # benchmarks that exit 0 having run no row, as when a filter matches nothing.
    report = {"tests": 2, "failures": 1, "testsuites": [{"name": "serial", "testsuite": [
        {"name": "passes", "status": "RUN", "result": "COMPLETED"},
        {"name": "breaks", "status": "RUN", "result": "COMPLETED", "failures": [{}]}]}]}
    stub(os.path.join(build, "bin", "hamon_tests_serial"),
         f"for a; do case $a in --gtest_output=json:*) echo '{json.dumps(report)}' "
         '> "${a#--gtest_output=json:}";; esac; done; exit 1')
    for name in ("bench_kernels", "bench_round_loop", "bench_potts", "device_crossover"):
        stub(os.path.join(build, "bin", name), "exit 0")
    out = os.path.join(work, "failing")
    check("failures", ["--dry-run", "--build", build, "--out", out], env, 1)
    summary, steps = step_table(out)
    expect("Verdict: failed" in summary, f"failures: verdict\n{summary}")
    expect(steps["tests"][0] == "failed", f"failures: {steps}")
    expect("Passed: 1, failed: 1" in summary and "failed: serial.breaks" in summary,
           f"failures: test counts\n{summary}")
    for step in BENCH_STEPS:
        expect(steps[step] == ("failed", "no benchmark row (filter matched nothing?)"),
               f"failures: {step}: {steps[step]}")
    expect(steps["crossover"][0] == "ok", f"failures: {steps}")
    return build


def bad_usage(stub_build, work, env):
    for args, message in ((["--bogus"], "unknown option '--bogus'"),
                          (["--time-limit", "abc"], "--time-limit wants whole seconds"),
                          (["--dry-run", "--build", os.path.join(work, "none")], "needs a host build")):
        result = check(f"usage {args}", args, env, 2)
        expect(message in result.stderr, f"usage {args}: stderr {result.stderr!r}")
    if shutil.which("nvidia-smi", path=env["PATH"]) is None:
        out = os.path.join(work, "no-gpu")
        check("no GPU", ["--build", stub_build, "--out", out], env, 4)
        summary, steps = step_table(out)
        expect(steps.get("gpu", ("",))[0] == "failed" and "tests" not in steps,
               f"no GPU: {steps}")


def main():
    args = arguments(__doc__, lambda p: p.add_argument("--build", required=True))
    env = clean_env(OUT=None)
    full_dry_run(os.path.abspath(args.build), args.work, env)
    out_of_time(os.path.abspath(args.build), args.work, env)
    stub_build = failures(args.work, env)
    bad_usage(stub_build, args.work, env)
    print("device-check: dry run, time limit, failures and usage as documented")


if __name__ == "__main__":
    main()
