# SPDX-License-Identifier: Apache-2.0
"""Run by the Python hamon's interpreter (test_peer.py): reads an Ising model as JSON
(biases, edges, weights, beta, n_samples, seed) on stdin and prints the Python hamon's
per-node means <s_i> from ising_sample as JSON."""

import json
import sys

import numpy as np


def main():
    import jax
    import hamon

    spec = json.load(sys.stdin)
    samples, _ = hamon.models.ising.ising_sample(
        np.array(spec["biases"]), np.array(spec["edges"], dtype=np.int32),
        np.array(spec["weights"]), key=jax.random.PRNGKey(spec["seed"]), beta=spec["beta"],
        n_samples=spec["n_samples"], n_warmup=500, max_chains=16, device="cpu")
    spins = 2.0 * np.asarray(samples, dtype=np.float64) - 1.0
    json.dump({"node_means": spins.mean(axis=0).tolist()}, sys.stdout)


if __name__ == "__main__":
    main()
