# Spack package for hamon: `spack repo add ./spack && spack install hamon+cuda cuda_arch=90`.

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

    variant("openmp", default=True, description="Enable the Kokkos OpenMP backend")
    variant("serial", default=True, description="Enable the Kokkos Serial backend")
    variant("shared", default=True, description="Build a shared library")
    variant("tests", default=False, description="Build the test suite")

    depends_on("cxx", type="build")
    depends_on("cmake@3.18:", type="build")

    depends_on("kokkos@3.4:5")
    depends_on("kokkos-kernels@3.4:5")
    depends_on("yaml-cpp@0.6:")
    depends_on("random123")
    depends_on("zlib-api")  # crc32 of checkpoint sections
    depends_on("cli11@2:")
    depends_on("googletest", type="test")
    depends_on("googletest", when="+tests")

    # Host backends are forwarded to Kokkos and Kokkos Kernels.
    for _backend in ("openmp", "serial"):
        depends_on(f"kokkos+{_backend}", when=f"+{_backend}")
        depends_on(f"kokkos-kernels+{_backend}", when=f"+{_backend}")

    # The GPU backend and its architecture likewise.
    depends_on("kokkos+cuda", when="+cuda")
    depends_on("kokkos-kernels+cuda", when="+cuda")
    for _arch in CudaPackage.cuda_arch_values:
        depends_on(f"kokkos cuda_arch={_arch}", when=f"+cuda cuda_arch={_arch}")
        depends_on(f"kokkos-kernels cuda_arch={_arch}", when=f"+cuda cuda_arch={_arch}")

    conflicts("+cuda", when="cuda_arch=none", msg="hamon+cuda needs a cuda_arch")
    # Device kernels are KOKKOS_LAMBDAs: Kokkos < 5 needs CUDA lambdas switched on.
    requires("^kokkos+cuda_lambda", when="+cuda ^kokkos@:4")

    def cmake_args(self):
        spec = self.spec
        args = [
            self.define("CMAKE_CXX_COMPILER", self["kokkos"].kokkos_cxx),
            self.define_from_variant("BUILD_SHARED_LIBS", "shared"),
            self.define("BUILD_TESTING", self.run_tests or spec.satisfies("+tests")),
            self.define("HAMON_ENABLE_PERF", False),
            self.define("HAMON_WARNINGS_AS_ERRORS", False),
        ]
        return args

    @run_after("install")
    def copy_test_sources(self):
        cache_extra_test_sources(self, ["tests/install/downstream"])

    def test_downstream(self):
        """Build and run the embedding example against the installed package."""
        source = join_path(self.test_suite.current_test_cache_dir, "tests", "install", "downstream")
        build_dir = "downstream-build"
        cmake = which(self.spec["cmake"].prefix.bin.cmake)
        cmake(
            f"-DCMAKE_PREFIX_PATH={self.prefix};{self.spec['kokkos'].prefix}",
            f"-DCMAKE_CXX_COMPILER={self['kokkos'].kokkos_cxx}",
            "-S",
            source,
            "-B",
            build_dir,
        )
        cmake("--build", build_dir)
        exe = which(join_path(build_dir, "hamon_downstream"))
        out = exe(output=str.split, error=str.split)
        assert "ok" in out
