# SPDX-License-Identifier: Apache-2.0
"""The type stubs (hamon_kokkos.pyi, beside the module) name exactly what the module has:
every function and class, and every public member of its classes."""

import ast
import pathlib


def test_stubs_match_the_module(hk):
    stub_file = pathlib.Path(hk.__file__).with_name("hamon_kokkos.pyi")
    tree = ast.parse(stub_file.read_text())
    stubs = {n.name: n for n in tree.body if isinstance(n, (ast.FunctionDef, ast.ClassDef))}
    public = {k for k in dir(hk) if not k.startswith("_")}
    assert public == set(stubs)
    for name, node in stubs.items():
        if not isinstance(node, ast.ClassDef) or issubclass(getattr(hk, name), Exception):
            continue
        members = {n.name for n in node.body if isinstance(n, ast.FunctionDef)}
        members |= {n.target.id for n in node.body if isinstance(n, ast.AnnAssign)}
        real = {k for k in dir(getattr(hk, name)) if not k.startswith("_")}
        assert real == members - {"__init__"}, name
