# SPDX-License-Identifier: Apache-2.0
"""Models from arrays: the same model however its couplings are given (dense, sparse, edge
list), energies as the formula says, every family samples with the right dtype, and the
cold chain's mean energy agrees with exact enumeration."""

import _thread
import itertools
import os
import subprocess
import sys
import threading

import numpy as np
import pytest


def ring(n, J=1.0):
    edges = np.array([[i, (i + 1) % n] for i in range(n)], dtype=np.int64)
    return edges, np.full(n, J)


def test_dense_and_edge_list_give_the_same_model(hk):
    rng = np.random.default_rng(1)
    J = np.triu(rng.normal(size=(6, 6)) * (rng.random((6, 6)) < 0.5), 1)
    J = J + J.T
    h = rng.normal(size=6)
    dense = hk.ising(J, fields=h)
    i, j = np.nonzero(np.triu(J))
    edges = hk.ising(edges=np.stack([i, j], 1), couplings=J[i, j], fields=h)
    assert dense.fingerprint == edges.fingerprint
    assert dense.n_edges == len(i)
    assert np.array_equal(dense.edges, np.stack([i, j], 1))
    assert np.array_equal(dense.couplings, J[i, j])


def test_scipy_sparse_matrix(hk):
    sparse = pytest.importorskip("scipy.sparse")
    J = np.zeros((5, 5))
    J[0, 1] = J[1, 0] = 0.5
    J[2, 4] = J[4, 2] = -1.0
    assert hk.ising(sparse.csr_matrix(J)).fingerprint == hk.ising(J).fingerprint


def test_energy_is_the_formula(hk):
    rng = np.random.default_rng(2)
    J = np.triu(rng.normal(size=(7, 7)), 1)
    J = J + J.T
    h = rng.normal(size=7)
    model = hk.ising(J, fields=h)
    for _ in range(20):
        s = rng.choice(np.array([-1, 1], dtype=np.int8), size=7)
        expected = -(h @ s + 0.5 * s @ J @ s)
        assert model.energy(s) == pytest.approx(expected, rel=1e-12, abs=1e-12)


def test_batch_energies_are_the_row_energies(hk):
    model = hk.lattice([3, 3], coupling=hk.Distribution.gaussian(2), field=0.2)
    rng = np.random.default_rng(3)
    batch = rng.choice(np.array([-1, 1], dtype=np.int8), size=(10, 9))
    energies = model.energy(batch)
    assert energies.shape == (10,)
    assert list(energies) == [model.energy(s) for s in batch]


def test_potts_matrices_generalise_the_delta_coupling(hk):
    edges = np.array([[0, 1], [1, 2], [2, 0]])
    J = [1.0, 0.5, -0.7]
    delta = hk.potts(3, edges=edges, couplings=J, n_nodes=3)
    general = hk.potts(3, n_nodes=3,
                       matrices=[(i, j, np.eye(3) * c) for (i, j), c in zip(edges, J)])
    states = np.array(list(itertools.product(range(3), repeat=3)), dtype=np.uint8)
    assert np.array_equal(delta.energy(states), general.energy(states))
    # An asymmetric W is a general coupling the delta form cannot give: it samples.
    w = np.arange(9.0).reshape(3, 3) / 10
    model = hk.potts(3, n_nodes=2, matrices=[(0, 1, w)])
    s = hk.Sampler(model, n_chains=2, n_rounds=20, seed=1)
    s.run()
    with pytest.raises(ValueError, match="must be q x q"):
        hk.potts(3, n_nodes=2, matrices=[(0, 1, np.eye(2))])


def exact_energy_per_node(model, beta):
    n = model.n_nodes
    states = np.array(list(itertools.product([-1, 1], repeat=n)), dtype=np.int8)
    clamped = model.clamped
    keep = np.all((clamped == 0) | (states == clamped), axis=1)
    energies = np.array([model.energy(s) for s in states[keep]])
    w = np.exp(-beta * (energies - energies.min()))
    return (w @ energies) / w.sum() / n


