# SPDX-License-Identifier: Apache-2.0
"""The module gives the C++ library's bits: the same model and seed through hamon_kokkos and
through the `hamon` program give byte-equal samples, energies and index processes. The
models are built from NumPy arrays (and with the builders) on the Python side and from
YAML on the program's, so this also checks that both describe the same model."""

import textwrap

import numpy as np

from conftest import run_cli

EDGES = np.array([[0, 1, 1.0], [1, 2, 1.0], [0, 2, -1.0], [2, 3, 0.5], [3, 4, 1.0],
                  [4, 5, 1.0], [5, 6, 1.0], [6, 3, 1.0], [6, 7, 0.8]])
FIELDS = np.array([0.0, 0.0, 0.0, 0.2, 0.0, 0.0, -0.3, 0.0])

GRAPH_MODEL = """kind: graph
nodes: 8
edges: [[0, 1, 1.0], [1, 2, 1.0], [0, 2, -1.0], [2, 3, 0.5], [3, 4, 1.0],
        [4, 5, 1.0], [5, 6, 1.0], [6, 3, 1.0], [6, 7, 0.8]]
field: [0.0, 0.0, 0.0, 0.2, 0.0, 0.0, -0.3, 0.0]
clamped: {7: -1}"""


def experiment(seed, model, *, chains, beta_min, beta_max, rounds, burn_in, sweeps=1,
               every=1, nodes="all"):
    """An experiment file for the program, and the Sampler options it stands for."""
    text = (f"seed: {seed}\nmodel:\n{textwrap.indent(model, '  ')}\n"
            f"nrpt: {{chains: {chains}, beta_min: {beta_min}, beta_max: {beta_max}, "
            f"rounds: {rounds}, burn_in: {burn_in}, explore_sweeps: {sweeps}}}\n"
            f"output: {{samples: {{every: {every}, nodes: {nodes}}}, checkpoint: false}}\n")
    options = dict(n_rounds=rounds, burn_in=burn_in, gibbs_steps_per_round=sweeps, seed=seed,
                   samples_every=every, sample_nodes=None if nodes == "all" else nodes)
    return text, options


def same_as_program(hk, cli, tmp_path, model, text, options):
    """Runs the program on `text` and the module on `model` with the options the program
    derives from it (its ladder is the one in betas.npy: no adaptation here, so the one it
    started from); checks every trace byte for byte and returns the module's result."""
    run = hk.load_run(str(run_cli(cli, text, tmp_path)))
    s = hk.Sampler(model, betas=run["betas"], record_energies=True, record_index_process=True,
                   moments=True, edge_moments=False, **options)
    s.run()
    result = s.result()
    for name in ("samples", "energies", "index_process"):
        ours, theirs = result[name], run[name]
        assert ours.dtype == theirs.dtype, name
        assert ours.shape == theirs.shape, name
        assert ours.tobytes() == theirs.tobytes(), f"{name} differs from the program's"
    return result, run


def graph_experiment():
    return experiment(11, GRAPH_MODEL, chains=4, beta_min=0.0, beta_max=1.0, rounds=300,
                      burn_in=50, sweeps=2)


def test_graph_from_arrays_matches_yaml_run(hk, cli, tmp_path):
    model = hk.ising(edges=EDGES[:, :2].astype(np.int64), couplings=EDGES[:, 2], fields=FIELDS,
                     clamps={7: -1})
    _, run = same_as_program(hk, cli, tmp_path, model, *graph_experiment())
    assert run["summary"]["model"]["n_free"] == model.n_free == 7


def test_dense_matrix_model_matches_yaml_run(hk, cli, tmp_path):
    J = np.zeros((8, 8))
    for i, j, c in EDGES:
        J[int(i), int(j)] = J[int(j), int(i)] = c
    model = hk.ising(J, fields=FIELDS, clamps=np.array([[7, -1]]))
    # The matrix gives the edges in another order than the YAML's list; the model is the
    # same (its fingerprint covers graph, couplings, fields, clamps and colouring), and so
    # are the bits.
    edges_model = hk.ising(edges=EDGES[:, :2].astype(np.int64), couplings=EDGES[:, 2],
                           fields=FIELDS, clamps={7: -1})
    assert model.fingerprint == edges_model.fingerprint
    same_as_program(hk, cli, tmp_path, model, *graph_experiment())


def test_lattice_builder_matches_yaml_run(hk, cli, tmp_path):
    text, options = experiment(
        5, "kind: lattice\nshape: [6, 6]\nperiodic: true\n"
        "coupling: {distribution: pm_one, seed: 2024}\nfield: 0.1",
        chains=5, beta_min=0.1, beta_max=1.5, rounds=400, burn_in=40, every=3,
        nodes=[0, 5, 17, 35])
    model = hk.lattice([6, 6], periodic=True, coupling=hk.Distribution.pm_one(2024), field=0.1)
    same_as_program(hk, cli, tmp_path, model, text, options)
    # The lattice's couplings, read back as arrays, make a model of the same energies.
    again = hk.ising(edges=model.edges, couplings=model.couplings, fields=model.fields)
    batch = np.random.default_rng(0).choice(np.array([-1, 1], dtype=np.int8), size=(20, 36))
    assert np.array_equal(again.energy(batch), model.energy(batch))


def test_gaussian_lattice_matches_yaml_run(hk, cli, tmp_path):
    text, options = experiment(
        3, "kind: gaussian\nshape: [4, 4]\nperiodic: true\ncoupling: 0.2\ndiag: 1.5\nfield: 0.25",
        chains=4, beta_min=0.1, beta_max=1.0, rounds=200, burn_in=20)
    model = hk.gaussian_lattice([4, 4], diag=1.5, coupling=0.2, fields=0.25)
    result, _ = same_as_program(hk, cli, tmp_path, model, text, options)
    assert result["samples"].dtype == np.float64


def test_potts_lattice_matches_yaml_run(hk, cli, tmp_path):
    text, options = experiment(
        13, "kind: lattice\npotts: 3\nshape: [5, 5]\nperiodic: true\n"
        "coupling: {distribution: pm_one, seed: 4}\nfield: [0.2, 0.0, -0.1]",
        chains=4, beta_min=0.0, beta_max=1.2, rounds=300, burn_in=30, sweeps=2, every=2)
    model = hk.potts_lattice([5, 5], 3, coupling=hk.Distribution.pm_one(4),
                             fields=[0.2, 0.0, -0.1])
    result, _ = same_as_program(hk, cli, tmp_path, model, text, options)
    assert result["samples"].dtype == np.uint8


def test_random_rbm_matches_yaml_run(hk, cli, tmp_path):
    text, options = experiment(
        3, "kind: rbm\nvisible: 12\nhidden: 6\nrandom: {seed: 11, std: 0.5, bias_std: 0.5}",
        chains=4, beta_min=0.0, beta_max=1.0, rounds=300, burn_in=30)
    model = hk.random_rbm(12, 6, weights=hk.Distribution.gaussian(11, 0.5),
                          biases=hk.Distribution.gaussian(11, 0.5))
    assert model.n_nodes == 18
    same_as_program(hk, cli, tmp_path, model, text, options)
