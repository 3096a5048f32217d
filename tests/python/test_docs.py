# SPDX-License-Identifier: Apache-2.0
"""docs/python.md's worked example runs as written, and does what its comments say."""

import pathlib
import re

import numpy as np

DOC = pathlib.Path(__file__).resolve().parents[2] / "docs" / "python.md"


def test_worked_example(hk, capsys):
    blocks = re.findall(r"```python\n(.*?)```", DOC.read_text(), re.S)
    assert len(blocks) == 1
    scope = {}
    exec(compile(blocks[0], str(DOC), "exec"), scope)
    result, sampler, later = scope["result"], scope["sampler"], scope["later"]
    assert result["samples"].shape == (200, 100) and result["samples"].dtype == np.int8
    assert scope["report"]["log_z"] is not None
    sampler.extend(1000)
    assert later.checkpoint() == sampler.checkpoint()
