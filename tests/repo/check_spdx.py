#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Every source file of the repository (C++, CMake, Python, shell, templates) names its
license, Apache-2.0 (LICENSE), in an SPDX line within its first three lines. Lists the
files that do not and exits 1; run from anywhere: python3 check_spdx.py REPOSITORY."""

import pathlib
import sys

from repo_check import listed_files, report

TAG = "SPDX-License-Identifier: Apache-2.0"
SUFFIXES = {".cpp", ".hpp", ".h", ".in", ".cmake", ".py", ".sh"}
NAMES = {"CMakeLists.txt", "run"}  # .ci/run


def is_source(path):
    if "corpus" in path.parts:  # fuzz seeds are data
        return False
    return path.suffix in SUFFIXES or path.name in NAMES


def main():
    root = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else ".").resolve()
    sources = [f for f in listed_files(root) if is_source(f)]
    missing = []
    for f in sources:
        with open(root / f, encoding="utf-8", errors="replace") as text:
            head = [text.readline() for _ in range(3)]
        if not any(TAG in line for line in head):
            missing.append(str(f))
    return report("check_spdx", root, len(sources), missing,
                  f"{len(missing)} of {len(sources)} source files lack '{TAG}'",
                  f"all {len(sources)} source files carry '{TAG}'")


if __name__ == "__main__":
    sys.exit(main())
