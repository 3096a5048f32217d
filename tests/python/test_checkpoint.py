# SPDX-License-Identifier: Apache-2.0
"""Checkpoints as bytes: run(2n) is run(n), checkpoint, restore, run(n), bit for bit (the
checkpoint bytes and every trace); a checkpoint restores to the same bytes; a checkpoint of
another run, or a damaged one, is refused with the C++ message."""

import numpy as np
import pytest

OPTIONS = dict(n_chains=4, beta_min=0.0, beta_max=1.2, n_rounds=200, burn_in=20, seed=9,
               samples_every=2, record_energies=True, record_index_process=True, moments=True)


@pytest.fixture
def model(hk):
    return hk.lattice([5, 5], coupling=hk.Distribution.pm_one(3), field=0.1)


def same_results(a, b):
    ra, rb = a.result(), b.result()
    for name in ("samples", "energies", "index_process", "betas", "round_trips", "best_state"):
        assert ra[name].tobytes() == rb[name].tobytes(), name
    assert ra["moments"]["energy_per_node"] == rb["moments"]["energy_per_node"]
    assert ra["best_energy"] == rb["best_energy"]


def test_split_run_is_the_whole_run(hk, model):
    whole = hk.Sampler(model, **OPTIONS)
    assert whole.run(120) == 120
    first = hk.Sampler(model, **OPTIONS)
    first.run(60)
    resumed = hk.Sampler.restore(model, first.checkpoint(), **OPTIONS)
    assert resumed.rounds_done == 60
    resumed.run(60)
    assert resumed.checkpoint() == whole.checkpoint()
    same_results(resumed, whole)


def test_checkpoint_bytes_round_trip(hk, model):
    s = hk.Sampler(model, **OPTIONS)
    s.run(45)  # inside measurement, mid-way through a moment batch
    data = s.checkpoint()
    assert isinstance(data, bytes) and data.startswith(b"HAMONCKP")
    again = hk.Sampler(model, checkpoint=data, **OPTIONS)
    assert again.checkpoint() == data
    assert np.array_equal(again.state(), s.state())


def test_run_to_the_end_and_extend(hk, model):
    s = hk.Sampler(model, **OPTIONS)
    assert s.run() == OPTIONS["burn_in"] + OPTIONS["n_rounds"]
    assert s.measured_rounds == OPTIONS["n_rounds"]
    assert s.extend(30) == 30
    assert s.measured_rounds == OPTIONS["n_rounds"] + 30
    longer = hk.Sampler(model, **OPTIONS)
    longer.run(OPTIONS["burn_in"] + OPTIONS["n_rounds"] + 30)
    assert longer.checkpoint() == s.checkpoint()


def test_continuous_checkpoint(hk):
    model = hk.gaussian_lattice([4, 4], diag=2.0, coupling=0.3)
    options = dict(n_chains=3, beta_min=0.2, n_rounds=50, seed=1, samples_every=1)
    whole = hk.Sampler(model, **options)
    whole.run(40)
    part = hk.Sampler(model, **options)
    part.run(25)
    rest = hk.Sampler(model, checkpoint=part.checkpoint(), **options)
    rest.run(15)
    assert rest.checkpoint() == whole.checkpoint()
    assert rest.state().dtype == np.float64
    # A continuous run's checkpoint is not a spin model's.
    with pytest.raises(hk.CheckpointError):
        hk.Sampler(hk.lattice([4, 4]), checkpoint=whole.checkpoint(), **options)


def test_checkpoint_of_another_seed_is_refused(hk, model):
    s = hk.Sampler(model, **OPTIONS)
    s.run(10)
    other = dict(OPTIONS, seed=10)
    with pytest.raises(hk.CheckpointError, match="sampling options"):
        hk.Sampler(model, checkpoint=s.checkpoint(), **other)


def test_checkpoint_of_another_model_is_refused(hk, model):
    s = hk.Sampler(model, **OPTIONS)
    s.run(10)
    with pytest.raises(hk.CheckpointError, match="model"):
        hk.Sampler(hk.lattice([5, 5]), checkpoint=s.checkpoint(), **OPTIONS)


def test_damaged_checkpoint_is_refused(hk, model):
    s = hk.Sampler(model, **OPTIONS)
    s.run(10)
    data = bytearray(s.checkpoint())
    data[len(data) // 2] ^= 0xFF
    with pytest.raises(hk.CheckpointError, match="checkpoint"):
        hk.Sampler(model, checkpoint=bytes(data), **OPTIONS)
    with pytest.raises(hk.CheckpointError, match="checkpoint"):
        hk.Sampler(model, checkpoint=b"not a checkpoint", **OPTIONS)
