# SPDX-License-Identifier: Apache-2.0
"""Driver for the Python/JAX hamon (PyPI `hamon`), run inside the comparison venv.

Invoked by compare_with_jax.py; not meant to be run by hand (but it can be):

    build/compare-venv/bin/python perf/compare/jax_driver.py --L 32 --chains 16 \
        --rounds 2200 --sweeps 2 --betas 0,0.1,... --out result.json [--warm] [--reps 5] [--lean]

Builds the 2D periodic L x L Ising ferromagnet (J = 1, no field) with a
checkerboard two-block Gibbs partition, runs hamon.nrpt (temperature-linear
mode: one template EBM/program, an explicit ladder) for --rounds rounds of
--sweeps block-Gibbs sweeps each, and records every chain's base energy after
every round through an NRPT observer.  The first call includes JAX tracing and
XLA compilation (the cold time).  With --warm the steady state is then timed in
two ways, side by side:

- "second call": one more call of the same shape (a new key and a new initial
  state), ended by converting the energies to numpy, timed once;
- "own method": the way the Python hamon times its own round loop
  (hamon.tuning._time_per_round): after a warm-up call that absorbs the
  compile, --reps calls of the same arguments with _emit_diagnostics=False
  (no host-side round-trip summary after the loop), each ended by
  jax.block_until_ready, and the MEDIAN of them.  With --lean also without the
  observer, as _time_per_round does by default (a second compile: the loop
  without an observer is another program, and it records no energies).

`time_nrpt` and `timing_parser` are the harness; jax_continuous_driver.py imports them
for the continuous models.

Writes JSON: versions, the epoch time of the first result (the parent measures
cold time-to-result from its own spawn time), the seconds of each call, and the
energies of the first call (rounds x chains, coldest last) to an .npy file.
"""

import argparse
import json
import time

T_IMPORT_START = time.time()

import numpy as np  # noqa: E402


def timing_parser(description=None):
    """The arguments every peer driver shares (the model's own are added by the caller)."""
    ap = argparse.ArgumentParser(description=description)
    ap.add_argument("--chains", type=int, required=True)
    ap.add_argument("--rounds", type=int, required=True, help="total rounds (burn-in included)")
    ap.add_argument("--sweeps", type=int, required=True)
    ap.add_argument("--betas", required=True, help="comma-separated ascending ladder")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--out", required=True, help="JSON path; energies go next to it as .npy")
    ap.add_argument("--warm", action="store_true", help="also time the steady state (see above)")
    ap.add_argument("--reps", type=int, default=5, help="timed calls of the own-method timing")
    ap.add_argument("--lean", action="store_true",
                    help="also time the loop without the observer (own method, a second compile)")
    return ap


def ladder_of(a):
    betas = [float(x) for x in a.betas.split(",")]
    if len(betas) != a.chains:
        raise SystemExit(f"--betas has {len(betas)} entries for --chains {a.chains}")
    return betas


