#!/usr/bin/python3
# SPDX-License-Identifier: Apache-2.0
"""Side by side: this C++/Kokkos hamon against the Python/JAX hamon (PyPI `hamon`).

One invocation, from the repository root:

    python3 perf/compare/compare_with_jax.py            # L = 32, 16 chains, 2 sweeps, 2000 + 200 rounds

1. creates (or reuses) build/compare-venv-<python version> with the newest Python >= 3.12
   that pyenv provides (else /usr/bin/python3) and installs the newest PyPI `hamon` that
   supports it (0.12.0 needs Python >= 3.12; 0.4.0 is the newest for 3.11), with CPU `jax`;
   the results record which;
2. runs the same model (2D periodic L x L Ising ferromagnet, J = 1, no field), the
   same explicit ladder (linear, 0 .. beta_c, `chains` entries, not adapted), the same
   rounds and sweeps per round in both: `build/bin/hamon run` on a generated YAML and
   perf/compare/jax_driver.py in the venv;
3. prints the ratios: steady-state throughput (JAX timed the way the Python hamon times
   its own round loop: a warm-up call, then --peer-reps calls ended by
   jax.block_until_ready, their median; the older single "second call" beside it;
   C++: `timing.sampling_s`, the median over the fresh processes) and cold
   time-to-result (a fresh process each, wall clock from spawn to result);
4. checks the cold-chain energy per node of both agree (batch means, 32 batches,
   |diff| <= 4 sqrt(se1^2 + se2^2));
5. writes perf/results/compare_jax/DATE-L<L>.md and (matplotlib permitting)
   perf/results/compare_jax/DATE-throughput-vs-L.png (throughput vs L for both), DATE
   the UTC day of the run, so earlier records stay beside the new one.

See perf/compare/README.md.
"""

import argparse
import datetime
import json
import math
import os
import platform
import shlex
import shutil
import subprocess
import sys
import time

try:
    import numpy as np
    import yaml
except ImportError:  # the pyenv python3 may lack them; the system one has them
    if sys.executable != "/usr/bin/python3" and os.path.exists("/usr/bin/python3"):
        os.execv("/usr/bin/python3", ["/usr/bin/python3"] + sys.argv)
    raise

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
BETA_C = math.log(1.0 + math.sqrt(2.0)) / 2.0
N_BATCHES = 32


def rel(p):
    return os.path.relpath(p, ROOT)


def log(msg):
    print(msg, flush=True)


# --------------------------------------------------------------------------- venv

def venv_python(venv):
    return os.path.join(venv, "bin", "python")


def venv_versions(venv):
    """(hamon, jax, jaxlib) versions importable in the venv, or None."""
    py = venv_python(venv)
    if not os.path.exists(py):
        return None
    code = ("import importlib.metadata as m, json; "
            "import hamon, jax; "
            "print(json.dumps([m.version('hamon'), m.version('jax'), m.version('jaxlib')]))")
    r = subprocess.run([py, "-c", code], capture_output=True, text=True)
    if r.returncode != 0:
        return None
    return json.loads(r.stdout.strip().splitlines()[-1])


def newest_python():
    """The newest pyenv Python >= 3.12 (the newest Python hamon needs it), else the system one."""
    root = os.environ.get("PYENV_ROOT", os.path.expanduser("~/.pyenv"))
    found = []
    try:
        names = os.listdir(os.path.join(root, "versions"))
    except OSError:
        names = []
    for name in names:
        parts = name.split(".")
        if len(parts) >= 2 and parts[0].isdigit() and parts[1].isdigit():
            exe = os.path.join(root, "versions", name, "bin", "python3")
            if (int(parts[0]), int(parts[1])) >= (3, 12) and os.access(exe, os.X_OK):
                found.append(((int(parts[0]), int(parts[1])), exe))
    return max(found)[1] if found else "/usr/bin/python3"


def python_version(exe):
    return subprocess.run([exe, "-c", "import platform; print(platform.python_version())"],
                          capture_output=True, text=True).stdout.strip()


