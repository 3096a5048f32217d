#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Time to solution of hamon's automatic search against simulated annealing.

    perf/tools/search_peers.py --hamon build/bin/hamon --sa-python VENV/bin/python \
        --instances DIR [--seeds 2] [--jobs 2] [--sa-sweeps 1000,10000,100000] \
        [--sa-reads 10] [--out FILE.md]

DIR holds graph files, with their exact ground-state energy in a comment where it is known,
as `time_to_target --write-instances DIR` writes them (strips, by min-sum column transfer).
Where a file has none, the target is the best known: the lowest energy any run of this
measurement reached (hamon's or simulated annealing's), marked "best known" in the table.

    perf/tools/search_peers.py --write-random-graphs DIR [--sizes 200,500,1000,2000]

writes random 3-regular graphs (uniform over pairings, redrawn until simple), one with +-1
couplings and one with Gaussian couplings per size, no fields, instance seed = size.
--nrpt "KEY: VALUE, ..." adds entries to the automatic file's nrpt map (e.g. another
until); --no-sa measures hamon alone.

hamon: for each instance and seed, `hamon run` of the automatic file (nrpt: {goal:
ground_state}, nothing else) as one process, one after the other or --jobs at a time. Its
time to target is the wall time until the round that first reached the exact energy:
total_s - sampling_s (reading, the goal's estimates, set-up) plus sampling_s times the
fraction of the rounds run up to and including found_round. TTS(99 %) at the best run
length t: t ln(0.01) / ln(1 - F(t)) over the seeds' hit times (F their empirical
distribution), the same definition as perf/time_to_target.

Simulated annealing: dwave-samplers' SimulatedAnnealingSampler (its C++ kernel, one
thread) in the interpreter given by --sa-python, on the same Ising model (its energy
sum h s + sum J s s is hamon's with h and J negated), its own default schedule (geometric
in beta over the range it derives from the biases) for each num_sweeps of the sweep;
--sa-reads reads per setting, timed together; t_read their mean. TTS(99 %) =
t_read ln(0.01) / ln(1 - p) with p the fraction of reads at the exact energy (t_read
when every read is); where no read reaches it, the best gap is reported. The best setting
per instance is the one with the smallest TTS.
"""
import argparse
import concurrent.futures
import glob
import json
import math
import os
import re
import subprocess
import sys
import tempfile
import time

TOLERANCE = 1e-9  # relative, of |E0|: the energies are sums of doubles


def exact_energy(path):
    """The exact ground-state energy in the file's comment, or None."""
    with open(path, encoding="utf-8") as f:
        for line in f:
            m = re.search(r"exact ground-state energy (\S+)", line)
            if m:
                return float(m.group(1))
    return None


def random_regular_edges(n, degree, rng):
    """A uniformly drawn pairing of n * degree half-edges, redrawn until it has no loop and
    no double edge (for degree 3 about one draw in eight succeeds)."""
    while True:
        stubs = [v for v in range(n) for _ in range(degree)]
        rng.shuffle(stubs)
        pairs = {tuple(sorted(stubs[k:k + 2])) for k in range(0, len(stubs), 2)}
        if len(pairs) == len(stubs) // 2 and all(i != j for i, j in pairs):
            return sorted(pairs)


def write_random_graphs(directory, sizes):
    import random
    os.makedirs(directory, exist_ok=True)
    for n in sizes:
        for couplings in ("pm1", "gaussian"):
            rng = random.Random(n)
            edges = random_regular_edges(n, 3, rng)
            path = os.path.join(directory, f"regular3-{couplings}-n{n}.txt")
            with open(path, "w", encoding="utf-8") as f:
                f.write(f"# random 3-regular graph, {n} nodes, {couplings} couplings, seed {n}\n"
                        f"nodes {n}\n")
                for i, j in edges:
                    J = rng.choice((-1.0, 1.0)) if couplings == "pm1" else rng.gauss(0.0, 1.0)
                    f.write(f"edge {i} {j} {J!r}\n")
            print(path)


def reached(energy, target):
    return energy <= target + TOLERANCE * abs(target)


def tts_from_hits(hits):
    """TTS(99 %) at the best run length over hit times (None: a seed that never hit)."""
    times = sorted(t for t in hits if t is not None)
    best = math.inf
    for k, t in enumerate(times, start=1):
        p = k / len(hits)
        best = min(best, t if p >= 1.0 else t * math.log(0.01) / math.log(1.0 - p))
    return best


