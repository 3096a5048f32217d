# SPDX-License-Identifier: Apache-2.0
"""Driver for the Python/JAX hamon's continuous models (PyPI `hamon` 0.12), run in the venv.

Invoked by compare_continuous.py; not meant to be run by hand (but it can be):

    build/compare-venv-3.13.0/bin/python perf/compare/jax_continuous_driver.py \\
        --model gaussian --L 32 --chains 32 --rounds 2200 --sweeps 2 --betas 0,...,1 \\
        --coupling 0.2 --weight 1.0 --field 0.0 --out result.json [--warm] [--reps 5] [--lean]
    ... --model double_well --graph build/compare-runs/graph_N1024.txt ...

The model (C++ convention: J_ij the coupling, E = sum_i node_i(x_i) - sum_(i,j) J_ij x_i x_j,
node_i = d_i x^2 / 2 - h_i x (gaussian) or lambda_i (x^2 - 1)^2 - h_i x (double_well)):

- `--L L`: the L x L periodic lattice, J = --coupling on every bond, d_i or lambda_i =
  --weight and h_i = --field on every node, the checkerboard two-block partition;
- `--graph FILE`: a general graph in the text format compare_continuous.py writes (and the
  C++ side reads inline as `nodes`/`edges` and a per-node weight list): first line `N`,
  then one line `i j J_ij` per edge, then N lines with the node's weight; h_i = --field;
  the blocks are hamon's own colouring, `hamon.graph_utils.rlf_coloring`.

In the library's terms (its sign convention for the pair term is + c_ij x_i x_j, so
c_ij = -J_ij; its double well is a x^4 - 2 a x^2 - h x, the C++ node term minus the
constant lambda_i):

    target    = GaussianEBM(nodes, edges, diag=d, lin=h, couplings=-J, beta=1)
              | DoubleWellEBM(nodes, edges, barrier=lambda, lin=h, couplings=-J, beta=1)
    reference = the same class over the same nodes with no edges (the node terms alone)
    ebm       = AnnealedEBM(reference, target, beta=1)     # E_b = (1-b) E_ref + b E
    program   = GaussianSamplingProgram(ebm, blocks, [])   # exact Gaussian block draws
              | DoubleWellSamplingProgram(ebm, blocks, [], width=w, max_stepout=m)

and hamon.nrpt in its template (affine) mode with `betas=` the ladder (0 .. 1): the machine
at beta samples exp(-E_ref - beta (E - E_ref)), the path the C++ `nrpt.reference:
independent` samples with beta_max = 1, and both record the swap energy E - E_ref =
-sum J_ij x_i x_j (no conversion). The slice sampler's width and stepping-out budget
default to the C++ update's (width 1/sqrt(lambda) at beta_max = 1, 16 steps);
`--width 2 --max-stepout 8` is the library's own default. Timing and the JSON are
jax_driver.py's (`time_nrpt`).
"""

import math
import os
import sys
import time

T_IMPORT_START = time.time()

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import jax_driver  # noqa: E402

jax_driver.T_IMPORT_START = T_IMPORT_START