def add_venv_args(ap):
    """--venv, --base-python, --hamon-spec, --reinstall (resolve_venv fills the defaults)."""
    ap.add_argument("--venv", default=None,
                    help="the venv (default build/compare-venv-<base python version>)")
    ap.add_argument("--base-python", default=None,
                    help="interpreter for `-m venv` (default: the newest pyenv Python >= 3.12, "
                         "else /usr/bin/python3)")
    ap.add_argument("--hamon-spec", default="hamon",
                    help="pip requirement for the Python hamon (default: newest that installs)")
    ap.add_argument("--reinstall", action="store_true")


def resolve_venv(a):
    if a.base_python is None:
        a.base_python = newest_python()
    if a.venv is None:
        a.venv = os.path.join(ROOT, "build", "compare-venv-" + python_version(a.base_python))


def ensure_venv(venv, base_python, hamon_spec, reinstall):
    have = None if reinstall else venv_versions(venv)
    if have and (hamon_spec == "hamon" or hamon_spec == f"hamon=={have[0]}"):
        log(f"venv: reusing {rel(venv)} (hamon {have[0]}, jax {have[1]})")
        return have, []
    cmds = []
    if not os.path.exists(venv_python(venv)):
        cmds.append([base_python, "-m", "venv", venv])
    pip = [venv_python(venv), "-m", "pip", "install", "--quiet"]
    cmds.append(pip + [hamon_spec, "jax[cpu]"])
    for c in cmds:
        log("venv: " + " ".join(shlex.quote(x) for x in c))
        r = subprocess.run(c, capture_output=True, text=True)
        if r.returncode != 0:
            sys.stderr.write(r.stdout + r.stderr)
            raise SystemExit(f"error: venv set-up failed: {' '.join(c)} (exit {r.returncode})")
    have = venv_versions(venv)
    if not have:
        raise SystemExit("error: hamon/jax not importable in the venv after installing")
    log(f"venv: installed hamon {have[0]}, jax {have[1]}")
    return have, cmds


# --------------------------------------------------------------------------- runs

def ladder(chains):
    return [BETA_C * i / (chains - 1) for i in range(chains)]


def batch_means(x, n_batches=N_BATCHES):
    x = np.asarray(x, dtype=np.float64)
    b = len(x) // n_batches
    x = x[len(x) - b * n_batches:]  # drop the oldest remainder
    means = x.reshape(n_batches, b).mean(axis=1)
    return float(x.mean()), float(means.std(ddof=1) / math.sqrt(n_batches))


def write_yaml(path, L, betas, rounds, burn_in, sweeps, seed, device, model=None, **nrpt):
    """The C++ run's YAML: by default the L x L periodic Ising ferromagnet; `model` replaces
    the model section, and `nrpt` adds keys to the nrpt section."""
    cfg = {
        "seed": seed,
        "device": device,
        "model": model or {"kind": "lattice", "shape": [L, L], "periodic": True,
                           "coupling": 1.0, "field": 0.0},
        "nrpt": {"betas": [float(b) for b in betas], "rounds": rounds, "burn_in": burn_in,
                 "explore_sweeps": sweeps, "adapt_schedule": False, **nrpt},
        "output": {"samples": False, "moments": False, "energies": True,
                   "index_process": True},
    }
    with open(path, "w") as f:
        yaml.safe_dump(cfg, f, sort_keys=False, default_flow_style=None)


def run_cpp(hamon_bin, cfg, out, env, timeout):
    """One fresh `hamon run`; None when it ran past `timeout` seconds (killed). The previous
    rep's directory is removed first, outside the timing: the JAX side deletes nothing, and
    `--overwrite` would add the removal of the old run (an unlink per file, ~5 ms each on a
    busy disk) to the cold time after the results are in place."""
    shutil.rmtree(out, ignore_errors=True)
    cmd = [hamon_bin, "run", cfg, "--out", out, "--quiet"]
    t0 = time.time()
    try:
        r = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=timeout)
    except subprocess.TimeoutExpired:
        return None
    wall = time.time() - t0
    if r.returncode != 0:
        raise SystemExit(f"error: {' '.join(cmd)} failed ({r.returncode}): {r.stderr.strip()}")
    with open(os.path.join(out, "summary.yaml")) as f:
        s = yaml.safe_load(f)
    e = np.load(os.path.join(out, "energies.npy"))
    return {"cmd": cmd, "cold_s": wall, "sampling_s": float(s["timing"]["sampling_s"]),
            "total_s": float(s["timing"]["total_s"]),
            "reported_updates_per_ns": float(s["timing"]["spin_updates_per_ns"]),
            "placement": s["device"]["placement"],
            "space": s["device"].get("execution_space"),
            "version": s["hamon"]["version"], "cold_energies": e[:, -1],
            "acceptance": s["nrpt"]["acceptance"]}


