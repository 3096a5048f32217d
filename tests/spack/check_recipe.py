#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""A static check of spack/packages/hamon/package.py without Spack (not installable here).

The recipe is imported with a stub `spack.package` that records its directives and plays
the small part of Spack's API the recipe calls (define, define_from_variant, spec
subscripts, traverse, which, Executable results). It then checks:
  - the dependencies: kokkos@3.4:5, kokkos-kernels@3.4:5+blas (its BLAS TPL) and a blas
    only with +kernels (on by default), yaml-cpp/CLI11 only with +cli, MPI only with +mpi (on by default), the test
    dependencies python3 + numpy + PyYAML, every backend variant pinned in Kokkos;
  - the conflicts that cannot link (+shared over kokkos~shared~pic, or +kernels over a
    static non-PIC kokkos-kernels) and cuda_arch=none;
  - cmake_args for several variant combinations (HAMON_ENABLE_KOKKOS_KERNELS follows
    kernels, and KokkosKernels_ROOT is Spack's kokkos-kernels with +kernels only), with
    Kokkos's compiler found both the Spack 0.23 way (spec attribute) and the 1.x way
    (package property), and that every HAMON_* option it sets exists in the project's
    CMake files; and that a spec without a python node (an environment concretized without
    tests, installed with --test=root) leaves HAMON_TEST_PYTHON to tests/cli's search;
  - test_downstream: CMAKE_PREFIX_PATH holds every link/run dependency's prefix (Kokkos
    Kernels' with +kernels, which a static libhamon's hamonConfig.cmake finds), and the
    test fails on a non-zero exit status or on output without the result line;
  - test_calibrate: fails when `hamon calibrate` fails or `hamon devices` does not read
    the file it wrote.
What it cannot check: Spack's concretizer and a real install (see spack/README.md).

    python3 tests/spack/check_recipe.py      exit status 0 = every check passed
