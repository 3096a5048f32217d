// SPDX-License-Identifier: Apache-2.0
#pragma once
// What the binding files of the hamon_kokkos module share: NumPy conversions and the
// registration functions each file defines.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <cstdint>
#include <cstring>
#include <mutex>
#include <string>
#include <vector>

namespace hamon_python {

namespace py = pybind11;

/// A C-contiguous copy of `values` as a NumPy array of `shape` (the product must match).
template <class T>
py::array_t<T> to_numpy(const std::vector<T>& values, std::vector<py::ssize_t> shape) {
  py::array_t<T> out(shape);
  if (static_cast<std::size_t>(out.size()) != values.size()) {
    throw std::logic_error("hamon_kokkos: an array of " + std::to_string(values.size()) +
                           " values does not have the shape asked for");
  }
  if (!values.empty()) std::memcpy(out.mutable_data(), values.data(), values.size() * sizeof(T));
  return out;
}

template <class T>
py::array_t<T> to_numpy(const std::vector<T>& values) {
  return to_numpy(values, {static_cast<py::ssize_t>(values.size())});
}

/// `object` as a vector of T (any array-like NumPy converts; floats are not truncated to
/// integers silently: NumPy's same-kind casting refuses them). `what` names the argument.
template <class T>
std::vector<T> from_numpy(const py::handle& object, const char* what, int ndim = 1) {
  py::array array = py::array::ensure(object);
  if (!array) throw py::type_error(std::string(what) + ": expected an array-like of numbers");
  if (array.ndim() != ndim) {
    throw py::value_error(std::string(what) + ": expected a " + std::to_string(ndim) +
                          "-dimensional array, got " + std::to_string(array.ndim()) +
                          " dimensions");
  }
  const py::dtype want = py::dtype::of<T>();
  if (array.dtype().kind() == 'f' && want.kind() != 'f') {
    throw py::type_error(std::string(what) + ": expected integers, got floating-point values");
  }
  auto typed = py::array_t<T, py::array::c_style | py::array::forcecast>::ensure(array);
  if (!typed)
    throw py::type_error(std::string(what) + ": cannot convert to " +
                         want.attr("name").cast<std::string>());
  return std::vector<T>(typed.data(), typed.data() + typed.size());
}

void bind_runtime(py::module_& m);    // runtime.cpp: Kokkos, exceptions, devices
void bind_models(py::module_& m);     // models.cpp
void bind_sampler(py::module_& m);    // sampler.cpp
void bind_tuning(py::module_& m);     // tuning.cpp
void bind_run_files(py::module_& m);  // run_files.cpp: load_run

}  // namespace hamon_python

namespace hamon_python {

/// An object that holds Kokkos Views (a Sampler): it lets them go when the module
/// finalises Kokkos at exit, before Kokkos would refuse to free them.
class KokkosHolder {
 public:
  KokkosHolder();
  virtual ~KokkosHolder();
  KokkosHolder(const KokkosHolder&) = delete;
  KokkosHolder& operator=(const KokkosHolder&) = delete;
  virtual void release_views() = 0;
};

/// Throws RuntimeError when Kokkos is not running (finalised at exit, or by the host).
void require_kokkos();

/// The lock of engine_call.
std::mutex& engine_mutex();

/// Runs `f` (which touches no Python object) with the GIL released and the engine to
/// itself: Kokkos's default execution-space instances are not for concurrent use, so calls
/// from several Python threads take turns. The GIL goes first, so a running call's stop
/// check (which takes it back) never waits on a thread that waits for the engine.
template <class F>
decltype(auto) engine_call(F&& f) {
  py::gil_scoped_release release;
  std::lock_guard<std::mutex> lock(engine_mutex());
  return f();
}

}  // namespace hamon_python
