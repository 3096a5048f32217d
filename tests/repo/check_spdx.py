#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Every source file of the repository (C++, CMake, Python, shell, templates) names its
license, Apache-2.0 (LICENSE), in an SPDX line within its first three lines. Lists the
files that do not and exits 1; run from anywhere: python3 check_spdx.py REPOSITORY."""

import pathlib
import subprocess
import sys

TAG = "SPDX-License-Identifier: Apache-2.0"
SUFFIXES = {".cpp", ".hpp", ".h", ".in", ".cmake", ".py", ".sh"}
NAMES = {"CMakeLists.txt", "run"}  # .ci/run


def is_source(path):
    if "corpus" in path.parts:  # fuzz seeds are data
        return False
    return path.suffix in SUFFIXES or path.name in NAMES


def main():
    root = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else ".").resolve()
    listed = subprocess.run(["git", "-C", str(root), "ls-files", "--cached", "--others",
                             "--exclude-standard"], capture_output=True, text=True, check=True)
    files = [pathlib.Path(line) for line in listed.stdout.splitlines()]
    sources = [f for f in files if is_source(f) and (root / f).is_file()]
    missing = []
    for f in sources:
        with open(root / f, encoding="utf-8", errors="replace") as text:
            head = [text.readline() for _ in range(3)]
        if not any(TAG in line for line in head):
            missing.append(str(f))
    if not sources:
        print("check_spdx: no source files found under", root)
        return 1
    if missing:
        print(f"check_spdx: {len(missing)} of {len(sources)} source files lack '{TAG}':")
        for f in missing:
            print("  " + f)
        return 1
    print(f"check_spdx: all {len(sources)} source files carry '{TAG}'")
    return 0


if __name__ == "__main__":
    sys.exit(main())
