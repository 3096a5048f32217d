# SPDX-License-Identifier: Apache-2.0
"""The module gives the C++ library's bits: the same model and seed through hamon_kokkos and
through the `hamon` program give byte-equal samples, energies and index processes. The
models are built from NumPy arrays (and with the lattice builder) on the Python side and
from YAML on the program's, so this also checks that both describe the same model."""

import numpy as np

from conftest import run_cli

EDGES = np.array([[0, 1, 1.0], [1, 2, 1.0], [0, 2, -1.0], [2, 3, 0.5], [3, 4, 1.0],
                  [4, 5, 1.0], [5, 6, 1.0], [6, 3, 1.0], [6, 7, 0.8]])
FIELDS = np.array([0.0, 0.0, 0.0, 0.2, 0.0, 0.0, -0.3, 0.0])

GRAPH_YAML = """seed: 11
model:
  kind: graph
  nodes: 8
  edges: [[0, 1, 1.0], [1, 2, 1.0], [0, 2, -1.0], [2, 3, 0.5], [3, 4, 1.0],
          [4, 5, 1.0], [5, 6, 1.0], [6, 3, 1.0], [6, 7, 0.8]]
  field: [0.0, 0.0, 0.0, 0.2, 0.0, 0.0, -0.3, 0.0]
  clamped: {7: -1}
nrpt:
  chains: 4
  beta_min: 0.0
  beta_max: 1.0
  rounds: 300
  burn_in: 50
  explore_sweeps: 2
output:
  samples: {every: 1, nodes: all}
  checkpoint: false
"""

LATTICE_YAML = """seed: 5
model:
  kind: lattice
  shape: [6, 6]
  periodic: true
  coupling: {distribution: pm_one, seed: 2024}
  field: 0.1
nrpt:
  chains: 5
  beta_min: 0.1
  beta_max: 1.5
  rounds: 400
  burn_in: 40
output:
  samples: {every: 3, nodes: [0, 5, 17, 35]}
  checkpoint: false
"""

GAUSSIAN_YAML = """seed: 3
model:
  kind: gaussian
  shape: [4, 4]
  periodic: true
  coupling: 0.2
  diag: 1.5
  field: 0.25
nrpt:
  chains: 4
  beta_min: 0.1
  beta_max: 1.0
  rounds: 200
  burn_in: 20
output:
  samples: {every: 1, nodes: all}
  checkpoint: false
"""


def cli_like(hk, model, run, **options):
    """A Sampler with the options the program derives from its YAML (its ladder is the one
    in betas.npy: no adaptation here, so the ladder it started from)."""
    s = hk.Sampler(model, betas=run["betas"], record_energies=True, record_index_process=True,
                   moments=True, edge_moments=False, **options)
    s.run()
    return s.result()


def assert_same_traces(result, run):
    for name in ("samples", "energies", "index_process"):
        ours, theirs = result[name], run[name]
        assert ours.dtype == theirs.dtype, name
        assert ours.shape == theirs.shape, name
        assert ours.tobytes() == theirs.tobytes(), f"{name} differs from the program's"


def test_graph_from_arrays_matches_yaml_run(hk, cli, tmp_path):
    run = hk.load_run(str(run_cli(cli, GRAPH_YAML, tmp_path)))
    model = hk.ising(edges=EDGES[:, :2].astype(np.int64), couplings=EDGES[:, 2], fields=FIELDS,
                     clamps={7: -1})
    result = cli_like(hk, model, run, n_rounds=300, burn_in=50, gibbs_steps_per_round=2, seed=11,
                      samples_every=1)
    assert_same_traces(result, run)
    assert run["summary"]["model"]["n_free"] == model.n_free == 7