def lattice(L):
    """Edges (i, j) of the L x L periodic lattice (right, then down, per node) and the
    checkerboard colour of every node."""
    edges = []
    for i in range(L):
        for j in range(L):
            k = i * L + j
            edges.append((k, i * L + (j + 1) % L))
            edges.append((k, ((i + 1) % L) * L + j))
    colour = [(k // L + k % L) % 2 for k in range(L * L)]
    return edges, colour


def read_graph(path):
    """(n, [(i, j, J)], [weight per node]) from the text format the module docstring gives."""
    with open(path) as f:
        rows = [line.split() for line in f if line.strip()]
    n = int(rows[0][0])
    m = len(rows) - 1 - n
    edges = [(int(r[0]), int(r[1]), float(r[2])) for r in rows[1:1 + m]]
    weights = [float(r[0]) for r in rows[1 + m:]]
    return n, edges, weights


def main():
    ap = jax_driver.timing_parser("Python hamon continuous-model NRPT peer")
    where = ap.add_mutually_exclusive_group(required=True)
    where.add_argument("--L", type=int, help="periodic L x L lattice (L even)")
    where.add_argument("--graph", help="graph file (see the module docstring)")
    ap.add_argument("--model", choices=["gaussian", "double_well"], required=True)
    ap.add_argument("--coupling", type=float, default=0.2, help="J on every lattice bond")
    ap.add_argument("--weight", type=float, default=1.0,
                    help="d_i (gaussian) or lambda_i (double_well) on every lattice node")
    ap.add_argument("--field", type=float, default=0.0, help="h on every node")
    ap.add_argument("--width", type=float, default=None,
                    help="slice width (default 1/sqrt(lambda), as the C++ update)")
    ap.add_argument("--max-stepout", type=int, default=16,
                    help="stepping-out budget (default 16, as the C++ update; the library's is 8)")
    a = ap.parse_args()

    import jax.numpy as jnp
    from hamon import Block, GaussianNode
    from hamon.graph_utils import rlf_coloring
    from hamon.models import (AnnealedEBM, DoubleWellEBM, DoubleWellSamplingProgram,
                              GaussianEBM, GaussianSamplingProgram, double_well_init,
                              gaussian_init)

    if a.L is not None:
        if a.L % 2 or a.L < 4:
            raise SystemExit("--L must be even and >= 4 (checkerboard blocks)")
        n = a.L * a.L
        pairs, colour = lattice(a.L)
        J = [a.coupling] * len(pairs)
        weights = [a.weight] * n
    else:
        n, wedges, weights = read_graph(a.graph)
        pairs = [(i, j) for i, j, _ in wedges]
        J = [c for _, _, c in wedges]
        colour = rlf_coloring(n, pairs)

    nodes = [GaussianNode() for _ in range(n)]
    edges = [(nodes[i], nodes[j]) for i, j in pairs]
    blocks = [Block([nodes[k] for k in range(n) if colour[k] == c])
              for c in range(max(colour) + 1)]
    w = jnp.asarray(weights, dtype=jnp.float32)
    h = jnp.full((n,), a.field, dtype=jnp.float32)
    c = -jnp.asarray(J, dtype=jnp.float32)  # the library's + c x_i x_j is the C++ - J x_i x_j
    one = jnp.asarray(1.0, dtype=jnp.float32)

    if a.model == "gaussian":
        target = GaussianEBM(nodes, edges, w, h, c, one)
        reference = GaussianEBM(nodes, [], w, h, jnp.zeros((0,), jnp.float32), one)
        ebm = AnnealedEBM(reference, target, one)
        program = GaussianSamplingProgram(ebm, blocks, [])
        init = gaussian_init
        sampler = {"update": "GaussianGibbsConditional (exact normal draw)"}
    else:
        # The C++ slice width is 1/sqrt(a lambda) with a = beta_max = 1 (10 when a lambda
        # <= 0.01); one width for all nodes here, so the mean lambda's on a graph.
        lam = sum(weights) / n
        width = a.width if a.width is not None else (1.0 / math.sqrt(lam) if lam > 0.01 else 10.0)
        target = DoubleWellEBM(nodes, edges, w, h, c, one)
        reference = DoubleWellEBM(nodes, [], w, h, jnp.zeros((0,), jnp.float32), one)
        ebm = AnnealedEBM(reference, target, one)
        program = DoubleWellSamplingProgram(ebm, blocks, [], width=width,
                                            max_stepout=a.max_stepout)
        init = double_well_init
        sampler = {"update": "SliceGibbsConditional", "width": width,
                   "max_stepout": a.max_stepout}

    # The initial state: the reference's own draw (gaussian) / the decoupled wells (double
    # well), from the target's parameters at beta = 1.
    free = program.gibbs_spec.free_blocks
    jax_driver.time_nrpt(a, ebm, program, lambda k: init(k, target, free, (a.chains,)), n,
                         extra={"model": a.model, "n_edges": len(pairs),
                                "n_blocks": len(blocks), **sampler})


if __name__ == "__main__":
    main()
