#!/usr/bin/python3
# SPDX-License-Identifier: Apache-2.0
"""Side by side: this hamon's continuous models against the Python/JAX hamon's
`GaussianEBM` and `DoubleWellEBM` (PyPI `hamon` 0.12).

One invocation, from the repository root:

    python3 perf/compare/compare_continuous.py --hamon /work/main/build/bin/hamon

For each model (gaussian, double_well) and each size (--L 16,32,64 periodic lattices and a
--graph N random sparse graph), the same run on both sides: coupling J on every bond,
d_i / lambda_i and h_i on every node, an explicit linear ladder of --chains betas from 0
to 1 on the annealing path from the node terms (C++ `nrpt.reference: independent`;
Python `AnnealedEBM(reference, target)`), --burn-in + --rounds NRPT rounds of --sweeps
block sweeps (every site once per sweep: an exact Gaussian draw or one slice-sampling
step), one DEO swap pass per round, no ladder adaptation. Then:

1. the venv of compare_with_jax.py (imported: same helpers, same place);
2. C++: `hamon run` on a generated YAML per device (--device serial,cpu; cpu = OpenMP with
   OMP_NUM_THREADS=2 unless set); Python: jax_continuous_driver.py in the venv, timed as
   jax_driver.py times the Ising peer (the library's own `_time_per_round` way);
3. the headline: site updates per second in the steady state (nodes x chains x sweeps x
   all rounds / seconds; medians on both sides), the ratio C++/Python, and the 20x floor;
4. equal work: the cold chain's E - E_ref per node (both sides record it: -sum J x_i x_j)
   agrees within 4 combined standard errors (32 batch means); for the Gaussian also the
   exact value (Fourier sum on the lattice, a dense inverse on the graph), for information;
5. the record perf/results/compare_jax/DATE-continuous.md.

See perf/compare/README.md ("Continuous models").
"""

import argparse
import datetime
import os
import platform
import shlex
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import compare_with_jax as cw  # noqa: E402  (re-execs with /usr/bin/python3 if numpy/yaml lack)
import numpy as np  # noqa: E402

ROOT = cw.ROOT
FLOOR = 20.0
WEIGHT_KEY = {"gaussian": "diag", "double_well": "barrier"}


# --------------------------------------------------------------------------- cases

def random_graph(n, degree, coupling, seed):
    """n nodes, n * degree / 2 distinct uniformly random edges, J = coupling on each."""
    rng = np.random.default_rng(seed)
    m = n * degree // 2
    seen, edges = set(), []
    while len(edges) < m:
        i, j = (int(x) for x in rng.integers(0, n, size=2))
        if i == j:
            continue
        key = (min(i, j), max(i, j))
        if key not in seen:
            seen.add(key)
            edges.append((key[0], key[1], coupling))
    return edges


def graph_weights(model, n, edges, a):
    """lambda_i = --barrier; d_i = max(--diag, 1.25 sum_j |J_ij|) (strict diagonal dominance,
    so the precision is positive definite by Gershgorin; on the lattice with the defaults
    this is --diag itself)."""
    if model == "double_well":
        return [a.barrier] * n
    row = np.zeros(n)
    for i, j, c in edges:
        row[i] += abs(c)
        row[j] += abs(c)
    return [max(a.diag, 1.25 * float(r)) for r in row]


def exact_gaussian(case, a):
    """The exact <E - E_ref> / n of the Gaussian model at beta = 1."""
    h = a.field
    if case["L"]:
        L, J, d = case["L"], a.coupling, a.diag
        k = 2.0 * np.pi * np.arange(L) / L
        kx, ky = np.meshgrid(k, k)
        c10 = float(np.mean(np.cos(kx) / (d - 2.0 * J * (np.cos(kx) + np.cos(ky)))))
        mu = h / (d - 4.0 * J)
        return -2.0 * J * (c10 + mu * mu)
    n, edges, w = case["n"], case["edges"], case["weights"]
    P = np.diag(np.asarray(w, dtype=np.float64))
    for i, j, c in edges:
        P[i, j] -= c
        P[j, i] -= c
    C = np.linalg.inv(P)
    mu = C @ np.full(n, h)
    return -sum(c * (C[i, j] + mu[i] * mu[j]) for i, j, c in edges) / n


