#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Runs perf/bench_mpi_round under mpirun for several rank counts, fits the alpha-beta
model of MPI_Allgather to its measurements and extrapolates the per-round exchange of an
NRPT run to many ranks. Results: perf/results/mpi_round/ (one DATE-WHERE.md and .json
per recording).

  python3 perf/tools/mpi_model.py run --bench build/bin/bench_mpi_round --ranks 1,2,3,4 \
      --out perf/results/mpi_round/DATE-one-node.json [--md FILE]
  python3 perf/tools/mpi_model.py fit perf/results/mpi_round/DATE-one-node.json [--md FILE]

Model (Thakur, Rabenseifner & Gropp, "Optimization of Collective Communication Operations
in MPICH", IJHPCA 19(1), 2005): an allgather of n bytes in total over p ranks by recursive
doubling (p a power of two) or Bruck's algorithm costs
    T = ceil(log2 p) alpha + (p - 1) / p * n * beta,
the ring algorithm (p - 1) alpha + (p - 1) / p * n * beta (what long messages use). The
local computation term of Bruck's final rotation is left out. Per rank count the
measurements give T = a + b n (least squares on relative error), so alpha = a /
ceil(log2 p) and beta = b / ((p - 1) / p). Only p = 2 runs on its own cores on the 2-core
machine this was written on; p = 3, 4 share cores and are reported, not used for the
headline fit.
"""

import argparse
import json
import math
import os
import subprocess
import sys
import tempfile

# Interconnect parameters for the "cluster" rows: not measured here. beta from the line
# rates of InfiniBand EDR (100 Gb/s = 12.5 GB/s) and HDR (200 Gb/s = 25 GB/s); alpha 1-2
# us, the usual order of an MPI small-message latency over InfiniBand plus a software
# collective step (an assumption; measure osu_allgather on the target machine).
CLUSTER = [
    ("InfiniBand EDR-like, alpha 2 us", 2e-6, 1 / 12.5e9),
    ("InfiniBand HDR-like, alpha 1 us", 1e-6, 1 / 25e9),
]
TARGET_RANKS = 1000
MACHINES_PER_GROUP = 16


def run(args):
    env = dict(os.environ)
    env.setdefault("OMPI_ALLOW_RUN_AS_ROOT", "1")
    env.setdefault("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1")
    env.setdefault("OMPI_MCA_btl_vader_single_copy_mechanism", "none")
    env.setdefault("OMP_PROC_BIND", "false")
    results = []
    for p in [int(x) for x in args.ranks.split(",")]:
        with tempfile.TemporaryDirectory() as tmp:
            out = os.path.join(tmp, f"ranks{p}.json")
            command = ["mpirun", "--oversubscribe", "-np", str(p), args.bench, "--json", out]
            command += args.extra
            print("$", " ".join(command), file=sys.stderr, flush=True)
            subprocess.run(command, check=True, env=env, stdout=sys.stderr)
            with open(out, encoding="utf-8") as f:
                results.append(json.load(f))
    with open(args.out, "w", encoding="utf-8") as f:
        json.dump(results, f, indent=1)
        f.write("\n")
    report(results, args.md)


def log2_steps(p):
    return max(1, math.ceil(math.log2(p))) if p > 1 else 0


def fit_allgather(points, p):
    """a (s), b (s/byte) of T = a + b n, least squares on the relative error."""
    n = [float(q["bytes"]) for q in points]
    t = [q["median_us"] * 1e-6 for q in points]
    # Minimise sum ((a + b n_i - t_i) / t_i)^2: the 2 x 2 normal equations.
    w = [1.0 / (ti * ti) for ti in t]
    s0 = sum(w)
    s1 = sum(wi * ni for wi, ni in zip(w, n))
    s2 = sum(wi * ni * ni for wi, ni in zip(w, n))
    r0 = sum(wi * ti for wi, ti in zip(w, t))
    r1 = sum(wi * ni * ti for wi, ni, ti in zip(w, n, t))
    det = s0 * s2 - s1 * s1
    a = (r0 * s2 - r1 * s1) / det
    b = (s0 * r1 - s1 * r0) / det
    worst = max(abs(a + b * ni - ti) / ti for ni, ti in zip(n, t))
    alpha = a / log2_steps(p)
    beta = b / ((p - 1) / p)
    return {"p": p, "a": a, "b": b, "alpha": alpha, "beta": beta, "worst_rel_error": worst}


def allgather_time(p, n_bytes, alpha, beta, ring=False):
    steps = (p - 1) if ring else log2_steps(p)
    return steps * alpha + (p - 1) / p * n_bytes * beta


def table(header, rows):
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(str(c) for c in r) + " |" for r in rows]
    return "\n".join(lines)


def report(results, md_path):
    by_p = {r["ranks"]: r for r in results}
    ranks = sorted(by_p)
    cores = results[0].get("cores", 0)
    out = ["### Runs\n"]
    out.append(table(["p", "date", "load at start", "load at end"],
                     [[p, by_p[p].get("date", "?"), by_p[p].get("load_start", "?"),
                       by_p[p].get("load_end", "?")] for p in ranks]))
    out.append("")

    def note(p):
        return f"{p}" + (" (oversubscribed)" if cores and p > cores else "")

    # Allgather measurements.
    if all("allgather" in by_p[p] for p in ranks):
        sizes = [q["per_rank"] for q in by_p[ranks[0]]["allgather"]]
        rows = []
        for k, c in enumerate(sizes):
            rows.append([c, 8 * c] + [f"{by_p[p]['allgather'][k]['median_us']:.2f}" for p in ranks])
        out.append("### MPI_Allgather, median us (per-rep max over ranks)\n")
        out.append(table(["int64 per rank", "bytes per rank"] + [f"p = {note(p)}" for p in ranks],
                         rows))
    # Fits.
    fits = {}
    for p in ranks:
        if p >= 2 and "allgather" in by_p[p]:
            fits[p] = fit_allgather(by_p[p]["allgather"], p)
    if fits:
        out.append("\n### alpha-beta fit, T = ceil(log2 p) alpha + (p-1)/p n beta\n")
        rows = []
        for p, f in fits.items():
            rows.append([note(p), f"{f['a'] * 1e6:.2f}", f"{f['alpha'] * 1e6:.2f}",
                         f"{f['beta'] * 1e9:.4f}", f"{1 / f['beta'] / 1e9:.2f}",
                         f"{100 * f['worst_rel_error']:.0f} %"])
        out.append(table(["p", "a us", "alpha us", "beta ns/byte", "1/beta GB/s",
                          "worst fit error"], rows))
    # Exchange + decisions per round.
    if all("round" in by_p[p] for p in ranks):
        chains = [q["chains"] for q in by_p[ranks[0]]["round"]]
        rows = []
        for k, c in enumerate(chains):
            cells = [c]
            for p in ranks:
                q = by_p[p]["round"][k]
                cells.append(f"{q['total_us']:.2f} ({q['gather_us']:.2f} + {q['decide_us']:.2f})")
            rows.append(cells)
        out.append("\n### Exchange + decisions per round, us: total (gather + decide)\n")
        out.append(table(["chains"] + [f"p = {note(p)}" for p in ranks], rows))
    # Weak scaling.
    weak = {p: {(w["variant"], w["L"]): w for w in by_p[p].get("weak", [])} for p in ranks}
    sides = sorted({L for p in ranks for (_, L) in weak[p]})
    if sides and 1 in weak:
        rows = []
        for L in sides:
            base = weak[1][("coupled", L)]
            for p in ranks:
                c, i, pl = (weak[p][(v, L)] for v in ("coupled", "independent", "plain"))
                rows.append([
                    L, note(p), 16 * p,
                    f"{c['round_us']:.0f} / {c.get('min_round_us', c['round_us']):.0f}",
                    f"{i['round_us']:.0f} / {i.get('min_round_us', i['round_us']):.0f}",
                    f"{c['updates_per_ns']:.3f} / {c.get('best_updates_per_ns', 0):.3f}",
                    f"{i['updates_per_ns']:.3f} / {i.get('best_updates_per_ns', 0):.3f}",
                    f"{pl['updates_per_ns']:.4f}",
                    f"{base['round_us'] / c['round_us']:.2f} / "
                    f"{base.get('min_round_us', 0) / c.get('min_round_us', 1):.2f}",
                    f"{i['round_us'] / c['round_us']:.2f} / "
                    f"{i.get('min_round_us', 0) / c.get('min_round_us', 1):.2f}",
                    f"{c['updates_per_ns'] / pl['updates_per_ns']:.1f}",
                    f"{c.get('exchange_max_us', 0):.1f}, {c.get('exchange_min_us', 0):.1f}"])
        out.append("\n### Weak scaling, 16 machines per rank, n_expl = 1 (median / min of the calls)\n")
        out.append(table(["L", "p", "chains", "coupled round us", "independent round us",
                          "coupled updates/ns", "independent updates/ns", "plain updates/ns",
                          "efficiency T1/Tp (coupled)", "independent / coupled",
                          "coupled x plain (median)",
                          "coupled: in exchange us/round (max, min rank)"], rows))
    # Extrapolation.
    if fits and "round" in by_p.get(1, {}) and 1 in weak:
        f2 = fits[min(fits)]
        decide_1024 = max(by_p[1]["round"], key=lambda q: q["chains"])
        ns_per_chain = decide_1024["decide_us"] * 1e3 / decide_1024["chains"]
        largest = max(sides)
        rate = weak[1][("independent", largest)]["updates_per_ns"]  # one rank, 16 machines
        out.append(f"\n### Extrapolation to p = {TARGET_RANKS}\n")
        out.append(f"Replicated decisions: {ns_per_chain:.1f} ns per chain (p = 1, "
                   f"{decide_1024['chains']} chains, DEO pass + index process, Serial). "
                   f"Sweep: {rate:.3f} updates/ns per rank (one rank, 16 machines, L = "
                   f"{largest}, this run). L_10 % = the side below which the exchange and "
                   f"decisions are >= 10 % of a round of 16 machines x n_expl = 1 at that "
                   f"rate (t_sweep <= 9 t_x); for n_expl sweeps per round divide by "
                   f"sqrt(n_expl).\n")
        rows = []
        models = [(f"this machine (fit p = {f2['p']}), log2", f2["alpha"], f2["beta"], False),
                  (f"this machine (fit p = {f2['p']}), ring", f2["alpha"], f2["beta"], True)]
        models += [(name + ", log2", a, b, False) for name, a, b in CLUSTER]
        models += [(name + ", ring", a, b, True) for name, a, b in CLUSTER]
        for per_rank in (8, 16):
            machines = TARGET_RANKS * per_rank
            n_bytes = 8 * machines
            decide = ns_per_chain * machines * 1e-9
            for name, a, b, ring in models:
                t_gather = allgather_time(TARGET_RANKS, n_bytes, a, b, ring)
                t_x = t_gather + decide
                side = math.sqrt(9 * t_x * rate * 1e9 / MACHINES_PER_GROUP)
                rows.append([f"{per_rank} ({machines} chains, {n_bytes // 1000} kB)", name,
                             f"{t_gather * 1e6:.1f}", f"{decide * 1e6:.1f}",
                             f"{t_x * 1e6:.1f}", f"{side:.0f}"])
        out.append(table(["machines per rank", "model", "allgather us", "decisions us",
                          "exchange + decisions us", "L_10 %"], rows))
    text = "\n".join(out) + "\n"
    print(text)
    if md_path:
        with open(md_path, "w", encoding="utf-8") as f:
            f.write(text)


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)
    r = sub.add_parser("run")
    r.add_argument("--bench", default="build/bin/bench_mpi_round")
    r.add_argument("--ranks", default="1,2,3,4")
    r.add_argument("--out", required=True)
    r.add_argument("--md")
    r.add_argument("extra", nargs="*", help="passed to the benchmark (after --)")
    f = sub.add_parser("fit")
    f.add_argument("json")
    f.add_argument("--md")
    args = parser.parse_args()
    if args.command == "run":
        run(args)
    else:
        with open(args.json, encoding="utf-8") as fh:
            report(json.load(fh), args.md)


if __name__ == "__main__":
    main()
