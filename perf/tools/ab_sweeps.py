#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Interleaved A/B of bench_kernels binaries on Serial (one thread each): min cpu_time of
REPS runs per benchmark, as updates/ns and as a ratio to the plain sweep (HEAD binary's
yardstick) measured in the same loop. On a shared machine the minimum of interleaved runs is what
survives the other processes; the printed table is Markdown.

    BEFORE=/path/to/old/bench_kernels REPS=4 MIN_TIME=0.3 python3 perf/tools/ab_sweeps.py

BEFORE is required: a bench_kernels built from the commit to compare against (e.g. in a
git worktree); AFTER defaults to build/bin/bench_kernels.

FILTER (a --benchmark_filter of bench_kernels, default the Serial sweeps at L = 128) picks
other rows, e.g. the energy pass ('energy<Kokkos::Serial>'; its rate is node-machines/ns);
BEFORE_LABEL names the old build in the table (default "old"; a commit hash is best).
The same comparison works for the round loop: BEFORE and AFTER set to bench_round_loop
binaries, FILTER to its rows (e.g. 'round_loop<Kokkos::Serial>/L:(32|128)/') and PLAIN=''
(its plain sweep has no chain count: the table then has no yardstick columns; a
round-loop row's rate counts L^2 x chains per round, whatever n_expl).
Records of such comparisons live in perf/results/before_after/.
"""
import csv, io, os, subprocess, sys, datetime
reps = int(os.environ.get("REPS", "4"))
min_time = os.environ.get("MIN_TIME", "0.3")
# BEFORE: a bench_kernels built from an earlier commit; AFTER: this build.
root = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
if not os.environ.get("BEFORE"):
    sys.exit("ab_sweeps.py: set BEFORE to the bench_kernels of the build to compare against")
before_label = "before (" + os.environ.get("BEFORE_LABEL", "old") + ")"
bins = {before_label: os.environ["BEFORE"],
        "after (HEAD)": os.environ.get("AFTER", os.path.join(root, "build", "bin", "bench_kernels"))}
filt = os.environ.get("FILTER", "sweep_(csr|lattice)<Kokkos::Serial>/L:128/chains:(8|16|32)/")
plain_filter = os.environ.get("PLAIN", "plain_sweep/L:128/chains:32/threads:1")  # Serial rows: one thread
best = {}
loads = []
env = dict(os.environ, OMP_PROC_BIND="false", OMP_NUM_THREADS="2")
def run(binary, f):
    out = subprocess.run([binary, "--benchmark_filter=" + f, "--benchmark_min_time=" + min_time,
                          "--benchmark_format=csv"], capture_output=True, text=True, env=env).stdout
    rows = [l for l in out.splitlines() if l.startswith('"')]
    for r in csv.reader(io.StringIO("\n".join(rows))):
        yield r[0], float(r[3])
for rep in range(reps):
    loads.append(os.getloadavg()[0])
    for label, b in bins.items():
        for name, cpu in run(b, filt):
            k = (label, name); best[k] = min(best.get(k, 1e30), cpu)
    for name, cpu in run(bins["after (HEAD)"], plain_filter) if plain_filter else ():
        k = ("plain", name); best[k] = min(best.get(k, 1e30), cpu)
def upns(name, cpu_us):
    chains = int(name.split("chains:")[1].split("/")[0])
    side = int(name.split("L:")[1].split("/")[0])
    return side * side * chains / (cpu_us * 1e3)
plain = ([upns(n, c) for (l, n), c in best.items() if l == "plain"] or [float("nan")])[0]
cpu = open("/proc/cpuinfo").read().split("model name")[1].split(":")[1].split("\n")[0].strip()
print(f"- machine: {cpu}, {os.cpu_count()} cores; date {datetime.datetime.utcnow():%Y-%m-%d %H:%M} UTC; "
      f"load average (1 min) at each rep: {', '.join(f'{x:.1f}' for x in loads)}")
print(f"- {reps} interleaved reps, min cpu_time per benchmark, --benchmark_min_time={min_time}, Serial (one thread)")
print(f"- yardstick ({plain_filter}, HEAD binary): {plain:.4f} updates/ns\n" if plain == plain
      else "- no yardstick\n")
yardstick = plain == plain  # no yardstick (PLAIN=''): no ratio columns
print("| benchmark | before: updates/ns |" + (" x plain |" if yardstick else "") +
      " after: updates/ns |" + (" x plain |" if yardstick else "") + " after / before |")
print("|---|---|" + ("---|" if yardstick else "") + "---|" + ("---|" if yardstick else "") + "---|")
names = sorted({n for (l, n) in best if l != "plain"})
for n in names:
    b = upns(n, best[(before_label, n)]); a = upns(n, best[("after (HEAD)", n)])
    xb = f" {b/plain:.1f} |" if yardstick else ""
    xa = f" {a/plain:.1f} |" if yardstick else ""
    print(f"| {n.replace('/manual_time','')} | {b:.3f} |{xb} {a:.3f} |{xa} {a/b:.2f} |")
