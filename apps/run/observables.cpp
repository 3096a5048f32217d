// SPDX-License-Identifier: Apache-2.0
#include "run/observables.hpp"

#include <algorithm>
#include <limits>

namespace hamon::cli {

namespace {

constexpr std::int64_t kBatches = 32;  // as ObserverOptions::moment_batches

/// Energy per node of the cold chain from the energy trace (rounds x chains).
MeanWithError energy_from_trace(const NrptResult& result, std::int64_t n_nodes) {
  const auto n_chains = static_cast<std::int64_t>(result.betas.size());
  const std::int64_t rounds = result.n_rounds;
  const std::int64_t batches = std::min(kBatches, rounds);
  std::vector<double> sums(static_cast<std::size_t>(batches), 0.0);
  std::vector<std::int64_t> counts(static_cast<std::size_t>(batches), 0);
  for (std::int64_t r = 0; r < rounds; ++r) {
    const auto b = static_cast<std::size_t>(r * batches / rounds);
    sums[b] += result.energies[static_cast<std::size_t>(r * n_chains + n_chains - 1)] /
               static_cast<double>(n_nodes);
    counts[b] += 1;
  }
  return batch_means(sums, counts);
}

}  // namespace

Observables observables_of(const NrptResult& result, const SpinModel& model, bool moments) {
  Observables obs;
  if (model.is_potts()) obs.potts = model.n_states();
  obs.continuous = model.is_continuous();
  if (moments) {
    if (obs.continuous) {
      obs.node_variances = result.moments.node_variances;
      obs.node_variances_stderr = result.moments.node_variances_stderr;
    }
    obs.energy_per_node = result.moments.energy_per_node;
    obs.abs_magnetization_per_node = result.moments.abs_magnetization_per_node;
    obs.n_samples = result.moments.n_samples;
    obs.node_means = result.moments.node_means;
    obs.node_means_stderr = result.moments.node_means_stderr;
    // An error of 0 on a free variable means it never changed, not that its mean is exact:
    // reported as unknown (.nan), and the error_bars health check fails (diagnostics.hpp).
    const auto& clamped = model.clamped();
    auto& errors = *obs.node_means_stderr;
    if (!clamped.empty() && errors.size() % clamped.size() == 0) {
      const std::size_t columns = errors.size() / clamped.size();
      for (std::size_t k = 0; k < errors.size(); ++k) {
        if (clamped[k / columns] == 0 && errors[k] == 0.0) {
          errors[k] = std::numeric_limits<double>::quiet_NaN();
        }
      }
    }
  } else if (!result.energies.empty() && !result.annealed) {
    // (On an annealing path the trace holds E - E_ref: the energy needs the moments.)
    obs.energy_per_node = energy_from_trace(result, model.n_nodes());
    obs.n_samples = result.n_rounds;
  }
  return obs;
}

}  // namespace hamon::cli
