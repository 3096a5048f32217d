// SPDX-License-Identifier: Apache-2.0
// A run's result and diagnosis as Python dicts of NumPy arrays and numbers.
#include "results.hpp"

#include <pybind11/stl.h>

#include <hamon/core/analysis/health.hpp>
#include <hamon/core/analysis/log_partition.hpp>

namespace hamon_python {
namespace {

/// Rows of a row-major trace whose row count is `rows` (0 rows: 0 columns).
template <class T>
py::array_t<T> table(const std::vector<T>& values, std::int64_t rows) {
  const std::int64_t cols = rows > 0 ? static_cast<std::int64_t>(values.size()) / rows : 0;
  return to_numpy(values, {rows, cols});
}

py::dict moments_dict(const hamon::Moments& mo) {
  py::dict d;
  d["node_means"] = to_numpy(mo.node_means);
  d["node_means_stderr"] = to_numpy(mo.node_means_stderr);
  d["edge_means"] = to_numpy(mo.edge_means);
  d["edge_means_stderr"] = to_numpy(mo.edge_means_stderr);
  d["node_variances"] = to_numpy(mo.node_variances);
  d["energy_per_node"] = py::make_tuple(mo.energy_per_node.mean, mo.energy_per_node.standard_error);
  d["abs_magnetization_per_node"] = py::make_tuple(mo.abs_magnetization_per_node.mean,
                                                   mo.abs_magnetization_per_node.standard_error);
  return d;
}

}  // namespace

/// Spins and Potts states are stored as int8; Potts states are 0..q-1, read unsigned.
py::array discrete_array(py::array_t<std::int8_t> a, const hamon::SpinModel& model) {
  if (!model.is_potts()) return std::move(a);
  return a.view("uint8");
}

py::dict result_dict(const hamon::NrptResult& r, const hamon::SpinModel& model) {
  py::dict d;
  d["betas"] = to_numpy(r.betas);
  d["n_rounds"] = r.n_rounds;
  d["acceptance"] = to_numpy(r.swaps.acceptance);
  d["rejection"] = to_numpy(r.swaps.rejection);
  d["Lambda"] = r.swaps.Lambda;
  d["tau_predicted"] = r.swaps.tau_predicted;
  d["tau_observed"] = r.tau_observed;
  d["efficiency"] = r.efficiency;
  d["round_trips"] = to_numpy(r.round_trips);
  d["total_round_trips"] = r.total_round_trips;
  d["chain_of_machine"] = to_numpy(r.chain_of_machine);
  d["machine_of_chain"] = to_numpy(r.machine_of_chain);
  d["final_energies"] = to_numpy(r.final_energies);
  d["spin_updates"] = r.spin_updates;
  d["best_energy"] = r.best_energy;
  d["best_state"] = model.is_continuous() ? py::array(to_numpy(r.best_real_state))
                                          : discrete_array(to_numpy(r.best_state), model);
  d["best_round"] = r.best_round;
  d["best_chain"] = r.best_chain;
  d["best_beta"] = r.best_beta;
  d["best_energies"] = to_numpy(r.best_energies);
  d["sample_nodes"] = to_numpy(r.sample_nodes);
  d["samples"] = model.is_continuous() ? py::array(table(r.real_samples, r.n_samples))
                                       : discrete_array(table(r.samples, r.n_samples), model);
  // One row per measured round (energies: replica 0's chains; index process: every
  // machine, so its width grows with n_replicas).
  const auto trace_rows = [&](std::size_t size) { return size == 0 ? 0 : r.n_rounds; };
  d["energies"] = table(r.energies, trace_rows(r.energies.size()));
  d["index_process"] = table(r.index_process, trace_rows(r.index_process.size()));
  d["moments"] = moments_dict(r.moments);
  return d;
}

py::dict diagnosis_dict(const hamon::RunDiagnostics& diag) {
  py::dict d;
  py::list checks;
  for (const auto& c : diag.health.checks) {
    py::dict check;
    check["name"] = c.name;
    check["status"] = hamon::to_string(c.status);
    check["value"] = c.value;
    check["threshold"] = c.threshold;
    check["message"] = c.message;
    checks.append(check);
  }
  d["health"] = hamon::to_string(diag.health.overall);
  d["checks"] = checks;
  d["report"] = diag.health.describe();
  if (diag.log_z) {
    const auto& z = *diag.log_z;
    const auto& best = z.preferred == hamon::LogZMethod::stepping_stone
                           ? z.stepping_stone
                           : z.thermodynamic_integration;
    py::dict lz;
    lz["value"] = best.value;
    lz["error"] = best.error();
    lz["method"] = hamon::to_string(z.preferred);
    lz["trusted"] = best.trusted;
    lz["stepping_stone"] = py::make_tuple(z.stepping_stone.value, z.stepping_stone.error());
    lz["thermodynamic_integration"] =
        py::make_tuple(z.thermodynamic_integration.value, z.thermodynamic_integration.error());
    lz["warnings"] = z.warnings;
    d["log_z"] = lz;
  } else {
    d["log_z"] = py::none();
  }
  d["cold_energy_ess"] = diag.cold_energy_ess && diag.cold_energy_ess->defined
                             ? py::object(py::float_(diag.cold_energy_ess->ess))
                             : py::object(py::none());
  return d;
}

}  // namespace hamon_python