def test_cold_chain_energy_matches_enumeration(hk):
    # 3 x 3 open lattice with +-J couplings and fields: 512 states, enumerated exactly.
    model = hk.lattice([3, 3], periodic=False, coupling=hk.Distribution.pm_one(4),
                       field=hk.Distribution.gaussian(5, 0.3))
    beta = 0.8
    s = hk.Sampler(model, n_chains=4, beta_max=beta, n_rounds=20000, burn_in=500, seed=3,
                   moments=True)
    s.run()
    mean, error = s.result()["moments"]["energy_per_node"]
    exact = exact_energy_per_node(model, beta)
    # 5 batch-means standard errors: a correct sampler fails this with probability ~1e-6
    # (the seed is fixed, so the outcome is too); the error itself must be small.
    assert error < 0.01
    assert abs(mean - exact) < 5 * error


def test_every_family_samples(hk):
    edges, J = ring(6)
    cases = [
        (hk.ising(edges=edges, couplings=J, n_nodes=6, clamps={0: 1}), np.int8),
        (hk.potts(3, edges=edges, couplings=J, n_nodes=6, fields=[0.1, 0.0, -0.1]), np.uint8),
        (hk.gaussian(np.full(6, 3.0), edges=edges, couplings=J * 0.5), np.float64),
        (hk.double_well(np.full(6, 1.0), edges=edges, couplings=J), np.float64),
        (hk.rbm(np.full((4, 3), 0.1), visible_bias=np.zeros(4)), np.int8),
        (hk.potts_lattice([4, 4], 4), np.uint8),
        (hk.double_well_lattice([4, 4], barrier=1.0, coupling=0.5), np.float64),
    ]
    for model, dtype in cases:
        s = hk.Sampler(model, n_chains=3, beta_min=0.1, n_rounds=30, seed=1, samples_every=1)
        s.run()
        r = s.result()
        assert r["samples"].dtype == dtype, model.kind
        assert r["samples"].shape == (30, model.n_nodes)
        state = s.state()
        assert state.shape == (3, model.n_nodes) and state.dtype == dtype
        # The result's best state has the energy it reports: exactly for discrete models; a
        # continuous model's round-loop energies are fixed-point numbers (the machine
        # records' energy_fixed), good to about 1e-7 relative.
        tolerance = dict(rel=1e-6) if dtype == np.float64 else dict(abs=1e-9)
        assert model.energy(r["best_state"]) == pytest.approx(r["best_energy"], **tolerance)
        if model.kind == "potts":
            assert state.max() < model.n_states
    assert cases[4][0].n_nodes == 7


def test_replicas_trace_shapes(hk):
    s = hk.Sampler(hk.lattice([4, 4]), n_chains=3, n_replicas=2, n_rounds=25, seed=2,
                   record_energies=True, record_index_process=True)
    s.run()
    r = s.result()
    assert r["energies"].shape == (25, 3)
    assert r["index_process"].shape[0] == 25
    assert s.state().shape == (6, 16)


def test_state_by_chain_follows_the_permutation(hk):
    s = hk.Sampler(hk.lattice([4, 4]), n_chains=4, n_rounds=20, seed=2)
    s.run()
    r = s.result()
    by_machine = s.state(by_chain=False)
    by_chain = s.state()
    for k, m in enumerate(r["machine_of_chain"]):
        assert np.array_equal(by_chain[k], by_machine[m])


def test_resolve_device_and_thresholds(hk):
    d = hk.resolve_device("cpu", score=10)
    assert d["placement"] in hk.execution_spaces()
    assert d["execution_space"].lower() == d["placement"]
    assert "placement" in d["description"]
    assert hk.resolve_device("none")["placement"] == "leave_alone"
    assert hk.device_threshold(123.0)["value"] == 123.0
    assert hk.work_score(4, 100) == 400