def make_case(model, size, a, workdir):
    """One comparison case: ("L", 32) or ("graph", 1024)."""
    kind, value = size
    if kind == "L":
        return {"model": model, "tag": f"{model}_L{value}", "L": value, "n": value * value,
                "label": f"{value}×{value} periodic lattice",
                "yaml_model": {"kind": model, "shape": [value, value], "periodic": True,
                               "coupling": a.coupling,
                               WEIGHT_KEY[model]: a.diag if model == "gaussian" else a.barrier,
                               "field": a.field},
                "peer_where": ["--L", str(value)]}
    n = value
    edges = random_graph(n, a.graph_degree, a.coupling, a.graph_seed)
    weights = graph_weights(model, n, edges, a)
    path = os.path.join(workdir, f"graph_{model}_N{n}.txt")
    with open(path, "w") as f:
        f.write(f"{n}\n")
        f.writelines(f"{i} {j} {c!r}\n" for i, j, c in edges)
        f.writelines(f"{x!r}\n" for x in weights)
    return {"model": model, "tag": f"{model}_N{n}", "L": None, "n": n,
            "label": f"random graph, {n} nodes, {len(edges)} edges (seed {a.graph_seed})",
            "edges": edges, "weights": weights, "graph_file": path,
            "yaml_model": {"kind": model, "nodes": n, "edges": [[i, j, c] for i, j, c in edges],
                           WEIGHT_KEY[model]: weights, "field": a.field},
            "peer_where": ["--graph", path]}


def peer_cmd(a, case, betas, seed, out_json, lean, slice_args=()):
    return ([cw.venv_python(a.venv), os.path.join(HERE, "jax_continuous_driver.py"),
             "--model", case["model"]] + case["peer_where"]
            + ["--coupling", repr(a.coupling),
               "--weight", repr(a.diag if case["model"] == "gaussian" else a.barrier),
               "--field", repr(a.field)] + list(slice_args)
            + cw.driver_args(betas, a.rounds + a.burn_in, a.sweeps, seed, out_json, True,
                             a.peer_reps, lean))


def run_case(a, case, betas, workdir, env_cpp, env_jax):
    def write_cfg(path, device):
        cw.write_yaml(path, None, betas, a.rounds, a.burn_in, a.sweeps, a.seed, device,
                      model=case["yaml_model"], reference="independent")

    def peer(seed, out_json, lean):
        return cw.run_peer(peer_cmd(a, case, betas, seed, out_json, lean), out_json, env_jax)

    load = cw.loadavg()
    res = cw.compare_case(a, case["tag"], case["n"], write_cfg, peer, a.reps, workdir,
                          env_cpp, True)
    res["load"] = (load, cw.loadavg())
    res["case"] = case
    if case["model"] == "gaussian":
        res["exact"] = exact_gaussian(case, a)
    return res


# --------------------------------------------------------------------------- record

def per_s(updates, seconds):
    return updates / seconds


