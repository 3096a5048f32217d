#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Compile every translation unit of a configured hamon build against other Kokkos headers.

    tools/kokkos_compat.py BUILD_DIR KOKKOS_PREFIX [--std c++NN] [--jobs N] [--no-tests] [--no-benchmarks]

BUILD_DIR is a configured host build (its compile_commands.json, Kokkos 3.4.01); KOKKOS_PREFIX
is a header tree unpacked by `tools/provision-deps.sh kokkos-headers` (usr/include/kokkos, and
usr/include/trilinos for Kokkos Kernels where the package has it). Each command is rewritten:
the include directories of the build's own Kokkos / Kokkos Kernels are replaced by the
prefix's, -std is the one that Kokkos was configured for (KOKKOS_ENABLE_CXX<NN>; --std
overrides), -Werror is dropped (errors are the bar here; warnings are counted and shown),
and the compiler only checks syntax (-fsyntax-only: templates are instantiated, nothing is
written). tests/install/downstream/*.cpp and examples/embed/*.cpp, which CTest builds at
test time, are checked with the flags of the library's own sources.

Kokkos Kernels (RBM training's GEMMs): where the other tree has it (KokkosKernels_config.h
in usr/include/trilinos), the build's -DHAMON_HAVE_KOKKOS_KERNELS=1 is kept and the sources
are checked against that Kokkos Kernels; where it has none (Kokkos 5.2's packages), every
-DHAMON_HAVE_KOKKOS_KERNELS[=...] is dropped, so those sources compile their plain-Kokkos
fallback, as a build that does not find Kokkos Kernels would. One line says which.

The build's backend test sources (tests/<backend>/tst*_<backend>.cpp, one per Kokkos backend
of the configured build) are checked only for the backends the other Kokkos enables
(KOKKOS_ENABLE_<BACKEND> in its KokkosCore_config.h); every other source follows the
KOKKOS_ENABLE_* macros itself. A source compiled into several targets is checked once.

Why not configure CMake against the packages' own CMake files: they reference shared
libraries that are not unpacked (and need a newer glibc than Debian 12's), and Trilinos's
Kokkos Kernels exports TriBITS target names, not Kokkos::kokkoskernels.
"""
import argparse
import concurrent.futures
import json
import os
import re
import shlex
import subprocess
import sys
import tempfile
import time



def known_backends():
    """{name: Kokkos option} of every backend in cmake/HamonBackends.cmake's list (the one
    list of backends; tests/CMakeLists.txt makes a test folder per name)."""
    repo = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    with open(os.path.join(repo, "cmake", "HamonBackends.cmake"), encoding="utf-8") as f:
        entries = re.findall(r'"(\w+)\|(\w+)\|(\w+)\|(\w+)"', f.read())
    if not entries:
        sys.exit("kokkos_compat: no backends listed in cmake/HamonBackends.cmake")
    return {name: option for name, _, option, _ in entries}


BACKENDS = known_backends()


def header_dirs(prefix):
    """The tree's Kokkos include directory, then its Kokkos Kernels one where it has one."""
    dirs = [os.path.join(prefix, "usr/include/kokkos")]
    kernels = os.path.join(prefix, "usr/include/trilinos")
    if os.path.isfile(os.path.join(kernels, "KokkosKernels_config.h")):
        dirs.append(kernels)
    return dirs


def kernels_version(kernels_dir):
    """Kokkos Kernels' version (e.g. 4.5.1) from its KokkosKernels_config.h, or None."""
    with open(os.path.join(kernels_dir, "KokkosKernels_config.h"), encoding="utf-8") as f:
        m = re.search(r"^#define KOKKOSKERNELS_VERSION (\d+)", f.read(), re.M)
    if m is None:
        return None
    v = int(m.group(1))
    return f"{v // 10000}.{v // 100 % 100}.{v % 100}"


def kokkos_config(kokkos_dir):
    """Version (e.g. 4.5.1), enabled backends and C++ standard of a Kokkos header tree."""
    with open(os.path.join(kokkos_dir, "KokkosCore_config.h"), encoding="utf-8") as f:
        text = f.read()

    def defined(name):
        return re.search(rf"^#define {name}\b", text, re.M) is not None

    v = int(re.search(r"#define KOKKOS_VERSION (\d+)", text).group(1))
    version = f"{v // 10000}.{v // 100 % 100}.{v % 100}"
    on = {name for name, option in BACKENDS.items() if defined(f"KOKKOS_ENABLE_{option}")}
    stds = [n for n in ("26", "23", "20", "17", "14") if defined(f"KOKKOS_ENABLE_CXX{n}")]
    return version, on, f"c++{stds[0]}" if stds else "c++17"


# The definition core/CMakeLists.txt sets where the build found Kokkos Kernels (its value, if
# any, after the name).
KERNELS_DEFINE = re.compile(r"HAMON_HAVE_KOKKOS_KERNELS(=.*)?")


def is_kernels_define(a, following=None):
    """Whether argument `a` (with `following`, the next one, for a lone -D) defines
    HAMON_HAVE_KOKKOS_KERNELS."""
    if a == "-D":
        return following is not None and KERNELS_DEFINE.fullmatch(following) is not None
    return a.startswith("-D") and KERNELS_DEFINE.fullmatch(a[2:]) is not None


def is_kokkos_include(path):
    return any(os.path.isfile(os.path.join(path, name))
               for name in ("KokkosCore_config.h", "KokkosKernels_config.h"))


def rewrite(args, new_dirs, std, kernels=True):
    """The compile command `args` with the other headers, `std`, syntax only; without
    `kernels` (the other tree has no Kokkos Kernels) also without HAMON_HAVE_KOKKOS_KERNELS
    (-DNAME, -DNAME=VALUE or -D NAME), so the source compiles its plain-Kokkos fallback.
    None where the command never sees Kokkos (no Kokkos include directory)."""
    out = [args[0]]
    i, inserted = 1, False
    while i < len(args):
        a = args[i]
        if a in ("-I", "-isystem") and i + 1 < len(args):
            flag, path = a, args[i + 1]
            i += 2
        elif (a.startswith("-I") or a.startswith("-isystem")) and a not in ("-I", "-isystem"):
            flag = "-isystem" if a.startswith("-isystem") else "-I"
            path = a[len(flag):]
            i += 1
        else:
            i += 1
            if a == "-o" and i < len(args):
                i += 1  # and its operand
            elif not kernels and is_kernels_define(a, args[i] if i < len(args) else None):
                if a == "-D":
                    i += 1  # and its operand
            elif a in ("-c", "-Werror"):
                pass
            elif a.startswith("-std="):
                out.append(f"-std={std}")
            else:
                out.append(a)
            continue
        if is_kokkos_include(path):
            if not inserted:
                for d in new_dirs:
                    out += ["-isystem", d]
                inserted = True
        else:
            out += [flag, path]
    if not inserted:
        return None  # a source that never sees Kokkos has nothing to check against another one
    out.insert(1, "-fsyntax-only")
    return out


def pch_flags(cmd, source, new_dirs):
    """The flags of `cmd` that decide what Kokkos_Core.hpp compiles to: all but the source,
    -fsyntax-only and the include directories other than the Kokkos ones (they hold
    hamon's, the tests' and other libraries' headers, none of which Kokkos_Core.hpp reads)."""
    out, i = [], 1
    while i < len(cmd):
        a = cmd[i]
        if a in ("-I", "-isystem") and i + 1 < len(cmd):
            if cmd[i + 1] in new_dirs:
                out += [a, cmd[i + 1]]
            i += 2
            continue
        i += 1
        if a.startswith("-I") or a == source or a == "-fsyntax-only":
            continue
        out.append(a)
    return tuple(out)


def precompile_kokkos(jobs, new_dirs, workdir, parallel):
    """Kokkos_Core.hpp precompiled once per set of flags (pch_flags) and force-included into
    each job's command, so the ~1.4 s of parsing Kokkos is paid once per set, not per source:
    about half of this check's time. Every source that sees Kokkos includes Kokkos_Core.hpp
    (the one public Kokkos header since Kokkos 4), so reading it first changes only the order
    of the source's includes, not what Kokkos declares to it. GCC falls back to reading the
    header where a PCH does not fit a command, which costs time, never a verdict."""
    groups = {}
    for _, _, cmd in jobs:
        groups.setdefault(pch_flags(cmd, cmd[-1], new_dirs), len(groups))

    def build(item):
        flags, n = item
        header = os.path.join(workdir, str(n), "kokkos_core.hpp")
        os.makedirs(os.path.dirname(header))
        with open(header, "w", encoding="utf-8") as f:
            f.write("#include <Kokkos_Core.hpp>\n")
        r = subprocess.run([jobs[0][2][0], *flags, "-x", "c++-header", header,
                            "-o", header + ".gch"], stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, text=True, check=False)
        return n, header if r.returncode == 0 else None

    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, parallel)) as pool:
        headers = dict(pool.map(build, groups.items()))
    out = []
    for path, cwd, cmd in jobs:
        header = headers[groups[pch_flags(cmd, cmd[-1], new_dirs)]]
        # Where Kokkos_Core.hpp does not precompile, the source says why when it is checked.
        out.append((path, cwd, cmd if header is None else [cmd[0], "-include", header, *cmd[1:]]))
    return out, len(groups)


def source_dir_of(build_dir):
    with open(os.path.join(build_dir, "CMakeCache.txt"), encoding="utf-8") as f:
        for line in f:
            if line.startswith("CMAKE_HOME_DIRECTORY:"):
                return line.split("=", 1)[1].strip()
    raise SystemExit(f"kokkos_compat: {build_dir} is not a configured CMake build")


def backend_of(path, build_dir):
    rel = os.path.relpath(path, build_dir).split(os.sep)
    if len(rel) == 3 and rel[0] == "tests" and rel[1] in BACKENDS:
        return rel[1]
    return None


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("build_dir")
    p.add_argument("prefix")
    p.add_argument("--std", help="the -std value (default: the one Kokkos was configured for)")
    p.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    p.add_argument("--no-tests", action="store_true",
                   help="leave out the test sources (tests/, and the build's generated ones)")
    p.add_argument("--no-benchmarks", action="store_true",
                   help="leave out the benchmarks' sources (perf/)")
    o = p.parse_args()

    build_dir = os.path.abspath(o.build_dir)
    new_dirs = header_dirs(os.path.abspath(o.prefix))
    kernels = len(new_dirs) > 1
    version, on, std = kokkos_config(new_dirs[0])
    std = o.std or std
    with open(os.path.join(build_dir, "compile_commands.json"), encoding="utf-8") as f:
        entries = json.load(f)

    source_dir = source_dir_of(build_dir)
    jobs, seen, skipped, library, defining, tests_left_out = [], set(), 0, None, 0, 0
    without_kokkos = 0  # sources compiled without Kokkos's headers (the plain yardsticks)
    for e in entries:
        path = os.path.normpath(os.path.join(e["directory"], e["file"]))
        if path in seen:
            continue
        seen.add(path)
        if o.no_tests and (os.path.relpath(path, source_dir).startswith("tests" + os.sep) or
                           os.path.relpath(path, build_dir).startswith("tests" + os.sep)):
            tests_left_out += 1
            continue
        if o.no_benchmarks and os.path.relpath(path, source_dir).startswith("perf" + os.sep):
            tests_left_out += 1
            continue
        backend = backend_of(path, build_dir)
        if backend is not None and backend not in on:
            skipped += 1
            continue
        args = e["arguments"] if "arguments" in e else shlex.split(e["command"])
        if any(is_kernels_define(a, b) for a, b in zip(args, args[1:] + [None])):
            defining += 1
        command = rewrite(args, new_dirs, std, kernels)
        if command is None:
            without_kokkos += 1
            continue
        jobs.append((path, e["directory"], command))
        if library is None and os.path.relpath(path, source_dir).startswith("core" + os.sep):
            library = (e["file"], e["directory"], jobs[-1][2])

    # The embedding programs' sources: not in compile_commands.json (CTest builds them).
    for part in (("tests", "install", "downstream"), ("examples", "embed")):
        downstream = os.path.join(source_dir, *part)
        for name in sorted(os.listdir(downstream)) if os.path.isdir(downstream) else []:
            if name.endswith(".cpp") and library is not None:
                lib_file, cwd, cmd = library
                tu = os.path.join(downstream, name)
                jobs.append((tu, cwd, [tu if a == lib_file else a for a in cmd]))

    label = f"Kokkos {version} ({', '.join(sorted(on)) or 'no host backend'}; -std={std})"
    print(f"kokkos_compat: {label}: {len(jobs)} translation units, {o.jobs} at a time"
          f" ({skipped} backend test sources of other backends left out"
          f"{f', {tests_left_out} test or benchmark sources left out' if tests_left_out else ''}"
          f"{f', {without_kokkos} sources without Kokkos left out' if without_kokkos else ''})",
          flush=True)
    if kernels:
        kv = kernels_version(new_dirs[1])
        print(f"kokkos_compat: {label}: Kokkos Kernels {kv or '(version not stated)'} in"
              f" {new_dirs[1]}: -DHAMON_HAVE_KOKKOS_KERNELS kept ({defining} commands"
              " define it)", flush=True)
    else:
        print(f"kokkos_compat: {label}: no Kokkos Kernels in {o.prefix}:"
              f" -DHAMON_HAVE_KOKKOS_KERNELS dropped from {defining} commands (their"
              " plain-Kokkos fallback is checked)", flush=True)

    start = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="kokkos_compat_pch") as workdir:
        jobs, sets = precompile_kokkos(jobs, new_dirs, workdir, o.jobs)
        print(f"kokkos_compat: {label}: Kokkos_Core.hpp precompiled for {sets} sets of flags"
              f" in {time.monotonic() - start:.0f} s", flush=True)
        return report(jobs, o.jobs, source_dir, label, start)


def report(jobs, parallel, source_dir, label, start):
    """Checks every job, `parallel` at a time; prints each failure and warning, then a
    summary line. 1 where any source failed."""

    def check(job):
        path, cwd, cmd = job
        r = subprocess.run(cmd, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                           text=True, check=False)
        return path, r.returncode, r.stdout

    failed, warned = [], []
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, parallel)) as pool:
        for path, rc, text in pool.map(check, jobs):
            rel = os.path.relpath(path, source_dir)
            if rc != 0:
                failed.append(rel)
                print(f"--- FAILED: {rel}\n{text}", flush=True)
            elif "warning:" in text:
                warned.append(rel)
                print(f"--- warnings: {rel}\n{text}", flush=True)
    took = time.monotonic() - start
    print(f"kokkos_compat: {label}: {len(jobs) - len(failed)}/{len(jobs)} compile,"
          f" {len(warned)} with warnings, {took:.0f} s", flush=True)
    for rel in failed:
        print(f"kokkos_compat:   failed: {rel}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