def test_dense_matrix_model_matches_yaml_run(hk, cli, tmp_path):
    run = hk.load_run(str(run_cli(cli, GRAPH_YAML, tmp_path)))
    J = np.zeros((8, 8))
    for i, j, c in EDGES:
        J[int(i), int(j)] = J[int(j), int(i)] = c
    model = hk.ising(J, fields=FIELDS, clamps=np.array([[7, -1]]))
    result = cli_like(hk, model, run, n_rounds=300, burn_in=50, gibbs_steps_per_round=2, seed=11,
                      samples_every=1)
    # The matrix gives the edges in another order than the YAML's list; the model is the
    # same (its fingerprint covers graph, couplings, fields, clamps and colouring), and so
    # are the bits.
    edges_model = hk.ising(edges=EDGES[:, :2].astype(np.int64), couplings=EDGES[:, 2],
                           fields=FIELDS, clamps={7: -1})
    assert model.fingerprint == edges_model.fingerprint
    assert_same_traces(result, run)
    states = np.array([[1 if (c >> i) & 1 else -1 for i in range(8)] for c in range(256)],
                      dtype=np.int8)
    states[:, 7] = -1
    assert [model.energy(s) for s in states] == [edges_model.energy(s) for s in states]


def test_lattice_builder_matches_yaml_run(hk, cli, tmp_path):
    run = hk.load_run(str(run_cli(cli, LATTICE_YAML, tmp_path)))
    model = hk.lattice([6, 6], periodic=True, coupling=hk.Distribution.pm_one(2024), field=0.1)
    result = cli_like(hk, model, run, n_rounds=400, burn_in=40, seed=5, samples_every=3,
                      sample_nodes=[0, 5, 17, 35])
    assert_same_traces(result, run)
    # The lattice's couplings, read back from arrays, make the same model.
    again = hk.ising(edges=model.edges, couplings=model.couplings, fields=model.fields)
    rng = np.random.default_rng(0)
    for s in rng.choice(np.array([-1, 1], dtype=np.int8), size=(20, 36)):
        assert again.energy(s) == model.energy(s)


def test_gaussian_lattice_matches_yaml_run(hk, cli, tmp_path):
    run = hk.load_run(str(run_cli(cli, GAUSSIAN_YAML, tmp_path)))
    model = hk.gaussian_lattice([4, 4], diag=1.5, coupling=0.2, fields=0.25)
    result = cli_like(hk, model, run, n_rounds=200, burn_in=20, seed=3, samples_every=1)
    assert result["samples"].dtype == np.float64
    assert_same_traces(result, run)


POTTS_YAML = """seed: 13
model:
  kind: lattice
  potts: 3
  shape: [5, 5]
  periodic: true
  coupling: {distribution: pm_one, seed: 4}
  field: [0.2, 0.0, -0.1]
nrpt:
  chains: 4
  beta_min: 0.0
  beta_max: 1.2
  rounds: 300
  burn_in: 30
  explore_sweeps: 2
output:
  samples: {every: 2, nodes: all}
  checkpoint: false
"""


def test_potts_lattice_matches_yaml_run(hk, cli, tmp_path):
    run = hk.load_run(str(run_cli(cli, POTTS_YAML, tmp_path)))
    model = hk.potts_lattice([5, 5], 3, coupling=hk.Distribution.pm_one(4),
                             fields=[0.2, 0.0, -0.1])
    result = cli_like(hk, model, run, n_rounds=300, burn_in=30, gibbs_steps_per_round=2, seed=13,
                      samples_every=2)
    assert result["samples"].dtype == np.uint8
    assert_same_traces(result, run)


RBM_YAML = """seed: 3
model:
  kind: rbm
  visible: 12
  hidden: 6
  random: {seed: 11, std: 0.5, bias_std: 0.5}
nrpt:
  chains: 4
  beta_min: 0.0
  beta_max: 1.0
  rounds: 300
  burn_in: 30
output:
  samples: {every: 1, nodes: all}
  checkpoint: false
"""


def test_random_rbm_matches_yaml_run(hk, cli, tmp_path):
    run = hk.load_run(str(run_cli(cli, RBM_YAML, tmp_path)))
    model = hk.random_rbm(12, 6, weights=hk.Distribution.gaussian(11, 0.5),
                          biases=hk.Distribution.gaussian(11, 0.5))
    assert model.n_nodes == 18
    result = cli_like(hk, model, run, n_rounds=300, burn_in=30, seed=3, samples_every=1)
    assert_same_traces(result, run)
