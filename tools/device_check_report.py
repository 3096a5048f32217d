#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""summary.md and bench.json of tools/device-check.sh, from what its steps left.

Reads the steps table (name, status, seconds, budget, detail; tab-separated), the test
binary's Google Test JSON (or, when a step was cut off before writing it, the counts in its
log) and the Google Benchmark JSON of each benchmark step (a file cut off mid-run is read up
to its last complete row). Writes OUT/bench.json (every benchmark step's JSON by step name)
and prints summary.md. A benchmark step that exited 0 but produced no row, or a row with
an error, counts as failed: a filter that matches nothing must not pass for a measurement.
Standard library only: it runs on the lent machine's python3 as it is.
"""
import argparse
import glob
import json
import os
import re


def read_steps(path):
    steps = []
    with open(path, encoding="utf-8") as f:
        for line in f:
            fields = line.rstrip("\n").split("\t")
            if len(fields) == 5:
                steps.append(dict(zip(("name", "status", "seconds", "budget", "detail"), fields)))
    return steps


def read_benchmark_json(path):
    """The benchmark JSON at PATH; cut off mid-run, its complete rows."""
    with open(path, encoding="utf-8") as f:
        text = f.read()
    try:
        return json.loads(text)
    except ValueError:
        pass
    # Rows are written one at a time: keep everything up to the last row that closed.
    cut = text.rfind("\n    }")
    while cut > 0:
        try:
            return json.loads(text[: cut + len("\n    }")] + "\n  ]\n}")
        except ValueError:
            cut = text.rfind("\n    }", 0, cut)
    return {"benchmarks": []}


def rate_counter(row):
    """The row's throughput counter (name, value): *_per_ns or *_per_us."""
    for key, value in row.items():
        if re.search(r"_per_(ns|us)$", key) and isinstance(value, (int, float)):
            return key, value
    return None


def test_counts(out):
    """(passed, failed, failed names, source) of the test binary."""
    path = os.path.join(out, "tests.json")
    if os.path.exists(path):
        try:
            with open(path, encoding="utf-8") as f:
                report = json.load(f)
            failed = [
                f"{suite['name']}.{case['name']}"
                for suite in report.get("testsuites", [])
                for case in suite.get("testsuite", [])
                if case.get("failures")
            ]
            ran = sum(
                1
                for suite in report.get("testsuites", [])
                for case in suite.get("testsuite", [])
                if case.get("result", "COMPLETED") == "COMPLETED" and case.get("status") == "RUN"
            )
            return ran - len(failed), len(failed), failed, "tests.json"
        except (ValueError, KeyError, TypeError):
            pass
    # No report (the binary was stopped or crashed): count the finished tests in the log.
    log = os.path.join(out, "run.log")
    if not os.path.exists(log):
        return None
    passed, failed, section = 0, [], False
    with open(log, encoding="utf-8", errors="replace") as f:
        for line in f:
            if line.startswith("== "):
                section = line.startswith("== tests ")
            elif section and line.startswith("[       OK ]"):
                passed += 1
            elif section and line.startswith("[  FAILED  ]") and "(" in line:
                failed.append(line[12:].split("(")[0].strip())
    return passed, len(failed), failed, "run.log"


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--out", required=True)
    parser.add_argument("--steps", required=True)
    parser.add_argument("--parts", required=True, help="folder of bench-<step>.json")
    parser.add_argument("--mode", required=True)
    parser.add_argument("--time-limit", type=int, required=True)
    parser.add_argument("--elapsed", type=int, required=True)
    args = parser.parse_args()

    steps = read_steps(args.steps)
    benches = {}
    for path in sorted(glob.glob(os.path.join(args.parts, "bench-*.json"))):
        benches[os.path.basename(path)[len("bench-") : -len(".json")]] = read_benchmark_json(path)
    if benches:
        with open(os.path.join(args.out, "bench.json"), "w", encoding="utf-8") as f:
            json.dump(benches, f, indent=1)

    for step in steps:
        if step["name"] not in benches and not step["name"].endswith(("_device", "_host")):
            continue
        if step["status"] == "skipped":
            continue
        rows = benches.get(step["name"], {}).get("benchmarks", [])
        errors = [row["name"] for row in rows if row.get("error_occurred")]
        if step["status"] == "ok" and not rows:
            step["status"], step["detail"] = "failed", "no benchmark row (filter matched nothing?)"
        elif errors:
            step["status"] = "failed"
            step["detail"] = f"{len(errors)} rows with errors, first {errors[0]}"
        else:
            step["detail"] = f"{len(rows)} rows" + (f"; {step['detail']}" if step["detail"] else "")

    ran_tests = any(s["name"] == "tests" and s["status"] != "skipped" for s in steps)
    counts = test_counts(args.out) if ran_tests else None
    failed = [s for s in steps if s["status"] == "failed"]
    incomplete = [s for s in steps if s["status"] in ("skipped", "timeout")]
    expected = 10  # machine, build, tests, 3 device benches, crossover, 3 host benches
    unfinished = len(steps) < expected and not failed
    if failed:
        verdict = "failed"
    elif incomplete or unfinished:
        verdict = "incomplete"
    else:
        verdict = "passed"

    print(f"# GPU check ({args.mode})\n")
    print(f"Verdict: {verdict}  ")
    print(f"Elapsed: {args.elapsed} s of a {args.time_limit} s limit  ")
    machine = next((s["detail"] for s in steps if s["name"] == "machine"), "")
    print(f"Machine: {machine}\n")
    print("## Steps\n")
    print("| step | status | seconds | budget | detail |")
    print("| --- | --- | --- | --- | --- |")
    for s in steps:
        print(f"| {s['name']} | {s['status']} | {s['seconds']} | {s['budget']} | {s['detail']} |")
    print("\n## Tests\n")
    if counts is None:
        print("Not run.")
    else:
        passed, n_failed, names, source = counts
        print(f"Passed: {passed}, failed: {n_failed} (from {source})")
        for name in names[:20]:
            print(f"- failed: {name}")
    print("\n## Headline rates (best row of each benchmark)\n")
    lines = []
    for step, report in benches.items():
        best = {}
        for row in report.get("benchmarks", []):
            rate = rate_counter(row)
            if rate is None:
                continue
            family = row["name"].split("/")[0]
            if family not in best or rate[1] > best[family][1][1]:
                best[family] = (row["name"], rate)
        for family, (name, (counter, value)) in best.items():
            lines.append(f"| {step} | {family} | {counter} = {value:.4g} | {name} |")
    if lines:
        print("| step | benchmark | rate | row |")
        print("| --- | --- | --- | --- |")
        print("\n".join(lines))
    else:
        print("None measured.")
    print("\n## Skipped for time\n")
    skipped = [s["name"] for s in steps if s["status"] == "skipped"]
    cut = [s["name"] for s in steps if s["status"] == "timeout"]
    print(f"Skipped: {', '.join(skipped) or 'none'}  ")
    print(f"Cut off at their budget: {', '.join(cut) or 'none'}")


if __name__ == "__main__":
    main()
