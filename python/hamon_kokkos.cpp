// SPDX-License-Identifier: Apache-2.0
// The Python module hamon_kokkos: hamon's public C++ API (hamon/hamon.hpp) for Python
// with NumPy. docs/python.md is its guide; hamon_kokkos.pyi its signatures.
#include <hamon/version.hpp>

#include "bindings.hpp"

PYBIND11_MODULE(hamon_kokkos, m) {
  m.doc() =
      "hamon (C++/Kokkos NRPT sampling) from Python: models from NumPy arrays, "
      "a resumable Sampler, checkpoints as bytes, tuning, run directories";
  m.attr("__version__") = hamon::version;
  hamon_python::bind_runtime(m);
  hamon_python::bind_models(m);
  hamon_python::bind_sampler(m);
  hamon_python::bind_tuning(m);
  hamon_python::bind_run_files(m);
}
