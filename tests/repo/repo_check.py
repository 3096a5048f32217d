# SPDX-License-Identifier: Apache-2.0
"""What the checks of tests/repo share: the files git lists (tracked, or new and not
ignored) and the report, which lists the problems and gives the exit status."""

import pathlib
import subprocess


def listed_files(root, *paths):
    """The files git lists under `paths` (the whole repository without), relative to root."""
    listed = subprocess.run(["git", "-C", str(root), "ls-files", "--cached", "--others",
                             "--exclude-standard", *paths],
                            capture_output=True, text=True, check=True)
    files = [pathlib.Path(line) for line in listed.stdout.splitlines()]
    return [f for f in files if (root / f).is_file()]


def report(tool, root, checked, problems, heading, passed):
    """Prints the outcome and returns the exit status: 1 when nothing was checked (a check
    of no files cannot pass) or when there are problems, 0 otherwise."""
    if checked == 0:
        print(f"{tool}: no source files found under {root}")
        return 1
    if problems:
        print(f"{tool}: {heading}:")
        for problem in problems:
            print("  " + problem)
        return 1
    print(f"{tool}: {passed}")
    return 0