def run_jax(venv, L, betas, total_rounds, sweeps, seed, out_json, warm, env, reps=5, lean=False):
    cmd = [venv_python(venv), os.path.join(ROOT, "perf", "compare", "jax_driver.py"),
           "--L", str(L)] + driver_args(betas, total_rounds, sweeps, seed, out_json, warm,
                                        reps, lean)
    return run_peer(cmd, out_json, env)


def driver_args(betas, total_rounds, sweeps, seed, out_json, warm, reps, lean):
    """The arguments jax_driver.timing_parser reads."""
    return (["--chains", str(len(betas)), "--rounds", str(total_rounds),
             "--sweeps", str(sweeps), "--betas", ",".join(repr(float(b)) for b in betas),
             "--seed", str(seed), "--out", out_json, "--reps", str(reps)]
            + (["--warm"] if warm else []) + (["--lean"] if lean else []))


def run_peer(cmd, out_json, env):
    """One fresh peer-driver process; its JSON, energies and cold time-to-result."""
    t0 = time.time()
    r = subprocess.run(cmd, capture_output=True, text=True, env=env)
    if r.returncode != 0:
        sys.stderr.write(r.stderr[-4000:])
        raise SystemExit(f"error: the JAX driver failed ({r.returncode})")
    with open(out_json) as f:
        res = json.load(f)
    res["cold_s"] = res["t_first_result"] - t0
    res["energies"] = np.load(out_json.rsplit(".", 1)[0] + "_energies.npy")
    res["cmd"] = cmd
    return res


def loadavg():
    try:
        return open("/proc/loadavg").read().split()[:3]
    except OSError:
        return ["?"] * 3


def cpu_model():
    try:
        for line in open("/proc/cpuinfo"):
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "?"


def compare_one(a, venv, L, reps, workdir, env_cpp, env_jax, with_energy):
    """reps fresh processes of each side (C++: per device) at lattice size L."""
    betas = ladder(a.chains)
    total = a.rounds + a.burn_in

    def write_cfg(path, device):
        write_yaml(path, L, betas, a.rounds, a.burn_in, a.sweeps, a.seed, device)

    def peer(seed, out_json, lean):
        return run_jax(venv, L, betas, total, a.sweeps, seed, out_json, True, env_jax,
                       a.peer_reps, lean)

    res = compare_case(a, f"L{L}", L * L, write_cfg, peer, reps, workdir, env_cpp,
                       with_energy)
    res["L"] = L
    return res