"""

import importlib.util
import os
import re
import sys
import types

SOURCE_DIR = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
RECIPE = os.path.join(SOURCE_DIR, "spack", "packages", "hamon", "package.py")

DIRECTIVES = []  # (name, args, kwargs) in the order the recipe declares them


def directive(name):
    def record(*args, **kwargs):
        DIRECTIVES.append((name, args, kwargs))

    return record


class Prefix(str):
    """A Spack prefix: attribute access joins path components (prefix.bin.cmake)."""

    def __getattr__(self, name):
        if name.startswith("__"):
            raise AttributeError(name)
        return Prefix(os.path.join(self, name))


class FakeExecutable:
    def __init__(self, path, behaviour):
        self.path = path
        self.behaviour = behaviour
        self.calls = []
        self.returncode = None

    def __call__(self, *args, **kwargs):
        self.calls.append((args, kwargs))
        self.returncode, out = self.behaviour(args, kwargs)
        if self.returncode != 0 and kwargs.get("fail_on_error", True):
            raise RuntimeError(f"{self.path} exited {self.returncode}")
        return out if kwargs.get("output") is str else None


class Spec:
    """Variants of the root, and dependency nodes by name with their dependency type."""

    def __init__(self, name, variants=None, deps=None, prefix=None, attributes=None):
        self.name = name
        self.variants = variants or {}
        self.deps = deps or {}  # name -> (Spec, deptype tuple)
        self.prefix = Prefix(prefix or f"/opt/{name}")
        self.package = types.SimpleNamespace()
        for key, value in (attributes or {}).items():
            setattr(self, key, value)

    def satisfies(self, text):
        tokens = re.findall(r"([+~])(\w+)", text)
        if not tokens or "".join(s + n for s, n in tokens) != text.replace(" ", ""):
            raise AssertionError(f"stub satisfies() cannot read {text!r}")
        return all(self.variants[name] == (sign == "+") for sign, name in tokens)

    def __getitem__(self, name):
        return self.deps[name][0]

    def traverse(self, deptype=("link", "run"), root=True):
        if root:
            yield self
        for spec, types_ in self.deps.values():
            if set(types_) & set(deptype):
                yield spec


class CMakePackage:
    run_tests = False

    def __init__(self, spec):
        self.spec = spec
        self.prefix = spec.prefix

    @staticmethod
    def define(name, value):
        if isinstance(value, bool):
            return f"-D{name}:BOOL={'ON' if value else 'OFF'}"
        return f"-D{name}:STRING={value}"

    def define_from_variant(self, name, variant):
        return self.define(name, self.spec.variants[variant])


class CudaPackage:
    cuda_arch_values = ("70", "80", "90")


class SkipTest(Exception):
    pass


def install_stub():
    package = types.ModuleType("spack.package")
    for name in ("version", "variant", "depends_on", "conflicts", "requires", "maintainers",
                 "license"):
        setattr(package, name, directive(name))
    package.CMakePackage = CMakePackage
    package.CudaPackage = CudaPackage
    package.SkipTest = SkipTest
    package.join_path = os.path.join
    package.run_after = lambda phase: (lambda method: method)
    package.cache_extra_test_sources = lambda pkg, paths: None
    package.which = lambda path: WHICH[os.path.basename(path)]
    package.__all__ = [n for n in vars(package) if not n.startswith("_")]
    spack = types.ModuleType("spack")
    spack.package = package
    sys.modules["spack"] = spack
    sys.modules["spack.package"] = package


WHICH = {}  # basename -> FakeExecutable, set by each check


def load_recipe():
    with open(RECIPE) as f:
        compile(f.read(), RECIPE, "exec")  # a syntax error fails here, naming the line
    install_stub()
    spec = importlib.util.spec_from_file_location("hamon_recipe", RECIPE)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.Hamon


FAILURES = []


def check(condition, message):
    if not condition:
        FAILURES.append(message)


def deps(when=None):
    """depends_on specs declared (with `when` == the given string, if any)."""
    return [(args[0], kw) for name, args, kw in DIRECTIVES
            if name == "depends_on" and (when is None or kw.get("when") == when)]


def check_directives(cls):
    depends = deps()
    names = [spec for spec, _ in depends]
    check("kokkos@3.4:5" in names, "kokkos@3.4:5 is not a dependency")
    kernels = [(s, kw.get("when")) for s, kw in depends if s.startswith("kokkos-kernels")]
    check(kernels == [("kokkos-kernels@3.4:5+blas", "+kernels")],
          f"kokkos-kernels@3.4:5+blas should be a dependency only with +kernels, got {kernels}")
    blas = [(s, kw.get("when")) for s, kw in depends if s == "blas"]
    check(blas == [("blas", "+kernels")], f"blas should be a dependency only with +kernels, got {blas}")
    for spec in ("yaml-cpp@0.6:", "cli11@2:"):
        whens = [kw.get("when") for s, kw in depends if s == spec]
        check(whens == ["+cli"], f"{spec} should be a dependency only with +cli, got {whens}")
    for spec in ("python@3:", "py-numpy", "py-pyyaml"):
        types_ = [kw.get("type") for s, kw in depends if s == spec]
        check("test" in types_, f"{spec} is not a test dependency")
    mpi = [(s, kw.get("when")) for s, kw in depends if s == "mpi" or s.startswith("mpi@")]
    check(len(mpi) == 1 and mpi[0][1] == "+mpi",
          f"MPI should be a dependency only with +mpi, got {mpi}")
    for backend in ("openmp", "serial", "cuda"):
        check(f"kokkos+{backend}" in names and f"kokkos~{backend}" in names,
              f"the {backend} variant is not pinned both ways in Kokkos")
    check(any(s == "kokkos cuda_arch=90" for s in names), "cuda_arch is not forwarded to Kokkos")
    conflicts = [(args[0], kw.get("when")) for name, args, kw in DIRECTIVES if name == "conflicts"]
    check(("+shared", "^kokkos~shared~pic") in conflicts,
          "no conflict for +shared over a static non-PIC Kokkos")
    check(("+shared", "+kernels ^kokkos-kernels~shared ^kokkos~pic") in conflicts,
          "no conflict for +shared+kernels over a static non-PIC Kokkos Kernels")
    check(("+cuda", "cuda_arch=none") in conflicts, "no conflict for +cuda cuda_arch=none")
    variants = {args[0]: kw.get("default") for name, args, kw in DIRECTIVES if name == "variant"}
    expected = {"openmp": True, "serial": True, "shared": True, "cli": True, "native": False,
                "tests": False, "mpi": True, "kernels": True}
    for name, default in expected.items():
        check(variants.get(name) == default, f"variant {name}: default {variants.get(name)}")
    check(getattr(cls, "test_requires_compiler", False) is True,
          "test_requires_compiler is not True")
    with open(RECIPE) as f:
        text = f.read()
    code = "\n".join(line.split("#")[0] for line in text.splitlines())
    check(re.search(r"\bself\[", code) is None,
          "the recipe subscripts the package (self[...]): Spack 0.23 cannot")
    check("0.23" in text, "the recipe does not state the minimum Spack version")


def kokkos_node(style):
    """Kokkos as Spack 0.23 (spec attribute) or 1.x (package property) shows its compiler."""
    node = Spec("kokkos")
    if style == "0.23":
        node.kokkos_cxx = "/opt/kokkos/bin/nvcc_wrapper"
    else:
        node.package.kokkos_cxx = "/opt/kokkos/bin/nvcc_wrapper"
    return node


def root_spec(variants, style="0.23", python=True):
    full = {"openmp": True, "serial": True, "cuda": False, "shared": True, "cli": True,
            "native": False, "tests": False, "mpi": True, "kernels": True}
    full.update(variants)
    deps = {
        "kokkos": (kokkos_node(style), ("build", "link")),
        "random123": (Spec("random123"), ("build", "link")),
        "zlib-api": (Spec("zlib-ng"), ("build", "link")),
        "cmake": (Spec("cmake"), ("build",)),
    }
    if python:
        deps["python"] = (Spec("python", attributes={
            "command": types.SimpleNamespace(path="/opt/python/bin/python3")}), ("test",))
    if full["mpi"]:
        deps["mpi"] = (Spec("openmpi"), ("build", "link"))
    if full["kernels"]:
        deps["kokkos-kernels"] = (Spec("kokkos-kernels"), ("build", "link"))
    return Spec("hamon", full, deps, prefix="/opt/hamon")


def parse_defines(args):
    defines = {}
    for arg in args:
        match = re.fullmatch(r"-D(\w+):(BOOL|STRING)=(.*)", arg)
        check(match is not None, f"cmake argument {arg!r} is not -DNAME:TYPE=VALUE")
        if match:
            defines[match.group(1)] = match.group(3)
    return defines


def project_options():
    """Every option()/cache variable of the project's CMake files."""
    names = set()
    for root, _, files in os.walk(SOURCE_DIR):
        if "/build" in root or "/.git" in root:
            continue
        for name in files:
            if name == "CMakeLists.txt" or name.endswith(".cmake"):
                with open(os.path.join(root, name), errors="replace") as f:
                    text = f.read()
                names.update(re.findall(r"\boption\(\s*(\w+)", text))
                names.update(re.findall(r"\bset\(\s*(\w+)\s+[^)]*\bCACHE\b", text))
    return names


