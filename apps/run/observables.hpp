// SPDX-License-Identifier: Apache-2.0
#pragma once
// The observables a summary reports, from a result: cold chain, measured rounds only,
// standard errors from batch means (the engine's moments when output.moments is on; the
// energy trace otherwise, with the same batching).

#include <cstdint>
#include <optional>
#include <vector>

#include "hamon/core/model/spin_model.hpp"
#include "hamon/core/sampler/nrpt.hpp"
#include "hamon/core/stats/statistics.hpp"

namespace hamon::cli {

struct Observables {
  int potts = 0;  // q of a Potts model (node_means then hold P(x_i = s) at [i * q + s]); 0: Ising
  std::optional<MeanWithError> energy_per_node;             // null without moments or energies
  std::optional<MeanWithError> abs_magnetization_per_node;  // null without moments (Potts: the
                                                            // Potts order parameter)
  std::int64_t n_samples = 0;                     // cold-chain measurements the means average over
  std::optional<std::vector<double>> node_means;  // null without moments
  std::optional<std::vector<double>> node_means_stderr;
  /// Continuous models: Var(x_i) per node (null without moments); node_means are <x_i> and
  /// abs_magnetization_per_node |sum_i x_i| / N.
  bool continuous = false;
  std::optional<std::vector<double>> node_variances;
  std::optional<std::vector<double>> node_variances_stderr;
};

Observables observables_of(const NrptResult& result, const SpinModel& model, bool moments);

}  // namespace hamon::cli