def hamon_run(hamon, instance, seed, work, nrpt_extra=""):
    name = f"{os.path.splitext(os.path.basename(instance))[0]}-seed{seed}"
    config = os.path.join(work, name + ".yaml")
    out = os.path.join(work, name)
    with open(config, "w", encoding="utf-8") as f:
        f.write(f"seed: {seed}\nmodel: {{kind: graph, file: {os.path.abspath(instance)}}}\n"
                f"nrpt: {{goal: ground_state{', ' + nrpt_extra if nrpt_extra else ''}}}\n"
                f"output: {{dir: {out}, samples: false}}\n")
    env = dict(os.environ, OMP_PROC_BIND="false")
    start = time.perf_counter()
    subprocess.run([hamon, "run", config, "--quiet"], check=True, env=env,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    wall = time.perf_counter() - start
    summary = yaml_summary(os.path.join(out, "summary.yaml"))
    return instance, seed, wall, summary


def yaml_summary(path):
    import yaml  # Debian's python3-yaml, as the CLI tests use
    with open(path, encoding="utf-8") as f:
        s = yaml.safe_load(f)
    rounds = s["config"]["nrpt"].get("burn_in", 0) + s["nrpt"]["rounds"]
    return {"best": s["search"]["best_energy"], "found": s["search"]["found_round"],
            "rounds": rounds, "total_s": s["timing"]["total_s"],
            "sampling_s": s["timing"]["sampling_s"], "chosen": s["config"]["nrpt"].get("chosen")}


SA_SCRIPT = r"""
import json, sys, time
from dwave.samplers import SimulatedAnnealingSampler
path, sweeps, reads, seed = sys.argv[1], [int(x) for x in sys.argv[2].split(",")], int(sys.argv[3]), int(sys.argv[4])
h, J = {}, {}
for line in open(path):
    f = line.split()
    if not f or f[0].startswith("#"):
        continue
    if f[0] == "field":
        h[int(f[1])] = -float(f[2])
    elif f[0] == "edge":
        J[(int(f[1]), int(f[2]))] = -float(f[3])
    elif f[0] == "nodes":
        for i in range(int(f[1])):
            h.setdefault(i, 0.0)
sampler = SimulatedAnnealingSampler()
rows = []
for s in sweeps:
    start = time.perf_counter()
    result = sampler.sample_ising(h, J, num_reads=reads, num_sweeps=s, seed=seed)
    wall = time.perf_counter() - start
    rows.append({"sweeps": s, "reads": reads, "wall": wall,
                 "energies": [float(e) for e in result.record.energy],
                 "beta_range": [float(b) for b in result.info.get("beta_range", [])]})
print(json.dumps(rows))
"""


def sa_runs(python, instance, sweeps, reads, seed):
    with tempfile.NamedTemporaryFile("w", suffix=".py", delete=False) as f:
        f.write(SA_SCRIPT)
        script = f.name
    try:
        out = subprocess.run([python, script, instance, sweeps, str(reads), str(seed)], check=True,
                             stdout=subprocess.PIPE, text=True).stdout
    finally:
        os.unlink(script)
    return json.loads(out)


def sa_best(sa, target):
    """(TTS99, best gap, num_sweeps, p, t_read) of the setting with the smallest TTS."""
    best = None
    for row in sa:
        p_hit = sum(reached(e, target) for e in row["energies"]) / row["reads"]
        t_read = row["wall"] / row["reads"]
        tts = math.inf if p_hit == 0 else (t_read if p_hit == 1 else
                                           t_read * math.log(0.01) / math.log(1 - p_hit))
        cand = (tts, min(row["energies"]) - target, row["sweeps"], p_hit, t_read)
        if best is None or (cand[0], cand[1]) < (best[0], best[1]):
            best = cand
    return best


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--hamon")
    p.add_argument("--sa-python", help="a Python with dwave-samplers")
    p.add_argument("--instances")
    p.add_argument("--seeds", type=int, default=2)
    p.add_argument("--jobs", type=int, default=1, help="hamon processes at a time")
    p.add_argument("--sa-sweeps", default="1000,10000,100000")
    p.add_argument("--sa-reads", type=int, default=10)
    p.add_argument("--nrpt", default="", help="entries added to the automatic file's nrpt map")
    p.add_argument("--no-sa", action="store_true", help="hamon alone")
    p.add_argument("--write-random-graphs", metavar="DIR")
    p.add_argument("--sizes", default="200,500,1000,2000")
    p.add_argument("--out")
    o = p.parse_args()
    if o.write_random_graphs:
        write_random_graphs(o.write_random_graphs, [int(n) for n in o.sizes.split(",")])
        return
    if not o.hamon or not o.instances or not (o.sa_python or o.no_sa):
        p.error("--hamon, --instances and --sa-python (or --no-sa) are required")
    instances = sorted(glob.glob(os.path.join(o.instances, "*.txt")),
                       key=lambda s: [int(x) if x.isdigit() else x for x in re.split(r"(\d+)", s)])
    lines = [f"command: {' '.join(sys.argv)}", f"started: {time.strftime('%Y-%m-%d %H:%M:%S UTC', time.gmtime())}",
             f"load average before: {os.getloadavg()[0]:.2f}", ""]
    work = tempfile.mkdtemp(prefix="search_peers-")
    jobs = [(i, s) for i in instances for s in range(1, o.seeds + 1)]
    with concurrent.futures.ThreadPoolExecutor(max_workers=o.jobs) as pool:
        runs = list(pool.map(lambda j: hamon_run(o.hamon, j[0], j[1], work, o.nrpt), jobs))
    lines += ["| instance | target | hamon: hit s per seed | hamon TTS99 s | hamon whole run s | "
              "stop round / found round | hamon gap per seed | SA best setting | SA p | "
              "SA t_read s | SA TTS99 s | SA best gap | ratio SA/hamon |", "|" + "---|" * 13]
    for instance in instances:
        mine = [(seed, wall, s) for inst, seed, wall, s in runs if inst == instance]
        sa = [] if o.no_sa else sa_runs(o.sa_python, instance, o.sa_sweeps, o.sa_reads, 1)
        exact = exact_energy(instance)
        if exact is not None:
            target, kind = exact, "exact"
        else:
            target = min([s["best"] for _, _, s in mine] +
                         [e for row in sa for e in row["energies"]])
            kind = "best known"
        hits, walls, stops, gaps = [], [], [], []
        for seed, wall, s in mine:
            ok = reached(s["best"], target)
            setup = s["total_s"] - s["sampling_s"]
            hits.append(setup + s["sampling_s"] * (s["found"] + 1) / s["rounds"] if ok else None)
            walls.append(wall)
            stops.append(f"{s['rounds']}/{s['found'] + 1}")
            gaps.append(s["best"] - target)
        hamon_tts = tts_from_hits(hits)
        hit_text = ", ".join("—" if h is None else f"{h:.2f}" for h in hits)
        row = (f"| {os.path.basename(instance)} | {target:.6f} ({kind}) | {hit_text} | "
               f"{'∞' if not math.isfinite(hamon_tts) else f'{hamon_tts:.2f}'} | "
               f"{', '.join(f'{w:.1f}' for w in walls)} | {', '.join(stops)} | "
               f"{', '.join(f'{g:.4f}' for g in gaps)} |")
        if sa:
            best = sa_best(sa, target)
            ratio = (best[0] / hamon_tts if math.isfinite(best[0]) and math.isfinite(hamon_tts)
                     else math.inf if math.isfinite(hamon_tts) else math.nan)
            row += (f" num_sweeps {best[2]} | {best[3]:.2f} | {best[4]:.3f} | "
                    f"{'∞' if not math.isfinite(best[0]) else f'{best[0]:.2f}'} | {best[1]:.4f} | "
                    f"{'∞' if math.isinf(ratio) else 'n/a' if math.isnan(ratio) else f'{ratio:.1f}'} |")
        else:
            row += " — | — | — | — | — | — |"
        lines.append(row)
        print(row, flush=True)
    lines += ["", (f"SA settings tried per instance: num_sweeps in {o.sa_sweeps}, {o.sa_reads} reads "
                   "each, seed 1, default beta schedule; " if not o.no_sa else "No SA. ") +
              f"hamon seeds 1..{o.seeds}" + (f", nrpt extra: {o.nrpt}" if o.nrpt else "") + "."]
    text = "\n".join(lines) + "\n"
    if o.out:
        with open(o.out, "w", encoding="utf-8") as f:
            f.write(text)
    print(text)


if __name__ == "__main__":
    main()
