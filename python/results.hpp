// SPDX-License-Identifier: Apache-2.0
#pragma once
// A run's result and diagnosis as Python dicts (results.cpp), and the view of one-byte
// variables that Potts states take.
#include <hamon/core/analysis/diagnostics.hpp>
#include <hamon/core/model/spin_model.hpp>
#include <hamon/core/sampler/nrpt.hpp>

#include "bindings.hpp"

namespace hamon_python {

/// Spins as int8; a Potts model's states (0..q-1) as uint8, the same bytes.
py::array discrete_array(py::array_t<std::int8_t> a, const hamon::SpinModel& model);

/// Every field of `result` a Python user reads: ladder, swaps, round trips, best states,
/// traces (samples, energies, index process) and moments.
py::dict result_dict(const hamon::NrptResult& result, const hamon::SpinModel& model);

/// The health report, log Z (preferred estimate and both methods) and the cold chain's ESS.
py::dict diagnosis_dict(const hamon::RunDiagnostics& diagnostics);

}  // namespace hamon_python