def check_cmake_args(cls):
    options = project_options()
    cases = [
        ({}, False, "0.23", {"BUILD_SHARED_LIBS": "ON", "HAMON_ENABLE_APPS": "ON",
                             "HAMON_ENABLE_NATIVE": "OFF", "BUILD_TESTING": "OFF",
                             "HAMON_ENABLE_MPI": "ON", "HAMON_ENABLE_KOKKOS_KERNELS": "ON",
                             "KokkosKernels_ROOT": "/opt/kokkos-kernels"}),
        ({"cli": False, "shared": False, "native": True, "mpi": False}, False, "1.x",
         {"BUILD_SHARED_LIBS": "OFF", "HAMON_ENABLE_APPS": "OFF", "HAMON_ENABLE_NATIVE": "ON",
          "HAMON_ENABLE_MPI": "OFF", "HAMON_ENABLE_KOKKOS_KERNELS": "ON"}),
        ({"kernels": False}, False, "1.x", {"HAMON_ENABLE_KOKKOS_KERNELS": "OFF",
                                            "HAMON_ENABLE_MPI": "ON"}),
        ({"mpi": False}, False, "0.23", {"HAMON_ENABLE_MPI": "OFF", "HAMON_ENABLE_APPS": "ON"}),
        ({}, True, "1.x", {"BUILD_TESTING": "ON",
                           "HAMON_TEST_PYTHON": "/opt/python/bin/python3"}),
        ({"tests": True}, False, "0.23", {"BUILD_TESTING": "ON"}),
        ({"tests": True, "cli": False}, False, "0.23", {"BUILD_TESTING": "ON"}),
    ]
    for variants, run_tests, style, expected in cases:
        pkg = cls(root_spec(variants, style))
        pkg.run_tests = run_tests
        defines = parse_defines(pkg.cmake_args())
        where = f"cmake_args({variants}, run_tests={run_tests}, Spack {style})"
        check(defines.get("CMAKE_CXX_COMPILER") == "/opt/kokkos/bin/nvcc_wrapper",
              f"{where}: CMAKE_CXX_COMPILER is {defines.get('CMAKE_CXX_COMPILER')}")
        check(defines.get("HAMON_ENABLE_PERF") == "OFF", f"{where}: perf is not off")
        for key, value in expected.items():
            check(defines.get(key) == value, f"{where}: {key} = {defines.get(key)}, want {value}")
        if not variants.get("cli", True):
            check("HAMON_TEST_PYTHON" not in defines, f"{where}: HAMON_TEST_PYTHON without cli")
        if not variants.get("kernels", True):
            check("KokkosKernels_ROOT" not in defines,
                  f"{where}: KokkosKernels_ROOT without kernels")
        for key in defines:
            if key.startswith("HAMON_"):
                check(key in options, f"{where}: {key} is no option of the project's CMake")