def fmt_rate(x):
    return f"{x / 1e6:.4g} M/s"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--models", default="gaussian,double_well")
    ap.add_argument("--L", default="16,32,64", help="lattice sides (even), '' = none")
    ap.add_argument("--graph", type=int, default=1024,
                    help="nodes of the random sparse graph (0 = no graph case)")
    ap.add_argument("--graph-degree", type=int, default=4, help="mean degree of the graph")
    ap.add_argument("--graph-seed", type=int, default=7)
    ap.add_argument("--coupling", type=float, default=0.2, help="J on every bond")
    ap.add_argument("--diag", type=float, default=1.0, help="Gaussian d_i")
    ap.add_argument("--barrier", type=float, default=1.0, help="double-well lambda_i")
    ap.add_argument("--field", type=float, default=0.0, help="h_i on every node")
    cw.add_case_args(ap, chains=32, rounds=500, burn_in=50, reps=2, peer_reps=3,
                     device="serial,cpu", cpp_timeout=120.0)
    ap.add_argument("--library-slice-L", type=int, default=32,
                    help="also time the Python double well at this L with the library's own "
                         "slice defaults (width 2, 8 steps) against the same C++ runs (0 = no)")
    cw.add_venv_args(ap)
    ap.add_argument("--results", default=os.path.join(ROOT, "perf", "results", "compare_jax"))
    ap.add_argument("--no-record", action="store_true")
    a = ap.parse_args()
    cw.resolve_venv(a)
    a.devices = [d.strip() for d in a.device.split(",") if d.strip()]
    models = [m.strip() for m in a.models.split(",") if m.strip()]
    sizes = [("L", int(x)) for x in a.L.split(",") if x.strip()]
    if a.graph:
        sizes.append(("graph", a.graph))
    for m in models:
        if m not in WEIGHT_KEY:
            raise SystemExit(f"error: unknown model {m}")
    if any(L % 2 or L < 4 for k, L in sizes if k == "L"):
        raise SystemExit("error: lattice sides must be even and >= 4")
    if a.chains < 2 or a.rounds < cw.N_BATCHES:
        raise SystemExit(f"error: --chains >= 2 and --rounds >= {cw.N_BATCHES}")
    if not os.path.exists(a.hamon):
        raise SystemExit(f"error: {a.hamon} not found")

    t_start = time.time()
    now = datetime.datetime.now(datetime.timezone.utc)
    load_before = cw.loadavg()
    versions, install_cmds = cw.ensure_venv(a.venv, a.base_python, a.hamon_spec, a.reinstall)
    cpp_version = subprocess.run([a.hamon, "--version"], capture_output=True,
                                 text=True).stdout.strip()
    workdir = os.path.join(ROOT, "build", "compare-runs")
    os.makedirs(workdir, exist_ok=True)
    env_cpp = dict(os.environ)
    env_cpp.setdefault("OMP_NUM_THREADS", "2")
    env_cpp.setdefault("OMP_PROC_BIND", "false")
    env_jax = dict(os.environ)
    env_jax.setdefault("JAX_PLATFORMS", "cpu")
    betas = [i / (a.chains - 1) for i in range(a.chains)]

    results = []
    for model in models:
        for size in sizes:
            case = make_case(model, size, a, workdir)
            cw.log(f"{case['tag']}: {case['label']}, {a.chains} chains (linear 0..1), "
                   f"{a.sweeps} sweeps/round, {a.burn_in} + {a.rounds} rounds, {a.reps} reps")
            results.append(run_case(a, case, betas, workdir, env_cpp, env_jax))
    extra = None
    if a.library_slice_L and "double_well" in models:
        match = [r for r in results if r["case"]["model"] == "double_well"
                 and r["case"]["L"] == a.library_slice_L]
        if match:
            r = match[0]
            out = os.path.join(workdir, f"jax_{r['tag']}_libslice.json")
            cmd = peer_cmd(a, r["case"], betas, a.seed + 1, out, False,
                           ["--width", "2.0", "--max-stepout", "8"])
            cw.log(f"{r['tag']}: the Python peer with the library's slice defaults")
            j = cw.run_peer(cmd, out, env_jax)
            extra = {"res": r, "run": j, "own_s": cw.median(j["own_calls_s"][1:])}
    load_after = cw.loadavg()

    ok = True
    cw.log("")
    for r in results:
        jr = per_s(r["updates"], r["jax_own_s"])
        line = f"{r['tag']:>20}: Python {fmt_rate(jr)}"
        for d in a.devices:
            c = r["cpp"][d]
            ok = ok and c["ok"]
            line += (f" | C++ {d} {fmt_rate(per_s(r['updates'], c['sampling_s']))} "
                     f"= {c['steady_ratio']:.3g}x ({'met' if c['steady_ratio'] >= FLOOR else 'MISSED'}) "
                     f"z {c['z']:+.2f}")
        cw.log(line)
    if a.no_record:
        return 0 if ok else 1

    md_path = os.path.join(a.results, f"{now.strftime('%Y-%m-%d')}-continuous.md")
    os.makedirs(a.results, exist_ok=True)
    with open(md_path, "w") as f:
        f.write(record(a, results, extra, versions, install_cmds, cpp_version, env_cpp, now,
                       load_before, load_after, time.time() - t_start, betas))
    cw.log(f"\nwrote {cw.rel(md_path)}")
    return 0 if ok else 1