def compare_case(a, tag, n, write_cfg, peer, reps, workdir, env_cpp, with_energy):
    """reps fresh processes of each side (C++: one per device in a.devices) of one case.
    `write_cfg(path, device)` writes the C++ YAML; `peer(seed, out_json, lean)` runs one
    peer process (run_peer's result). Timings: medians on both sides, best-of beside them;
    with `with_energy` the cold chain's energy per node is compared (batch means)."""
    total = a.rounds + a.burn_in
    updates = n * a.chains * a.sweeps * total
    res = {"tag": tag, "n": n, "updates": updates, "cpp": {}}
    cfgs = {}
    for d in a.devices:
        cfgs[d] = os.path.join(workdir, f"cpp_{tag}_{d}.yaml")
        write_cfg(cfgs[d], d)
    cpp = {d: [] for d in a.devices}
    jx = []
    for r in range(reps):
        for d in a.devices:
            c = run_cpp(a.hamon, cfgs[d], os.path.join(workdir, f"cpp_{tag}_{d}_{r}"),
                        env_cpp, a.cpp_timeout)
            if c is None:
                log(f"  {tag} C++ {d:>7} rep {r}: killed after {a.cpp_timeout} s (--cpp-timeout)")
                cpp[d].append(None)
                continue
            cpp[d].append(c)
            log(f"  {tag} C++ {d:>7} rep {r}: cold {c['cold_s']:.3f} s, "
                f"sampling {c['sampling_s']:.3f} s ({c['placement']})")
        jx.append(peer(a.seed + 1 + r, os.path.join(workdir, f"jax_{tag}_{r}.json"),
                       a.peer_lean and with_energy))
        log(f"  {tag} JAX         rep {r}: cold {jx[-1]['cold_s']:.3f} s "
            f"(first call {jx[-1]['first_call_s']:.3f} s), second call {jx[-1]['warm_call_s']:.3f} s, "
            f"own method median {median(jx[-1]['own_calls_s'][1:]):.3f} s")
    # The headline is the Python hamon's own timing (hamon.tuning._time_per_round: warm-up
    # call, then the median of block_until_ready'd calls), pooled over the processes; the
    # single second call (the earlier records' way) is kept beside it.
    own = [t for j in jx for t in j["own_calls_s"][1:]]
    res["jax_own_s"] = median(own)
    res["jax_own_min_s"] = min(own)
    res["jax_second_s"] = min(j["warm_call_s"] for j in jx)
    res["jax_own_cpu_s"] = median([t for j in jx for t in j["own_cpu_s"][1:]])
    lean = [t for j in jx for t in j.get("lean_calls_s", [])[1:]]
    res["jax_lean_s"] = median(lean) if lean else None
    res["jax_cold_s"] = min(j["cold_s"] for j in jx)
    res["jax_cold_median_s"] = median([j["cold_s"] for j in jx])
    res["jax_first_call_s"] = min(j["first_call_s"] for j in jx)
    res["jax_upns"] = updates / res["jax_own_s"] / 1e9
    res["jax_upns_second"] = updates / res["jax_second_s"] / 1e9
    res["jax_runs"] = jx
    if with_energy:
        e_jax = jx[0]["energies"][a.burn_in:, -1] / n
        res["jax_energy"] = batch_means(e_jax) + (len(e_jax),)
    for d in a.devices:
        done = [x for x in cpp[d] if x is not None]
        if not done:
            raise SystemExit(f"error: every C++ run on device {d} of {tag} ran past "
                             f"--cpp-timeout {a.cpp_timeout} s")
        c = {"runs": cpp[d], "sampling_s": median([x["sampling_s"] for x in done]),
             "sampling_min_s": min(x["sampling_s"] for x in done),
             "cold_s": min(x["cold_s"] for x in done),
             "cold_median_s": median([x["cold_s"] for x in done]),
             "killed": len(cpp[d]) - len(done)}
        # Like with like: medians on both sides (the headline), best-of on both sides, and
        # the earlier records' pairing (C++ best of processes against one JAX second call).
        c["upns"] = updates / c["sampling_s"] / 1e9
        c["steady_ratio"] = c["upns"] / res["jax_upns"]
        c["steady_ratio_best"] = res["jax_own_min_s"] / c["sampling_min_s"]
        c["steady_ratio_second"] = res["jax_second_s"] / c["sampling_min_s"]
        c["cold_ratio"] = res["jax_cold_s"] / c["cold_s"]
        c["cold_ratio_median"] = res["jax_cold_median_s"] / c["cold_median_s"]
        if with_energy:
            # energy check on the first run of each side (independent seeds)
            e_cpp = done[0]["cold_energies"] / n
            m1, s1 = batch_means(e_cpp)
            m2, s2, _ = res["jax_energy"]
            z = (m1 - m2) / math.sqrt(s1 * s1 + s2 * s2)
            c["energy"] = (m1, s1, len(e_cpp))
            c["z"] = z
            c["ok"] = abs(z) <= 4.0
        res["cpp"][d] = c
    return res


def median(xs):
    return float(np.median(np.asarray(xs, dtype=np.float64)))


def first_run(res, d):
    return next(x for x in res["cpp"][d]["runs"] if x is not None)