def check_cmake_args_without_python(cls):
    """`spack -e ENV install --test=root` in an environment concretized without tests: the
    spec has no python node (Spack's spec["python"] raises KeyError). The recipe leaves
    HAMON_TEST_PYTHON to tests/cli's own search rather than fail."""
    for style in ("0.23", "1.x"):
        pkg = cls(root_spec({}, style, python=False))
        pkg.run_tests = True
        where = f"cmake_args(run_tests=True, Spack {style}, no python node)"
        try:
            defines = parse_defines(pkg.cmake_args())
        except Exception as error:  # the recipe's failure is what this check reports
            FAILURES.append(f"{where}: raises {type(error).__name__}: {error}")
            continue
        check(defines.get("BUILD_TESTING") == "ON", f"{where}: BUILD_TESTING is not ON")
        check("HAMON_TEST_PYTHON" not in defines,
              f"{where}: HAMON_TEST_PYTHON = {defines.get('HAMON_TEST_PYTHON')}")


DOWNSTREAM_OK = "hamon 0.1.0 downstream: Lambda = 0.412, round trips = 7 -> ok\n"


def run_downstream(cls, exit_status, output):
    cmake = FakeExecutable("cmake", lambda a, k: (0, ""))
    program = FakeExecutable("hamon_downstream", lambda a, k: (exit_status, output))
    WHICH.clear()
    WHICH.update({"cmake": cmake, "hamon_downstream": program})
    pkg = cls(root_spec({}))
    pkg.test_suite = types.SimpleNamespace(current_test_cache_dir="/tmp/cache")
    try:
        pkg.test_downstream()
        return cmake, None
    except (AssertionError, RuntimeError) as error:
        return cmake, error