def time_nrpt(a, ebm, program, make_init, n_nodes, extra=None):
    """Runs hamon.nrpt on (ebm, program) in temperature-linear mode with the ladder
    --betas, timed as the module docstring says, and writes --out (JSON) and the first
    call's energies (rounds x chains, coldest last) beside it. `make_init(key)` returns the
    stacked (chains, ...) initial block states; `extra` is merged into the JSON."""
    import jax
    import jax.numpy as jnp
    import hamon
    from hamon import AbstractNRPTObserver, nrpt

    class AllEnergies(AbstractNRPTObserver):
        """Records the base energy of every chain position after each round."""

        def __call__(self, stacked_states, base_energies, round_idx, carry):
            return None, base_energies

    ladder = jnp.asarray(ladder_of(a), dtype=jnp.float32)
    observer = AllEnergies()

    def one_call(seed):
        key = jax.random.PRNGKey(seed)
        k_init, k_run = jax.random.split(key)
        init = make_init(k_init)
        t = time.perf_counter()
        _, stats = nrpt(k_run, ebm, program, init, [], a.rounds, a.sweeps,
                        betas=ladder, observer=observer, device="cpu")
        energies = np.asarray(stats["observations"], dtype=np.float64)  # blocks until done
        acc = np.asarray(stats["acceptance_rate"], dtype=np.float64)
        return time.perf_counter() - t, energies, acc

    def own_method(seed, obs):
        """hamon.tuning._time_per_round's timing: one warm-up call of the same arguments,
        then a.reps calls each ended by jax.block_until_ready, without the host-side
        summary of the round trips (_emit_diagnostics=False; the C++ side computes its
        diagnostics after `sampling_s` too); every call's seconds (the warm-up's first)."""
        key = jax.random.PRNGKey(seed)
        k_init, k_run = jax.random.split(key)
        init = make_init(k_init)

        def run():
            return nrpt(k_run, ebm, program, init, [], a.rounds, a.sweeps, betas=ladder,
                        track_round_trips=True, observer=obs, device="cpu",
                        _emit_diagnostics=False)

        seconds, cpu = [], []
        for _ in range(1 + max(1, a.reps)):
            t, c = time.perf_counter(), time.process_time()
            jax.block_until_ready(run())
            seconds.append(time.perf_counter() - t)
            cpu.append(time.process_time() - c)
        return seconds, cpu

    first_s, energies, acc = one_call(a.seed)
    t_first_result = time.time()
    res = {
        "hamon_version": hamon.__version__,
        "jax_version": jax.__version__,
        "jaxlib_version": __import__("jaxlib").__version__,
        "jax_devices": [str(d) for d in jax.devices()],
        "t_import_start": T_IMPORT_START,
        "t_first_result": t_first_result,
        "first_call_s": first_s,
        "n_nodes": n_nodes,
        "acceptance": acc.tolist(),
    }
    res.update(extra or {})
    if a.warm:
        warm_s, _, _ = one_call(a.seed + 1)
        res["warm_call_s"] = warm_s
        # The process's CPU seconds per call beside the wall seconds: the round loop runs on
        # about one core, so on a busy machine the CPU time is what a quiet one's wall
        # time would be.
        res["own_calls_s"], res["own_cpu_s"] = own_method(a.seed + 2, observer)
        if a.lean:
            res["lean_calls_s"], res["lean_cpu_s"] = own_method(a.seed + 3, None)
    np.save(a.out.rsplit(".", 1)[0] + "_energies.npy", energies)
    with open(a.out, "w") as f:
        json.dump(res, f, indent=1)


def main():
    ap = timing_parser()
    ap.add_argument("--L", type=int, required=True)
    a = ap.parse_args()

    import jax.numpy as jnp
    from hamon import Block, SpinNode
    from hamon.models.ising import IsingEBM, IsingSamplingProgram, hinton_init

    L = a.L
    if L % 2:
        raise SystemExit("L must be even (checkerboard blocks)")
    n = L * L
    nodes = [SpinNode() for _ in range(n)]
    edges = []
    for i in range(L):
        for j in range(L):
            k = i * L + j
            edges.append((nodes[k], nodes[i * L + (j + 1) % L]))      # right
            edges.append((nodes[k], nodes[((i + 1) % L) * L + j]))    # down
    weights = jnp.ones(len(edges), dtype=jnp.float32)
    biases = jnp.zeros(n, dtype=jnp.float32)
    black = [nodes[i * L + j] for i in range(L) for j in range(L) if (i + j) % 2 == 0]
    white = [nodes[i * L + j] for i in range(L) for j in range(L) if (i + j) % 2 == 1]

    ebm = IsingEBM(nodes, edges, biases, weights, jnp.array(1.0, dtype=jnp.float32))
    program = IsingSamplingProgram(ebm, [Block(black), Block(white)], [])
    time_nrpt(a, ebm, program,
              lambda k: hinton_init(k, ebm, program.gibbs_spec.free_blocks, (a.chains,)), n)


if __name__ == "__main__":
    main()
