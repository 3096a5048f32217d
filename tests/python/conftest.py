# SPDX-License-Identifier: Apache-2.0
"""Shared fixtures of the hamon_kokkos tests: the module (from the build tree, PYTHONPATH
set by CTest) and the `hamon` program of the same build (HAMON_CLI), to compare with."""

import os
import pathlib
import subprocess

import pytest


@pytest.fixture(scope="session")
def hk():
    import hamon_kokkos

    return hamon_kokkos


@pytest.fixture(scope="session")
def cli():
    path = os.environ.get("HAMON_CLI")
    if not path or not pathlib.Path(path).exists():
        pytest.skip("HAMON_CLI (the hamon program of this build) is not set")
    return path


def run_cli(cli, config_text, tmp_path, name="run"):
    """Runs `hamon run` on the YAML text; returns the run directory."""
    config = tmp_path / f"{name}.yaml"
    config.write_text(config_text)
    out = tmp_path / name
    done = subprocess.run([cli, "run", str(config), "--out", str(out)],
                          capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    return out