def check_test_downstream(cls):
    cmake, error = run_downstream(cls, 0, DOWNSTREAM_OK)
    check(error is None, f"test_downstream fails on a good run: {error}")
    configure = cmake.calls[0][0] if cmake.calls else ()
    defines = parse_defines(a for a in configure if a.startswith("-D"))
    paths = defines.get("CMAKE_PREFIX_PATH", "").split(";")
    for prefix in ("/opt/hamon", "/opt/kokkos", "/opt/random123", "/opt/zlib-ng", "/opt/openmpi",
                   "/opt/kokkos-kernels"):
        check(prefix in paths, f"test_downstream: CMAKE_PREFIX_PATH lacks {prefix}: {paths}")
    check("/opt/cmake" not in paths, "test_downstream: a build-only dependency in the path")
    check(defines.get("CMAKE_CXX_COMPILER") == "/opt/kokkos/bin/nvcc_wrapper",
          "test_downstream does not compile with Kokkos's compiler")
    _, error = run_downstream(cls, 1, DOWNSTREAM_OK)
    check(error is not None, "test_downstream passes although the program exited 1")
    _, error = run_downstream(cls, 0, "Kokkos::OpenMP ok\n" + DOWNSTREAM_OK.replace("ok", "FAILED"))
    check(error is not None, "test_downstream passes on output without the result line")


DEVICES = """thresholds:
  device:
    value: 4096
    source: default
    origin: default
  host:
    value: 2048
    source: {source}
    origin: {origin}
calibration:
  file: {path}
  present: {present}
"""


def run_calibrate(cls, calibrate_status, writes, source, tmp):
    path = os.path.join(tmp, "calibration.yaml")
    if os.path.exists(path):
        os.remove(path)

    def behaviour(args, kwargs):
        if args[0] == "calibrate":
            if writes:
                with open(path, "w") as f:
                    f.write("host_threshold: 2048\n")
            return calibrate_status, "recommended host threshold: 2048\n"
        present = "true" if os.path.exists(path) else "false"
        origin = path if source == "calibration file" else "default"
        return 0, DEVICES.format(source=source, origin=origin, path=path, present=present)

    hamon = FakeExecutable("hamon", behaviour)
    WHICH.clear()
    WHICH["hamon"] = hamon
    pkg = cls(root_spec({}))
    cwd = os.getcwd()
    os.chdir(tmp)
    try:
        pkg.test_calibrate()
        return None
    except (AssertionError, RuntimeError) as error:
        return error
    finally:
        os.chdir(cwd)


def check_test_calibrate(cls):
    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        error = run_calibrate(cls, 0, True, "calibration file", tmp)
        check(error is None, f"test_calibrate fails on a good run: {error}")
        check(run_calibrate(cls, 1, True, "calibration file", tmp) is not None,
              "test_calibrate passes although hamon calibrate exited 1")
        check(run_calibrate(cls, 0, False, "default", tmp) is not None,
              "test_calibrate passes although no file was written")
        check(run_calibrate(cls, 0, True, "default", tmp) is not None,
              "test_calibrate passes although hamon devices ignored the file")
    pkg = cls(root_spec({"cli": False}))
    try:
        pkg.test_calibrate()
        FAILURES.append("test_calibrate runs without the CLI")
    except SkipTest:
        pass


def main():
    cls = load_recipe()
    check_directives(cls)
    check_cmake_args(cls)
    check_cmake_args_without_python(cls)
    check_test_downstream(cls)
    check_test_calibrate(cls)
    for failure in FAILURES:
        print(f"FAIL: {failure}")
    print(f"check_recipe: {len(FAILURES)} failure(s)")
    return 1 if FAILURES else 0


if __name__ == "__main__":
    sys.exit(main())