def record(a, results, extra, versions, install_cmds, cpp_version, env_cpp, now,
           load_before, load_after, seconds, betas):
    argv = " ".join(shlex.quote(x) for x in sys.argv[1:])
    r0 = results[0]
    j0 = r0["jax_runs"][0]
    c0 = cw.first_run(r0, a.devices[0])
    pyver = cw.python_version(cw.venv_python(a.venv))

    def show(x):
        return cw.rel(x) if x.startswith(ROOT) else x

    md = ["# compare_jax — continuous models: this hamon (C++/Kokkos) vs the Python/JAX hamon\n"]
    md.append(f"- machine: {cw.cpu_model()}, {os.cpu_count()} cores, {platform.system()} "
              f"{platform.release()}")
    md.append(f"- date: {now.strftime('%Y-%m-%d %H:%M UTC')}; load average before "
              f"{' '.join(load_before)}, after {' '.join(load_after)} (the machine is shared; "
              "each case's load is in its table row)")
    md.append(f"- command: `python3 perf/compare/compare_continuous.py{(' ' + argv) if argv else ''}`"
              f" ({seconds:.0f} s in all)")
    md.append(f"- C++: `{cpp_version}` ({show(a.hamon)}), devices "
              + ", ".join(f"`{d}` -> `{cw.first_run(r0, d)['placement']}` "
                          f"({cw.first_run(r0, d)['space']})" for d in a.devices)
              + f"; OMP_NUM_THREADS={env_cpp['OMP_NUM_THREADS']}, "
              f"OMP_PROC_BIND={env_cpp['OMP_PROC_BIND']}")
    md.append(f"- Python: hamon {versions[0]} (PyPI), jax {versions[1]}, jaxlib {versions[2]} "
              f"(CPU), Python {pyver} in `{show(a.venv)}`; JAX devices {j0['jax_devices']}")
    if install_cmds:
        md.append("- venv set-up this run: " + "; ".join(
            "`" + " ".join(shlex.quote(show(x)) for x in c) + "`" for c in install_cmds))
    md.append("")
    md.append("## The runs (identical on both sides)\n")
    md.append(f"- models (C++ convention, J the coupling): Gaussian E = Σ_i (d x_i²/2 − h x_i) − "
              f"Σ_(ij) J x_i x_j with d = {a.diag}; double well E = Σ_i (λ (x_i² − 1)² − h x_i) − "
              f"Σ_(ij) J x_i x_j with λ = {a.barrier}; J = {a.coupling} on every bond, "
              f"h = {a.field} on every node")
    md.append("- sizes: periodic L×L lattices (checkerboard, 2 blocks on both sides) for L = "
              + ", ".join(str(r["case"]["L"]) for r in results
                          if r["case"]["L"] and r["case"]["model"] == r0["case"]["model"])
              + (f"; a random sparse graph of {a.graph} nodes, {a.graph * a.graph_degree // 2} "
                 f"distinct uniformly drawn edges (numpy seed {a.graph_seed}), the same explicit "
                 f"edge list on both sides (C++: inline `nodes`/`edges` and a per-node "
                 f"`diag`/`barrier` list; Python: a text file), d_i = max({a.diag}, 1.25 Σ_j |J_ij|)"
                 f" (strictly diagonally dominant), λ_i = {a.barrier}; each side colours it "
                 f"itself (Python: `hamon.graph_utils.rlf_coloring`, "
                 + ", ".join(f"{r['jax_runs'][0].get('n_blocks')} blocks for {r['case']['model']}"
                             for r in results if not r["case"]["L"]) + ")"
                 if a.graph else ""))
    md.append(f"- ladder: {a.chains} chains, linear in β from 0 to 1, explicit, not adapted; "
              "the annealing path from the node terms: the machine at β samples "
              "exp(−E_ref − β (E − E_ref)), E_ref = Σ_i node term (independent sites, proper "
              "at β = 0), β = 1 the model")
    md.append(f"- NRPT: {a.burn_in} burn-in + {a.rounds} measured rounds, {a.sweeps} block sweeps "
              "of every chain per round (every site once per sweep: one exact Gaussian draw, or "
              "one slice-sampling step), one DEO swap pass per round")
    md.append(f"- C++: `{' '.join(show(x) for x in c0['cmd'])}` on a generated YAML "
              "(`model: {kind: gaussian|double_well, ...}`, `nrpt: {betas: [...], "
              "adapt_schedule: false, reference: independent, ...}`, energies and index "
              "process on, samples and moments off; one YAML per device and case, in "
              "`build/compare-runs/`)")
    md.append("- Python: `hamon.nrpt(key, ebm, program, init, [], rounds, sweeps, betas=ladder, "
              "observer=AllEnergies(), device=\"cpu\")` in template (affine) mode with "
              "`ebm = AnnealedEBM(reference, target, 1.0)`, `target = GaussianEBM(nodes, edges, "
              "diag=d, lin=h, couplings=−J, beta=1)` / `DoubleWellEBM(nodes, edges, barrier=λ, "
              "lin=h, couplings=−J, beta=1)`, `reference` the same class with no edges, "
              "`program = GaussianSamplingProgram(ebm, blocks, [])` (exact normal draw, "
              "`GaussianGibbsConditional`) / `DoubleWellSamplingProgram(ebm, blocks, [], "
              "width=1/√λ, max_stepout=16)` (`SliceGibbsConditional`: the C++ update's width and "
              "stepping-out budget; see below for the library's defaults): "
              f"`{show(j0['cmd'][0])} perf/compare/jax_continuous_driver.py "
              f"{' '.join(shlex.quote(show(x)) for x in j0['cmd'][2:] if ',' not in x)} ...` "
              "(`--betas` elided)")
    md.append("- what differs in the update itself: the slice step — C++ bounds the shrinkage at "
              "32 tries (then keeps x₀; exact, see `real_updates.hpp`) and steps out with early "
              "exit; the library's shrinkage is unbounded and its stepping-out loop always runs "
              "`max_stepout` vectorised iterations (under `vmap` a `while` loop runs until the "
              "slowest site of the block is done). Arithmetic: C++ double, Python float32.")
    md.append("- energies: both sides record the swap energy E − E_ref = −Σ J x_i x_j (the "
              "library's affine mode records Δ = E(β=1) − E(β=0) of `AnnealedEBM`, i.e. "
              "target − reference; its pair term is +c x_i x_j with c = −J and its double-well "
              "constant λ drops out of Δ), so no conversion is needed")
    md.append("")
    md.append("## Results\n")
    md.append("Site updates per second in the steady state = nodes × chains × sweeps × "
              f"({a.burn_in} + {a.rounds}) rounds / seconds: C++ `timing.sampling_s` (median of "
              f"{a.reps} fresh processes); Python the median of the {a.peer_reps} timed calls of "
              "each process after its warm-up call, pooled over the processes (each call ended "
              "by `jax.block_until_ready`, `_emit_diagnostics=False`: the library's own "
              "`_time_per_round` way). Ratio = C++ rate / Python rate; the floor is "
              f"{FLOOR:g}×.\n")
    hdr = ("| model | size | nodes | Python | " + " | ".join(
        f"C++ `{d}` | ratio | ≥ {FLOOR:g}×" for d in a.devices) + " | load (1 min) |")
    md.append(hdr)
    md.append("|" + "---|" * (hdr.count("|") - 1))
    met = missed = 0
    for r in results:
        case = r["case"]
        size = f"L = {case['L']}" if case["L"] else f"graph N = {case['n']}"
        row = f"| {case['model']} | {size} | {r['n']} | {fmt_rate(per_s(r['updates'], r['jax_own_s']))} | "
        cells = []
        for d in a.devices:
            c = r["cpp"][d]
            good = c["steady_ratio"] >= FLOOR
            met += good
            missed += not good
            cells.append(f"{fmt_rate(per_s(r['updates'], c['sampling_s']))} | "
                         f"**{c['steady_ratio']:.3g}×** | {'met' if good else '**missed**'}")
        md.append(row + " | ".join(cells) + f" | {r['load'][0][0]} → {r['load'][1][0]} |")
    md.append("")
    md.append(f"**Verdict against the {FLOOR:g}× floor: met in {met} of {met + missed} "
              f"(case, device) pairs, missed in {missed}.**\n")
    md.append("Best against best (Python: fastest timed call; C++: fastest process), the "
              "Python CPU seconds per call (the JAX round loop runs on about one core, so "
              "this is what a quiet machine's wall time would be), and cold time-to-result "
              "(fresh process to energies, best of the processes; Python includes imports, "
              "tracing and XLA compilation):\n")
    hdr = ("| case | Python best call s | Python CPU s/call | " + " | ".join(
        f"C++ `{d}` best s | best/best" for d in a.devices) + " | Python cold s | " + " | ".join(
        f"C++ `{d}` cold s" for d in a.devices) + " |")
    md.append(hdr)
    md.append("|" + "---|" * (hdr.count("|") - 1))
    for r in results:
        md.append(f"| {r['tag']} | {r['jax_own_min_s']:.3f} | {r['jax_own_cpu_s']:.3f} | "
                  + " | ".join(f"{r['cpp'][d]['sampling_min_s']:.4f} | "
                               f"{r['cpp'][d]['steady_ratio_best']:.3g}×" for d in a.devices)
                  + f" | {r['jax_cold_s']:.2f} | "
                  + " | ".join(f"{r['cpp'][d]['cold_s']:.3f}" for d in a.devices) + " |")
    md.append("")
    if extra:
        r = extra["res"]
        rate = per_s(r["updates"], extra["own_s"])
        md.append(f"The double well at L = {r['case']['L']} with the library's own slice "
                  f"defaults (width 2, `max_stepout` 8) instead of the C++ update's (width 1/√λ, "
                  f"16 steps), one more Python process: {fmt_rate(rate)} (median call "
                  f"{extra['own_s']:.3f} s; calls "
                  + ", ".join(f"{t:.3f}" for t in extra["run"]["own_calls_s"])
                  + " s, the first the warm-up); against the same C++ runs: "
                  + ", ".join(f"`{d}` {extra['own_s'] / r['cpp'][d]['sampling_s']:.3g}×"
                              for d in a.devices) + ".\n")
    md.append("## Equal work\n")
    md.append("The cold chain's E − E_ref per node over the measured rounds, mean ± standard "
              f"error from {cw.N_BATCHES} batch means, first process of each side (independent "
              "seeds); agreement means |Δ| ≤ 4·sqrt(se₁² + se₂²). For the Gaussian the exact "
              "value −(1/N) Σ_(ij) J (C_ij + μ_i μ_j), C = P⁻¹, μ = C h (P = diag(d) − J), is "
              "given too (lattice: Fourier sum; graph: dense inverse).\n")
    hdr = "| case | Python | " + " | ".join(f"C++ `{d}` | z" for d in a.devices) + " | exact |"
    md.append(hdr)
    md.append("|" + "---|" * (hdr.count("|") - 1))
    for r in results:
        m, s, _ = r["jax_energy"]
        exact = f"{r['exact']:.5f}" if "exact" in r else "—"
        md.append(f"| {r['tag']} | {m:.5f} ± {s:.5f} | " + " | ".join(
            f"{r['cpp'][d]['energy'][0]:.5f} ± {r['cpp'][d]['energy'][1]:.5f} | "
            f"{r['cpp'][d]['z']:+.2f} {'agree' if r['cpp'][d]['ok'] else '**DISAGREE**'}"
            for d in a.devices) + f" | {exact} |")
    md.append("")
    md.append("## Per process\n")
    md.append("C++: cold s / sampling s per device; Python: cold s / first call s / second "
              "call s / own-method calls s (the first the warm-up).\n")
    for r in results:
        for k, j in enumerate(r["jax_runs"]):
            parts = [f"C++ {d} " + (f"{r['cpp'][d]['runs'][k]['cold_s']:.3f} / "
                                    f"{r['cpp'][d]['runs'][k]['sampling_s']:.4f}"
                                    if r['cpp'][d]['runs'][k] is not None else "killed")
                     for d in a.devices]
            md.append(f"- {r['tag']} rep {k}: " + "; ".join(parts)
                      + f"; Python {j['cold_s']:.2f} / {j['first_call_s']:.2f} / "
                      f"{j['warm_call_s']:.3f} / " + ", ".join(f"{t:.3f}" for t in j["own_calls_s"]))
    md.append("")
    md.append(f"Ladder: {', '.join(f'{b:.6g}' for b in betas)}.")
    return "\n".join(md) + "\n"


if __name__ == "__main__":
    sys.exit(main())
