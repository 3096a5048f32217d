#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""The layering of hamon's code, as its CMake targets state it, checked on every
#include "..." of core/, policies/ and apps/: a layer includes itself and the layers below
it only.

    core                      hamon::core
    policies   -> core        hamon::hamon
    apps/config   -> policies, core
    apps/output   -> core     (config and output never include each other)
    apps/run      -> config, output, policies, core
    apps/commands -> run and everything below
    apps/main.cpp -> commands and everything below

A static library's link does not catch an include back (the program links every layer),
so this check does. Lists the offending lines and exits 1; run from anywhere:
python3 check_layers.py REPOSITORY."""

import pathlib
import re
import sys

from repo_check import listed_files, report

BELOW = {
    "core": set(),
    "policies": {"core"},
    "config": {"policies", "core"},
    "output": {"core"},
    "run": {"config", "output", "policies", "core"},
    "commands": {"run", "config", "output", "policies", "core"},
    "main": {"commands", "run", "config", "output", "policies", "core"},
}
# Headers that CMake generates into build/generated/hamon, with the layer that owns them.
GENERATED = {
    "hamon/version.hpp": "core",
    "hamon/mpi_config.hpp": "core",
    "hamon/backend_list.hpp": "core",
    "hamon/hamon.hpp": "policies",  # policies/hamon/hamon.hpp, the umbrella header
}
SUFFIXES = {".cpp", ".hpp", ".h", ".in"}
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"')


def layer_of_file(path):
    """The layer a repository file belongs to, or None outside the layered code."""
    parts = path.parts
    if parts[0] in ("core", "policies"):
        return parts[0]
    if parts[0] == "apps":
        if len(parts) == 2:
            return "main" if parts[1] == "main.cpp" else None
        return parts[1] if parts[1] in BELOW else None
    return None


def layer_of_include(name, including, root):
    """The layer of `#include "name"` in file `including`, or None when it is not ours."""
    if name in GENERATED:
        return GENERATED[name]
    first = name.split("/", 1)[0]
    if name.startswith("hamon/core/"):
        return "core"
    if name.startswith("hamon/policies/"):
        return "policies"
    if first in ("config", "output", "run", "commands"):
        return first
    beside = including.parent / name
    if (root / beside).is_file():
        return layer_of_file(beside)
    return None


def main():
    root = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else ".").resolve()
    files = [f for f in listed_files(root, "core", "policies", "apps") if f.suffix in SUFFIXES]
    problems = []
    checked = 0
    for f in files:
        layer = layer_of_file(f)
        if layer is None:
            continue
        checked += 1
        with open(root / f, encoding="utf-8", errors="replace") as text:
            for number, line in enumerate(text, start=1):
                match = INCLUDE.match(line)
                if not match:
                    continue
                name = match.group(1)
                target = layer_of_include(name, f, root)
                if target is None:
                    problems.append(f"{f}:{number}: \"{name}\" is in no layer")
                elif target != layer and target not in BELOW[layer]:
                    problems.append(f"{f}:{number}: {layer} includes \"{name}\" ({target}), "
                                    f"which is not below it")
    return report("check_layers", root, checked, problems,
                  f"{len(problems)} include(s) against the layering",
                  f"the includes of {checked} files follow the layering")


if __name__ == "__main__":
    sys.exit(main())
