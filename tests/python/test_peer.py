# SPDX-License-Identifier: Apache-2.0
"""Against the Python hamon (the JAX library this engine re-creates): on the same small
Ising model both samplers' per-node means <s_i> meet the exact marginals by enumeration.
The two draw different random streams, so this compares distributions, not bits. Uses
the Python hamon in this interpreter when it imports here, else the interpreter named by
HAMON_PEER_PYTHON (e.g. a virtual environment with hamon and JAX); skips when neither."""

import itertools
import json
import os
import pathlib
import subprocess
import sys

import numpy as np
import pytest

HERE = pathlib.Path(__file__).resolve().parent
BETA = 0.6
# Tolerance on each node's mean: 4000 samples with an autocorrelation time of a few
# sweeps give a standard error of about 0.03 on <s_i>; 0.12 is ~4 of them.
TOLERANCE = 0.12


def peer_means(spec):
    try:
        import hamon  # noqa: F401
        import jax  # noqa: F401
    except ImportError:
        python = os.environ.get("HAMON_PEER_PYTHON")
        if not python:
            pytest.skip("the Python hamon is not importable here and HAMON_PEER_PYTHON is unset")
        done = subprocess.run([python, str(HERE / "peer_marginals.py")], input=json.dumps(spec),
                              capture_output=True, text=True, check=False, timeout=900)
        if done.returncode != 0 and "No module named" in done.stderr:
            pytest.skip(f"{python} cannot import the Python hamon: {done.stderr.strip()[-200:]}")
        assert done.returncode == 0, done.stderr
        return np.array(json.loads(done.stdout)["node_means"])
    sys.path.insert(0, str(HERE))
    import io

    import peer_marginals

    out, sys.stdin = io.StringIO(), io.StringIO(json.dumps(spec))
    stdout, sys.stdout = sys.stdout, out
    try:
        peer_marginals.main()
    finally:
        sys.stdout, sys.stdin = stdout, sys.__stdin__
    return np.array(json.loads(out.getvalue())["node_means"])


def exact_means(model, beta):
    states = np.array(list(itertools.product([-1, 1], repeat=model.n_nodes)), dtype=np.int8)
    energies = np.array([model.energy(s) for s in states])
    w = np.exp(-beta * (energies - energies.min()))
    return (w @ states) / w.sum()


def test_marginals_agree_with_the_python_hamon(hk):
    model = hk.lattice([3, 3], periodic=False, coupling=hk.Distribution.pm_one(8),
                       field=hk.Distribution.gaussian(9, 0.4))
    spec = {"biases": model.fields.tolist(), "edges": model.edges.tolist(),
            "weights": model.couplings.tolist(), "beta": BETA, "n_samples": 4000, "seed": 1}
    theirs = peer_means(spec)
    exact = exact_means(model, BETA)
    s = hk.Sampler(model, n_chains=4, beta_max=BETA, n_rounds=4000, burn_in=500, seed=1,
                   moments=True)
    s.run()
    ours = s.result()["moments"]["node_means"]
    assert np.max(np.abs(ours - exact)) < TOLERANCE
    assert np.max(np.abs(theirs - exact)) < TOLERANCE
