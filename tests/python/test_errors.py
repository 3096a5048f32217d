# SPDX-License-Identifier: Apache-2.0
"""Bad input raises a Python exception carrying the C++ message, naming the problem and
where; a failure leaves nothing half-made behind (a Sampler is made whole or not at all)."""

import numpy as np
import pytest


def test_model_errors_carry_the_message(hk):
    with pytest.raises(hk.ModelError, match="self-loop") as e:
        hk.ising(edges=np.array([[0, 1], [2, 2]]), couplings=[1.0, 1.0], n_nodes=3)
    assert isinstance(e.value, ValueError)
    with pytest.raises(hk.ModelError, match="out of range"):
        hk.ising(edges=np.array([[0, 5]]), couplings=[1.0], n_nodes=3)
    with pytest.raises(hk.ModelError, match="clamp"):
        hk.ising(edges=np.array([[0, 1]]), couplings=[1.0], n_nodes=2, clamps={0: 2})
    with pytest.raises(hk.ModelError):
        hk.gaussian([1.0, -1.0], edges=np.array([[0, 1]]), couplings=[0.1])
    with pytest.raises(hk.ModelError):
        hk.ising(edges=np.array([[0, 1]]), couplings=[np.nan], n_nodes=2)


def test_array_shape_errors_name_the_argument(hk):
    with pytest.raises(ValueError, match=r"not symmetric at \(0, 1\)"):
        hk.ising(np.array([[0.0, 1.0], [2.0, 0.0]]))
    with pytest.raises(ValueError, match="diagonal"):
        hk.ising(np.eye(3))
    with pytest.raises(ValueError, match="couplings: 1 values for 2 edges"):
        hk.ising(edges=np.array([[0, 1], [1, 2]]), couplings=[1.0])
    with pytest.raises(ValueError, match="either as J or as edges"):
        hk.ising(np.zeros((2, 2)), edges=np.array([[0, 1]]), couplings=[1.0])
    with pytest.raises(TypeError, match="edges: expected integers"):
        hk.ising(edges=np.array([[0.0, 1.0]]), couplings=[1.0], n_nodes=2)
    with pytest.raises(ValueError, match="fields: expected n x q"):
        hk.potts(3, edges=np.array([[0, 1]]), couplings=[1.0], fields=np.zeros((2, 4)))
    with pytest.raises(ValueError, match="n_nodes"):
        hk.ising(edges=np.array([[0, 1]]), couplings=[1.0])
    with pytest.raises(ValueError, match="clamps: expected"):
        hk.ising(edges=np.array([[0, 1]]), couplings=[1.0], n_nodes=2, clamps=[[0, 1, 1]])
    with pytest.raises(ValueError, match="diag: 1 values for 2 nodes"):
        hk.gaussian([1.0], np.array([[0.0, 0.1], [0.1, 0.0]]))


def test_option_errors(hk):
    model = hk.lattice([4, 4])
    with pytest.raises(TypeError, match="unknown option 'n_chain'"):
        hk.Sampler(model, n_chain=4)
    with pytest.raises(ValueError, match="n_chains"):
        hk.Sampler(model, n_chains=0)
    with pytest.raises(TypeError, match="option 'n_chains' cannot take 'four'"):
        hk.Sampler(model, n_chains="four")
    with pytest.raises(ValueError, match="reference: 'cold' is none of"):
        hk.Sampler(model, reference="cold")
    with pytest.raises(ValueError, match="accepted|auto"):
        hk.Sampler(model, device="tpu")
    s = hk.Sampler(model, n_chains=2, n_rounds=5)
    with pytest.raises(ValueError, match="n_rounds must be >= 0"):
        s.run(-1)
    assert s.rounds_done == 0


def test_device_errors(hk):
    with pytest.raises(ValueError, match="score"):
        hk.resolve_device("auto", score=-1)
    with pytest.raises(ValueError, match="accepted"):
        hk.resolve_device("quantum")
    if "cuda" not in hk.execution_spaces():
        with pytest.raises(hk.DeviceUnavailable, match="[Cc]uda"):
            hk.resolve_device("gpu")


def test_load_run_errors(hk, tmp_path):
    with pytest.raises(ValueError, match="is not a directory"):
        hk.load_run(str(tmp_path / "missing"))
    with pytest.raises(ValueError, match="not a run directory"):
        hk.load_run(str(tmp_path))
