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

Inside core, the areas (core/hamon/core/AREA/, docs/architecture.md) are ordered the same
way, lowest first (CORE_AREAS): an area includes itself and the areas before it only, and
a folder named detail/ is its area's own: no other area, layer or tool includes from it.
Every source is named after the header it implements, in its folder or its detail/: X.cpp,
or X_PART.cpp where one header's definitions are split by topic. No area from state/ on
but families/, and nothing in policies/, asks which model family it runs (FAMILY_TEST): it
asks the family (families/family_concept.hpp); model/ below defines the host model of every
family.

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
# core's areas, lowest first: each may include itself and those before it.
CORE_AREAS = ["util", "model", "state", "stats", "families", "tempering", "sampler", "analysis",
              "tuning", "train"]
CORE_ROOT = ("core", "hamon", "core")
# A test of which family a model is: Potts (q states), continuous, or the storage type.
FAMILY_TEST = re.compile(r"is_potts\(\)|n_states\(?\)? ?(>|==|!=|<=) ?0|is_continuous\(\)|"
                         r"(\.|->)continuous_kind|ContinuousKind::|is_floating_point_v<Value>|"
                         r"is_same_v<Value")
FAMILY_BLIND_FROM = "state"  # areas from this one on, families/ aside
# Headers that CMake generates into build/generated/hamon, with the layer that owns them.
GENERATED = {
    "hamon/version.hpp": "core",
    "hamon/mpi_config.hpp": "core",
    "hamon/host_simd_config.hpp": "core",
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


def core_area(parts):
    """The area of a path under core/hamon/core/ (as parts after hamon/core), or None."""
    return parts[0] if len(parts) > 1 and parts[0] in CORE_AREAS else None


def area_problems(f, number, name):
    """What is wrong with `#include "name"` (line `number` of f) between core's areas."""
    if not name.startswith("hamon/core/"):
        return []
    target = name.split("/")[2:]
    to_area = core_area(target)
    if to_area is None:
        return [f"{f}:{number}: \"{name}\" is in no area of core"]
    from_area = core_area(f.parts[3:]) if f.parts[:3] == CORE_ROOT else None
    problems = []
    if "detail" in target[:-1] and from_area != to_area:
        problems.append(f"{f}:{number}: includes \"{name}\", the inside (detail/) of area "
                        f"{to_area}")
    if from_area and CORE_AREAS.index(to_area) > CORE_AREAS.index(from_area):
        problems.append(f"{f}:{number}: area {from_area} includes \"{name}\" ({to_area}), "
                        f"which comes after it")
    return problems


def family_test_problems(f, number, line):
    """A family test in policies/ or in an area of core that must ask the family instead."""
    if f.parts[0] != "policies":
        if f.parts[:3] != CORE_ROOT:
            return []
        area = core_area(f.parts[3:])
        if area is None or area == "families":
            return []
        if CORE_AREAS.index(area) < CORE_AREAS.index(FAMILY_BLIND_FROM):
            return []
    code = line.split("//", 1)[0]
    if FAMILY_TEST.search(code):
        return [f"{f}:{number}: asks which model family it runs; ask the family "
                f"(families/family_concept.hpp, family_facts.hpp)"]
    return []


def naming_problems(files):
    """Sources of core not named after a header in their folder or its detail/."""
    problems = []
    for f in files:
        if f.parts[:3] != CORE_ROOT or f.suffix != ".cpp":
            continue
        if core_area(f.parts[3:]) is None:
            problems.append(f"{f}: a source outside core's areas")
            continue
        stems = {h.stem for d in (f.parent, f.parent / "detail") for h in files
                 if h.parent == d and h.suffix == ".hpp"}
        if not any(f.stem == s or f.stem.startswith(s + "_") for s in stems):
            problems.append(f"{f}: implements no header named after it (X.hpp for X.cpp or "
                            f"X_PART.cpp, beside it or in its detail/)")
    return problems


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
                problems.extend(family_test_problems(f, number, line))
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
                else:
                    problems.extend(area_problems(f, number, name))
    problems.extend(naming_problems(files))
    return report("check_layers", root, checked, problems,
                  f"{len(problems)} problem(s) with the layering",
                  f"the includes of {checked} files follow the layering")


if __name__ == "__main__":
    sys.exit(main())