def test_run_releases_the_gil(hk):
    s = hk.Sampler(hk.lattice([16, 16]), n_chains=4, n_rounds=20000, seed=1, device="serial")
    t = threading.Thread(target=s.run)
    t.start()
    steps = 0
    while t.is_alive():  # Python keeps running beside the sampler only if it let go of the GIL
        steps += 1
    t.join()
    assert s.measured_rounds == 20000
    assert steps > 100


def test_every_space_and_thread_gives_the_same_bits(hk):
    """OpenMP, driven from another Python thread, gives Serial's bits (the engine's
    contract, through the module)."""
    runs = {}
    for device in hk.execution_spaces():
        s = hk.Sampler(hk.lattice([32, 32]), n_chains=8, n_rounds=300, seed=1, device=device)
        t = threading.Thread(target=s.run)
        t.start()
        t.join()
        assert s.execution_space.lower() == device
        runs[device] = s.checkpoint()
    assert len(set(runs.values())) == 1


def test_samplers_in_several_threads_take_turns(hk):
    """Runs in several Python threads at once (the GIL released) take turns in the engine
    and give the bits each would alone, on Serial and OpenMP alike."""
    def make(device):
        return hk.Sampler(hk.lattice([16, 16]), n_chains=4, n_rounds=3000, seed=5,
                          device=device)

    samplers = [make(d) for d in hk.execution_spaces() * 2]
    threads = [threading.Thread(target=s.run) for s in samplers]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    alone = make("serial")
    alone.run()
    assert {s.checkpoint() for s in samplers} == {alone.checkpoint()}


def test_diagnose_log_z_meets_enumeration(hk):
    model = hk.lattice([4, 4], coupling=hk.Distribution.pm_one(6))
    beta = 0.6
    s = hk.Sampler(model, n_chains=6, beta_max=beta, n_rounds=4000, burn_in=200, seed=4,
                   record_energies=True, moments=True)
    s.run()
    d = s.diagnose()
    assert d["health"] in ("pass", "warn", "fail")
    assert d["cold_energy_ess"] > 0
    # log Z by enumerating the 2^16 states, from the model's own edge list.
    bits = (np.arange(1 << 16)[:, None] >> np.arange(16)) & 1
    spins = 2 * bits - 1
    i, j = model.edges.T
    energies = -(spins[:, i] * spins[:, j]) @ model.couplings
    exact = np.log(np.sum(np.exp(-beta * energies)))
    z = d["log_z"]
    # 5 of its reported errors (which include the quadrature's for integration).
    assert z["error"] > 0
    assert abs(z["value"] - exact) < 5 * z["error"]


def test_ctrl_c_stops_a_run_between_rounds(hk):
    options = dict(n_chains=4, n_rounds=10**9, seed=1, device="serial")
    s = hk.Sampler(hk.lattice([16, 16]), **options)
    timer = threading.Timer(0.3, _thread.interrupt_main)
    timer.start()
    with pytest.raises(KeyboardInterrupt):
        s.run()
    timer.join()
    done = s.rounds_done
    assert 0 < done < 10**9
    # Stopped after a whole round: continuing gives the bits of a run that never stopped.
    s.run(10)
    other = hk.Sampler(hk.lattice([16, 16]), **options)
    other.run(done + 10)
    assert s.checkpoint() == other.checkpoint()


def test_kokkos_finalises_at_exit_with_samplers_alive(tmp_path):
    """A script that leaves a Sampler alive exits cleanly: the module lets its Kokkos
    memory go before it finalises Kokkos (Kokkos aborts on Views freed after finalize)."""
    script = ("import hamon_kokkos as hk\n"
              "s = hk.Sampler(hk.lattice([4, 4]), n_chains=2, n_rounds=10)\n"
              "s.run()\n"
              "print(hk.kokkos_initialized_here())\n")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          check=False, env=os.environ.copy())
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "True"
    assert "Kokkos" not in done.stderr, done.stderr