def plot(points, devices, path):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    Ls = [p["L"] for p in points]
    fig, ax = plt.subplots(figsize=(6, 4.2))
    for d, mk in zip(devices, "o^vD"):
        ax.plot(Ls, [p["cpp"][d]["upns"] for p in points], mk + "-",
                label=f"hamon C++/Kokkos, device {d}")
    ax.plot(Ls, [p["jax_upns"] for p in points], "s--", label="hamon Python/JAX (after compile)")
    ax.set_xscale("log", base=2)
    ax.set_yscale("log")
    ax.set_xticks(Ls)
    ax.set_xticklabels([str(L) for L in Ls])
    ax.set_xlabel("L (L x L periodic Ising, nodes = L^2)")
    ax.set_ylabel("spin updates per ns (steady state, median)")
    ax.set_title("NRPT throughput, same model/ladder/rounds/sweeps")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def add_case_args(ap, chains, rounds, burn_in, reps, peer_reps, device, cpp_timeout):
    """The options compare_case reads (and --hamon), with the caller's defaults."""
    ap.add_argument("--chains", type=int, default=chains, help=f"default {chains}")
    ap.add_argument("--rounds", type=int, default=rounds, help=f"measured rounds, default {rounds}")
    ap.add_argument("--burn-in", type=int, default=burn_in,
                    help=f"rounds before measuring (run by both), default {burn_in}")
    ap.add_argument("--sweeps", type=int, default=2, help="explore sweeps per round, default 2")
    ap.add_argument("--reps", type=int, default=reps,
                    help=f"fresh processes per side (and case), default {reps}")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--device", default=device,
                    help="C++ devices, comma-separated (each is measured; the first is the "
                         f"headline), default {device}")
    ap.add_argument("--cpp-timeout", type=float, default=cpp_timeout,
                    help="kill a C++ run after this many seconds (a stalled OpenMP run on an "
                         "oversubscribed machine); such reps are left out of the timings")
    ap.add_argument("--peer-reps", type=int, default=peer_reps,
                    help="timed calls per JAX process after its warm-up (the median is the "
                         f"steady state, as the Python hamon times itself), default {peer_reps}")
    ap.add_argument("--peer-lean", action="store_true",
                    help="also time the JAX loop without the energy observer (the Python "
                         "hamon's own default; one more compile per process)")
    ap.add_argument("--hamon", default=os.path.join(ROOT, "build", "bin", "hamon"))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--L", type=int, default=32, help="lattice side (even), default 32")
    add_case_args(ap, chains=16, rounds=2000, burn_in=200, reps=3, peer_reps=5,
                  device="cpu,serial", cpp_timeout=60.0)
    ap.add_argument("--plot-L", default="16,32,64",
                    help="lattice sides for the throughput plot; '' = no plot")
    ap.add_argument("--plot-reps", type=int, default=2, help="reps per plot point other than --L")
    add_venv_args(ap)
    ap.add_argument("--results", default=os.path.join(ROOT, "perf", "results", "compare_jax"),
                    help="folder for the record (default perf/results/compare_jax)")
    ap.add_argument("--no-record", action="store_true", help="print only, write no results file")
    a = ap.parse_args()
    resolve_venv(a)
    if a.L % 2 or a.L < 4:
        raise SystemExit("error: --L must be even and >= 4")
    if a.chains < 2:
        raise SystemExit("error: --chains must be >= 2")
    if a.rounds < N_BATCHES:
        raise SystemExit(f"error: --rounds must be >= {N_BATCHES} (batch means)")
    a.devices = [d.strip() for d in a.device.split(",") if d.strip()]
    if not a.devices:
        raise SystemExit("error: --device is empty")
    if not os.path.exists(a.hamon):
        raise SystemExit(f"error: {a.hamon} not found; build it first (tools/dev.sh demo)")

    t_start = time.time()
    now = datetime.datetime.now(datetime.timezone.utc)
    date = now.strftime("%Y-%m-%d %H:%M UTC")
    day = now.strftime("%Y-%m-%d")  # the record's file names
    load_before = loadavg()
    versions, install_cmds = ensure_venv(a.venv, a.base_python, a.hamon_spec, a.reinstall)
    cpp_version = subprocess.run([a.hamon, "--version"], capture_output=True,
                                 text=True).stdout.strip()

    workdir = os.path.join(ROOT, "build", "compare-runs")
    os.makedirs(workdir, exist_ok=True)
    env_cpp = dict(os.environ)
    env_cpp.setdefault("OMP_NUM_THREADS", str(os.cpu_count() or 1))
    env_cpp.setdefault("OMP_PROC_BIND", "false")
    env_jax = dict(os.environ)
    env_jax.setdefault("JAX_PLATFORMS", "cpu")

    log(f"model: {a.L}x{a.L} periodic Ising ferromagnet, {a.chains} chains (linear 0..beta_c), "
        f"{a.sweeps} sweeps/round, {a.burn_in} + {a.rounds} rounds, {a.reps} reps")
    main_res = compare_one(a, a.venv, a.L, a.reps, workdir, env_cpp, env_jax, True)

    plot_Ls = [int(x) for x in a.plot_L.split(",") if x.strip()]
    points = []
    for L in plot_Ls:
        if L == a.L:
            points.append(main_res)
        else:
            log(f"plot point L={L}:")
            points.append(compare_one(a, a.venv, L, a.plot_reps, workdir, env_cpp, env_jax, False))
    load_after = loadavg()

    m = main_res
    mj = m["jax_energy"]
    ok = all(m["cpp"][d]["ok"] for d in a.devices)
    log("")
    for d in a.devices:
        c = m["cpp"][d]
        log(f"[C++ device {d}]")
        log(f"throughput (steady state)  C++ {c['upns']:.4g} /ns   JAX {m['jax_upns']:.4g} /ns   "
            f"ratio C++/JAX = {c['steady_ratio']:.3g}x (medians; best-of {c['steady_ratio_best']:.3g}x, "
            f"against the single second call {c['steady_ratio_second']:.3g}x)")
        log(f"cold time-to-result        C++ {c['cold_s']:.3f} s   JAX {m['jax_cold_s']:.3f} s   "
            f"ratio JAX/C++ = {c['cold_ratio']:.3g}x")
        log(f"cold-chain energy/node     C++ {c['energy'][0]:.5f} +- {c['energy'][1]:.5f}   "
            f"JAX {mj[0]:.5f} +- {mj[1]:.5f}   z = {c['z']:+.2f}   "
            f"{'OK (|z| <= 4)' if c['ok'] else 'MISMATCH (|z| > 4)'}")

    if a.no_record:
        return 0 if ok else 1

    os.makedirs(a.results, exist_ok=True)
    png = os.path.join(a.results, f"{day}-throughput-vs-L.png")
    plot_note = ""
    if len(points) >= 2:
        try:
            plot(points, a.devices, png)
            plot_note = f"![throughput vs L]({os.path.basename(png)})"
        except ImportError as ex:
            plot_note = f"(no plot: {ex})"
    argv = " ".join(shlex.quote(x) for x in sys.argv[1:])
    c0 = next(x for x in m["cpp"][a.devices[0]]["runs"] if x is not None)
    j0 = m["jax_runs"][0]
    pyver = subprocess.run([venv_python(a.venv), "-c", "import platform; print(platform.python_version())"],
                           capture_output=True, text=True).stdout.strip()
    md = []
    md.append("# compare_jax — this hamon (C++/Kokkos) vs the Python/JAX hamon\n")
    md.append(f"- machine: {cpu_model()}, {os.cpu_count()} cores, {platform.system()} {platform.release()}")
    md.append(f"- date: {date}; load average before {' '.join(load_before)}, after {' '.join(load_after)} "
              "(the machine is shared: read the medians, the spread of the per-rep lines, and the load)")
    md.append(f"- command: `python3 perf/compare/compare_with_jax.py{(' ' + argv) if argv else ''}` "
              f"({time.time() - t_start:.0f} s in all)")
    md.append(f"- C++: `{cpp_version}` ({rel(a.hamon)}), devices "
              + ", ".join(f"`{d}` -> `{first_run(m, d)['placement']}` ({first_run(m, d)['space']})"
                          for d in a.devices)
              + f"; OMP_NUM_THREADS={env_cpp['OMP_NUM_THREADS']}, OMP_PROC_BIND={env_cpp['OMP_PROC_BIND']}")
    md.append(f"- Python: hamon {versions[0]} (PyPI), jax {versions[1]}, jaxlib {versions[2]} "
              f"(CPU), Python {pyver} in `{rel(a.venv)}`; JAX devices {j0['jax_devices']}")
    if install_cmds:
        md.append("- venv set-up this run: " + "; ".join(
            "`" + " ".join(shlex.quote(rel(x) if x.startswith(ROOT) else x) for x in c) + "`"
            for c in install_cmds))
    md.append("")
    md.append("## The run (identical in both)\n")
    md.append(f"- model: {a.L}×{a.L} periodic 2D Ising ferromagnet, J = 1, no field "
              f"(E = −Σ J s_i s_j), {m['n']} nodes")
    md.append(f"- ladder: {a.chains} chains, linear in β from 0 to β_c = {BETA_C:.7f}, explicit, not adapted")
    md.append(f"- NRPT: {a.burn_in} burn-in + {a.rounds} measured rounds, {a.sweeps} checkerboard "
              f"block-Gibbs sweeps of every chain per round, one DEO swap pass per round")
    md.append(f"- work: {m['updates']:.4g} spin updates per run (nodes × chains × sweeps × all rounds)")
    md.append(f"- C++: `{' '.join(rel(x) if x.startswith(ROOT) else x for x in c0['cmd'])}` "
              f"(the YAML is written by the script: `betas:` list, `adapt_schedule: false`, "
              f"moments and samples off, energies and index process on; one YAML per device)")
    md.append(f"- JAX: `hamon.nrpt` in temperature-linear mode (one `IsingEBM`/`IsingSamplingProgram` "
              f"template with two checkerboard `Block`s, `betas=` the same ladder), "
              f"an `AbstractNRPTObserver` returning every chain's energy each round, "
              f"`device=\"cpu\"`: `{rel(venv_python(a.venv))} perf/compare/jax_driver.py "
              f"{' '.join(shlex.quote(rel(x) if x.startswith(ROOT) else x) for x in j0['cmd'][2:])}`")
    md.append("")
    md.append(f"## Results (L = {a.L}, {a.reps} fresh processes per side)\n")
    md.append("Steady state: medians on both sides (C++: `sampling_s` over the processes; JAX: "
              f"the {a.peer_reps} timed calls of each process after its warm-up, pooled). Cold: "
              "best of the processes.\n")
    md.append("| | steady-state throughput (spin updates/ns) | cold time-to-result (fresh process, wall) | "
              f"cold-chain energy per node ({N_BATCHES} batch means) |")
    md.append("|---|---|---|---|")
    md.append(f"| Python/JAX hamon {versions[0]} | {m['jax_upns']:.4g} (median call "
              f"{m['jax_own_s']:.3f} s) | {m['jax_cold_s']:.3f} s (first call incl. compile "
              f"{m['jax_first_call_s']:.3f} s) | {mj[0]:.5f} ± {mj[1]:.5f} |")
    for d in a.devices:
        c = m["cpp"][d]
        md.append(f"| C++ hamon, device `{d}` | {c['upns']:.4g} (`sampling_s` {c['sampling_s']:.3f} s) | "
                  f"{c['cold_s']:.3f} s | {c['energy'][0]:.5f} ± {c['energy'][1]:.5f} "
                  f"(z = {c['z']:+.2f} vs JAX, {'agree' if c['ok'] else 'DISAGREE'}) |")
        md.append(f"| **ratio** C++ `{d}` vs JAX | **{c['steady_ratio']:.3g}×** | "
                  f"**{c['cold_ratio']:.3g}×** faster | {'equal work' if c['ok'] else 'NOT equal'} |")
    md.append("")
    md.append("The steady state timed several ways (the same processes):\n")
    md.append("| JAX timing | JAX s | JAX updates/ns | " + " | ".join(
        f"C++ `{d}` ratio" for d in a.devices) + " |")
    md.append("|---|---|---|" + "---|" * len(a.devices))
    md.append(f"| own method, median (the headline) | {m['jax_own_s']:.3f} | {m['jax_upns']:.4g} | "
              + " | ".join(f"{m['cpp'][d]['steady_ratio']:.3g}× (C++ median)" for d in a.devices) + " |")
    md.append(f"| own method, best call | {m['jax_own_min_s']:.3f} | "
              f"{m['updates'] / m['jax_own_min_s'] / 1e9:.4g} | "
              + " | ".join(f"{m['cpp'][d]['steady_ratio_best']:.3g}× (C++ best)" for d in a.devices) + " |")
    md.append(f"| one second call, best of processes (the earlier records) | {m['jax_second_s']:.3f} | "
              f"{m['jax_upns_second']:.4g} | "
              + " | ".join(f"{m['cpp'][d]['steady_ratio_second']:.3g}× (C++ best)" for d in a.devices) + " |")
    md.append(f"| own method, median CPU seconds per call (the loop runs on about one core: "
              f"what a quiet machine's wall time would be) | {m['jax_own_cpu_s']:.3f} | "
              f"{m['updates'] / m['jax_own_cpu_s'] / 1e9:.4g} | "
              + " | ".join(f"{m['jax_own_cpu_s'] / m['cpp'][d]['sampling_s']:.3g}× (C++ median wall)"
                           for d in a.devices) + " |")
    if m["jax_lean_s"]:
        md.append(f"| own method without the energy observer (less work than the C++ run) | "
                  f"{m['jax_lean_s']:.3f} | {m['updates'] / m['jax_lean_s'] / 1e9:.4g} | "
                  + " | ".join(f"{m['jax_lean_s'] / m['cpp'][d]['sampling_s']:.3g}× (C++ median)"
                               for d in a.devices) + " |")
    md.append("")
    md.append("Per rep (C++: cold s / sampling s; JAX: cold s / first call s / second call s / "
              "own-method calls s, the first its warm-up):\n")
    for r, j in enumerate(m["jax_runs"]):
        parts = [f"C++ {d} " + (f"{m['cpp'][d]['runs'][r]['cold_s']:.3f} / {m['cpp'][d]['runs'][r]['sampling_s']:.3f}"
                                 if m['cpp'][d]['runs'][r] is not None else f"killed after {a.cpp_timeout:g} s")
                 for d in a.devices]
        md.append(f"- rep {r}: " + "; ".join(parts)
                  + f"; JAX {j['cold_s']:.3f} / {j['first_call_s']:.3f} / {j['warm_call_s']:.3f} / "
                  + ", ".join(f"{t:.3f}" for t in j["own_calls_s"])
                  + ("; lean " + ", ".join(f"{t:.3f}" for t in j["lean_calls_s"])
                     if "lean_calls_s" in j else ""))
    md.append("")
    md.append("Definitions: steady-state throughput = nodes × chains × sweeps × (burn-in + measured "
              "rounds) / seconds of sampling — C++: `timing.sampling_s` of `summary.yaml` "
              "(the whole `nrpt` call, burn-in included, set-up of the run directory excluded); "
              "JAX: as the Python hamon times its own round loop (`hamon.tuning._time_per_round`): "
              "a warm-up call of the same arguments absorbs the compile, then each timed `nrpt` call "
              "(with the energy observer, as much work as the C++ run; `_emit_diagnostics=False`: "
              "no host-side round-trip summary after the loop, which the C++ side also computes "
              "after `sampling_s`) is ended by `jax.block_until_ready`, and the median is taken; "
              "the earlier records' single second call kept that summary and converted the "
              "energies to numpy. Cold time-to-result = wall clock "
              "from spawning the process to having the energies (C++: until `hamon run` exits, "
              "its run directory written; JAX: interpreter start, imports, model build, tracing, "
              "XLA compilation and the run). Energy check: cold chain (last column), measured rounds "
              "only, mean and standard error from 32 batch means, first completed rep of each side "
              "(independent seeds); agreement means |Δ| ≤ 4·sqrt(se₁² + se₂²).")
    if len(points) >= 2:
        md.append("")
        md.append("## Throughput vs L (same chains, sweeps and rounds; points other than "
                  f"L = {a.L} are best of {a.plot_reps})\n")
        hdr = "| L | nodes | JAX updates/ns | " + " | ".join(
            f"C++ `{d}` updates/ns | ratio" for d in a.devices) + " | JAX cold s | " + " | ".join(
            f"C++ `{d}` cold s | ratio" for d in a.devices) + " |"
        md.append(hdr)
        md.append("|" + "---|" * (hdr.count("|") - 1))
        for p in points:
            md.append(f"| {p['L']} | {p['n']} | {p['jax_upns']:.4g} | " + " | ".join(
                f"{p['cpp'][d]['upns']:.4g} | {p['cpp'][d]['steady_ratio']:.3g}×" for d in a.devices)
                + f" | {p['jax_cold_s']:.3f} | " + " | ".join(
                f"{p['cpp'][d]['cold_s']:.3f} | {p['cpp'][d]['cold_ratio']:.3g}×" for d in a.devices) + " |")
        md.append("")
        md.append(plot_note)
    md_path = os.path.join(a.results, f"{day}-L{a.L}.md")
    with open(md_path, "w") as f:
        f.write("\n".join(md) + "\n")
    log(f"\nwrote {rel(md_path)}" + (f" and {rel(png)}" if plot_note.startswith("!") else ""))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
