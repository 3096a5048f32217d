// SPDX-License-Identifier: Apache-2.0
// Kokkos's lifetime in the interpreter, hamon's exceptions as Python exceptions, and where
// calls run (resolve_device, thresholds).
#include <pybind11/stl.h>

#include <Kokkos_Core.hpp>
#include <cstdlib>
#include <hamon/core/model/spin_model.hpp>
#include <hamon/core/sampler/checkpoint.hpp>
#include <hamon/policies/backends.hpp>
#include <hamon/policies/dispatch.hpp>
#include <hamon/policies/resolve_device.hpp>
#include <hamon/policies/thresholds.hpp>
#include <optional>
#include <set>
#include <vector>

#include "bindings.hpp"

namespace hamon_python {
namespace {

// Whether this module initialised Kokkos (then it finalises it at exit); an embedding
// host that initialised it first keeps it.
bool kokkos_ours = false;
std::set<KokkosHolder*>& holders() {
  static std::set<KokkosHolder*> all;
  return all;
}

void start_kokkos() {
  if (Kokkos::is_initialized()) return;
  // Kokkos reads its settings (KOKKOS_NUM_THREADS, OMP_NUM_THREADS, ...) from the
  // environment; argv carries none of Python's own arguments. Its advice ("OMP_PROC_BIND
  // not set") is no error: quiet, as the hamon program is, unless KOKKOS_DISABLE_WARNINGS
  // decides (Kokkos rejects the flag when that variable is set too).
  char name[] = "hamon_kokkos";
  char quiet[] = "--kokkos-disable-warnings";
  std::vector<char*> argv = {name};
  if (std::getenv("KOKKOS_DISABLE_WARNINGS") == nullptr) argv.push_back(quiet);
  int argc = static_cast<int>(argv.size());
  argv.push_back(nullptr);
  Kokkos::initialize(argc, argv.data());
  kokkos_ours = true;
}

void finish_kokkos() {
  // Views must go before Kokkos::finalize: the samplers still alive let theirs go (their
  // later calls raise).
  for (KokkosHolder* holder : holders()) holder->release_views();
  if (kokkos_ours && Kokkos::is_initialized()) Kokkos::finalize();
  kokkos_ours = false;
}

py::dict decision_dict(const hamon::DeviceDecision& d) {
  py::dict out;
  out["spec"] = hamon::to_string(d.spec);
  out["placement"] = hamon::to_string(d.placement);
  out["reason"] = hamon::to_string(d.reason);
  out["score"] = d.score ? py::object(py::int_(*d.score)) : py::object(py::none());
  out["threshold"] = d.threshold ? py::object(py::float_(d.threshold->value)) : py::none();
  out["execution_space"] = hamon::execution_space_of(d);
  out["description"] = d.describe();
  return out;
}

py::dict threshold_dict(const hamon::Threshold& t) {
  py::dict out;
  out["value"] = t.value;
  out["source"] = hamon::to_string(t.source);
  out["origin"] = t.origin;
  return out;
}

}  // namespace

KokkosHolder::KokkosHolder() {
  holders().insert(this);
}
KokkosHolder::~KokkosHolder() {
  holders().erase(this);
}

std::mutex& engine_mutex() {
  static std::mutex lock;
  return lock;
}

void require_kokkos() {
  if (!Kokkos::is_initialized()) {
    throw std::runtime_error(
        "hamon_kokkos: Kokkos is not running (finalised at exit or by the host)");
  }
}

void bind_runtime(py::module_& m) {
  start_kokkos();
  py::module_::import("atexit").attr("register")(py::cpp_function(&finish_kokkos));

  // Most specific first is not needed: pybind11 tries the newest registration first.
  py::register_exception<hamon::ModelError>(m, "ModelError", PyExc_ValueError);
  py::register_exception<hamon::CheckpointError>(m, "CheckpointError", PyExc_RuntimeError);
  py::register_exception<hamon::DeviceUnavailable>(m, "DeviceUnavailable", PyExc_RuntimeError);

  m.def(
      "kokkos_initialized_here", [] { return kokkos_ours; },
      "Whether this module initialised Kokkos (and so finalises it at exit).");
  m.def(
      "execution_spaces",
      [] {
        std::vector<std::string> names;
        for (const hamon::Backend& b : hamon::kKnownBackends) {
          if (b.compiled_in) names.push_back(b.name);
        }
        return names;
      },
      "The Kokkos backends this build was compiled for.");
  m.def(
      "work_score", [](std::int64_t n_chains, std::int64_t n_nodes) { return n_chains * n_nodes; },
      py::arg("n_chains"), py::arg("n_nodes"),
      "The work score a call is routed by: chains x free nodes.");
  m.def(
      "resolve_device",
      [](const std::string& device, std::optional<std::int64_t> score,
         std::optional<double> threshold, std::optional<double> host_threshold) {
        return decision_dict(hamon::resolve_device(hamon::parse_device_spec(device), score,
                                                   threshold, host_threshold));
      },
      py::arg("device") = "auto", py::kw_only(), py::arg("score") = py::none(),
      py::arg("threshold") = py::none(), py::arg("host_threshold") = py::none(),
      "Where a call of this work score runs: a dict with the placement, the reason, the "
      "Kokkos execution space and a one-line description (docs/routing.md).");
  m.def(
      "device_threshold",
      [](std::optional<double> value) { return threshold_dict(hamon::device_threshold(value)); },
      py::arg("threshold") = py::none(), "The device threshold in force and where it comes from.");
  m.def(
      "host_threshold",
      [](std::optional<double> value) { return threshold_dict(hamon::host_threshold(value)); },
      py::arg("threshold") = py::none(), "The host threshold in force and where it comes from.");
}

}  // namespace hamon_python
