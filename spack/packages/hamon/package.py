# SPDX-License-Identifier: Apache-2.0
# Spack package for hamon: `spack repo add ./spack && spack install hamon+cuda cuda_arch=90`.
#
# Works with Spack 0.23 and 1.x (minimum: 0.23). What differs between them, and how this
# recipe reads both:
#   - the C++ compiler Kokkos wants (nvcc_wrapper for +cuda+wrapper, the Spack compiler
#     otherwise): Spack 0.23's kokkos sets `spec["kokkos"].kokkos_cxx` in
#     setup_dependent_package; the 1.x one (spack-packages) has a `kokkos_cxx` property on
#     the package instead. `_kokkos_cxx` asks the spec first, then the package.
#   - `self["kokkos"]` (dependency packages by subscript) exists only in 1.x; this recipe
#     uses `self.spec[...]` throughout.
# Under Spack 1.x the file is still read through the `spack.package` compatibility
# imports (CMakePackage, CudaPackage), as other out-of-tree repositories are.
# tests/spack/check_recipe.py (CTest `spack.recipe`) checks this file against a stub of
# Spack's API: the variants' CMake options, the dependencies, the conflicts and the tests.
import os
import re

from spack.package import *


class Hamon(CMakePackage, CudaPackage):
    """Non-reversible parallel tempering and block Gibbs sampling of discrete
    energy-based models (Ising models, spin glasses, RBMs) on Kokkos, bit-identical
    across Serial, OpenMP and Cuda, with threshold-based device routing."""

    homepage = "https://github.com/hamon-project/hamon"
    git = "https://github.com/hamon-project/hamon.git"

    maintainers("hamon-project")
    license("Apache-2.0")

    version("main", branch="main")

    # The stand-alone tests build a CMake project against the installed package.
    test_requires_compiler = True

    # hamon compiles its kernels for exactly the backends its Kokkos has (CMake reads
    # Kokkos_ENABLE_<BACKEND>), so each backend variant pins Kokkos's both ways.
    variant("openmp", default=True, description="Kokkos OpenMP backend (required of Kokkos)")
    variant("serial", default=True, description="Kokkos Serial backend (required of Kokkos)")
    variant("shared", default=True, description="Build libhamon as a shared library")
    variant("cli", default=True, description="Build and install the `hamon` program")
    variant(
        "native",
        default=False,
        description="Tune hamon's own code for the build host's CPU (-march=native)",
    )
    variant("tests", default=False, description="Build the test suite (CTest)")
    variant(
        "mpi",
        default=True,
        description="One NRPT run across MPI ranks (hamon::MpiExchange, mpirun hamon run)",
    )
    variant(
        "kernels",
        default=True,
        description="Dense GEMMs of RBM training through Kokkos Kernels and its BLAS "
        "(off: a plain Kokkos kernel)",
    )

    depends_on("cxx", type="build")
    depends_on("cmake@3.18:", type="build")

    # The library's public dependencies are Kokkos and Random123, zlib, Highway (and +kernels
    # Kokkos Kernels) private ones.
    depends_on("kokkos@3.4:5")
    depends_on("random123")
    depends_on("zlib-api")  # crc32 of checkpoint sections
    # The host kernels' vector layer (one source, dispatched at run time among the CPU's
    # instruction sets), private. Not used by a +cuda build (nvcc), which runs the host
    # spaces' portable loops.
    depends_on("highway@1.0:", when="~cuda")
    # MPI-3 (MPI_Comm_split_type, MPI_INT64_T), public: hamon's MPI header includes mpi.h.
    depends_on("mpi@3:", when="+mpi")
    # Training's GEMMs (KokkosBlas::gemm), a private dependency of libhamon. Spack's
    # kokkos-kernels pins the Kokkos of its own version (kokkos-kernels@X.Y.Z needs
    # kokkos@X.Y.Z) and links the same kokkos node as hamon, so its range is Kokkos's. It
    # takes its backends from that Kokkos: its serial/openmp/cuda variants only add
    # `kokkos+<backend>` (hamon's backend variants already pin those), so none is set here.
    # Its BLAS TPL (kokkos-kernels+blas) makes a host GEMM the BLAS's: native Kokkos Kernels
    # GEMM is several times slower on host cores (perf/results/training/), and exact grid
    # arithmetic keeps the bits whatever the BLAS (docs/training.md).
    depends_on("kokkos-kernels@3.4:5+blas", when="+kernels")
    depends_on("blas", when="+kernels")
    # The command-line program's own.
    depends_on("yaml-cpp@0.6:", when="+cli")
    depends_on("cli11@2:", when="+cli")

    # Tests: GoogleTest, and for the CLI tests (tests/cli, Python scripts) python3 with
    # numpy and PyYAML. `spack install --test=root` brings the `test` ones; +tests builds
    # the suite for a later ctest, so it needs them at configure time.
    depends_on("googletest", type="test")
    depends_on("googletest", when="+tests")
    for _python_dep in ("python@3:", "py-numpy", "py-pyyaml"):
        depends_on(_python_dep, type="test", when="+cli")
        depends_on(_python_dep, type=("build", "run"), when="+cli+tests")

    for _backend in ("openmp", "serial", "cuda"):
        depends_on(f"kokkos+{_backend}", when=f"+{_backend}")
        depends_on(f"kokkos~{_backend}", when=f"~{_backend}")
    requires("+serial", "+openmp", policy="any_of", msg="hamon needs a host backend")

    for _arch in CudaPackage.cuda_arch_values:
        depends_on(f"kokkos cuda_arch={_arch}", when=f"+cuda cuda_arch={_arch}")
    conflicts("+cuda", when="cuda_arch=none", msg="hamon+cuda needs a cuda_arch")
    # Device kernels are KOKKOS_LAMBDAs: Kokkos < 5 needs CUDA lambdas switched on.
    requires("^kokkos+cuda_lambda", when="+cuda ^kokkos@:4")

    # Combinations that cannot link.
    conflicts(
        "+shared",
        when="^kokkos~shared~pic",
        msg="a shared libhamon cannot link a static Kokkos built without -fPIC: "
        "use hamon~shared, or kokkos+shared / kokkos+pic",
    )
    conflicts(
        "+shared",
        when="+kernels ^kokkos-kernels~shared ^kokkos~pic",
        msg="a shared libhamon cannot link a static Kokkos Kernels built without -fPIC "
        "(kokkos-kernels takes -fPIC from kokkos+pic): use hamon~shared, hamon~kernels, "
        "or kokkos-kernels+shared / kokkos+pic",
    )
    conflicts(
        "+shared",
        when="^kokkos+cuda_relocatable_device_code",
        msg="CUDA relocatable device code is linked statically: use hamon~shared",
    )

    def _kokkos_cxx(self):
        """The compiler Kokkos requires (see the top of this file)."""
        kokkos = self.spec["kokkos"]
        cxx = getattr(kokkos, "kokkos_cxx", None)  # Spack 0.23
        if cxx is None:
            cxx = kokkos.package.kokkos_cxx  # Spack 1.x
        return cxx

    def cmake_args(self):
        spec = self.spec
        tests = self.run_tests or spec.satisfies("+tests")
        args = [
            self.define("CMAKE_CXX_COMPILER", self._kokkos_cxx()),
            self.define("Kokkos_ROOT", spec["kokkos"].prefix),
            self.define_from_variant("BUILD_SHARED_LIBS", "shared"),
            self.define_from_variant("HAMON_ENABLE_APPS", "cli"),
            self.define_from_variant("HAMON_ENABLE_NATIVE", "native"),
            self.define_from_variant("HAMON_ENABLE_MPI", "mpi"),
            self.define_from_variant("HAMON_ENABLE_KOKKOS_KERNELS", "kernels"),
            self.define("BUILD_TESTING", tests),
            self.define("HAMON_ENABLE_PERF", False),
            self.define("HAMON_WARNINGS_AS_ERRORS", False),
            # The Python module is not part of this package (it would find whatever Python
            # and pybind11 the build machine has, and make the libraries position-independent).
            self.define("HAMON_PYTHON", False),
        ]
        if spec.satisfies("+kernels"):
            # hamon's CMake looks for Kokkos Kernels QUIET and falls back on the plain
            # kernel where it finds none: name Spack's rather than rely on the search path.
            args.append(self.define("KokkosKernels_ROOT", spec["kokkos-kernels"].prefix))
        if tests and spec.satisfies("+cli") and self._has_dependency("python"):
            # The python3 that has numpy and PyYAML; tests/cli stops the configuration
            # when it has none rather than dropping the CLI tests. A spec concretized
            # without tests (`spack -e ENV install --test=root` in an environment
            # concretized without --test) has no python node: tests/cli then takes the
            # python3 on PATH or the system one that has numpy and PyYAML, and says what to
            # do when neither has.
            args.append(self.define("HAMON_TEST_PYTHON", spec["python"].command.path))
        return args

    def _has_dependency(self, name):
        """Whether the spec has a node `name` (spec[name] raises KeyError where not)."""
        try:
            self.spec[name]
        except KeyError:
            return False
        return True

    @run_after("install")
    def copy_test_sources(self):
        cache_extra_test_sources(self, [join_path("tests", "install", "downstream")])

    def _prefix_path(self):
        """hamon's prefix and those of every link and run dependency, as CMake wants them:
        the installed hamonConfig.cmake finds Kokkos, Random123, zlib, (+mpi) MPI and
        (a static libhamon +kernels) Kokkos Kernels through them."""
        prefixes = [str(dep.prefix) for dep in self.spec.traverse(deptype=("link", "run"))]
        return ";".join(prefixes)

    def test_downstream(self):
        """Build and run the embedding example against the installed package."""
        source = join_path(
            self.test_suite.current_test_cache_dir, "tests", "install", "downstream"
        )
        build_dir = join_path(os.getcwd(), "downstream-build")
        cmake = which(self.spec["cmake"].prefix.bin.cmake)
        cmake(
            self.define("CMAKE_PREFIX_PATH", self._prefix_path()),
            self.define("CMAKE_CXX_COMPILER", self._kokkos_cxx()),
            "-S",
            source,
            "-B",
            build_dir,
        )
        cmake("--build", build_dir)
        exe = which(join_path(build_dir, "hamon_downstream"))
        out = exe(output=str, error=str, fail_on_error=False)
        assert exe.returncode == 0, f"hamon_downstream exited {exe.returncode}:\n{out}"
        line = r"^hamon \S+ downstream: Lambda = [0-9.]+, round trips = [0-9]+ -> ok$"
        assert re.search(line, out, re.MULTILINE), f"unexpected output:\n{out}"

    def test_calibrate(self):
        """`hamon calibrate --quick` writes a calibration file `hamon devices` reads."""
        if not self.spec.satisfies("+cli"):
            raise SkipTest("built without the command-line program (~cli)")
        hamon = which(self.prefix.bin.hamon)
        path = join_path(os.getcwd(), "calibration.yaml")
        env = {"OMP_PROC_BIND": "false", "HAMON_CALIBRATION": path}
        out = hamon("calibrate", "--quick", "--output", path, output=str, error=str,
                    fail_on_error=False, extra_env=env)
        assert hamon.returncode == 0, f"hamon calibrate exited {hamon.returncode}:\n{out}"
        assert os.path.isfile(path), f"hamon calibrate wrote no {path}:\n{out}"
        out = hamon("devices", output=str, error=str, fail_on_error=False, extra_env=env)
        assert hamon.returncode == 0, f"hamon devices exited {hamon.returncode}:\n{out}"
        assert re.search(r"^\s*present: true$", out, re.MULTILINE), out
        if self.spec.satisfies("+serial+openmp"):
            # Both host backends: calibrate measured the host threshold, devices reads it.
            host = re.search(r"^\s*host:\s*\n(\s+\w+: .*\n)*?\s*source: (.*)$", out, re.M)
            assert host and host.group(2) == "calibration file", out
