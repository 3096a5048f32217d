// SPDX-License-Identifier: Apache-2.0
// tune_exploration (hamon/core/tuning/tuning.hpp).
#include <chrono>
#include <stdexcept>
#include <string>

#include "hamon/core/analysis/diagnostics.hpp"
#include "hamon/core/tempering/schedule.hpp"
#include "hamon/core/tuning/tuning.hpp"
#include "hamon/core/util/seeds.hpp"

namespace hamon {

ExplorationTuningResult tune_exploration(const NrptRunner& run, const std::vector<double>& betas,
                                         std::uint64_t seed,
                                         const ExplorationTuningOptions& options) {
  validate_ladder(betas);
  if (options.candidates.empty()) {
    throw std::invalid_argument("exploration tuning options: no candidates");
  }
  for (std::int32_t c : options.candidates) {
    if (c < 1) {
      throw std::invalid_argument("exploration tuning options: candidate n_expl " +
                                  std::to_string(c) + " is below 1");
    }
  }
  if (options.rounds < 4 || options.burn_in < 0) {
    throw std::invalid_argument("exploration tuning options: rounds must be >= 4, burn_in >= 0");
  }
  ExplorationTuningResult out;
  double best = -1.0;
  for (std::size_t k = 0; k < options.candidates.size(); ++k) {
    ExplorationProbe probe;
    probe.n_expl = options.candidates[k];
    NrptOptions o;
    o.betas = betas;
    o.n_rounds = options.rounds;
    o.burn_in = options.burn_in;
    o.n_expl = probe.n_expl;
    o.seed = derive_seed(seed, SeedStream::exploration, k);
    o.observers.energies = true;
    const auto start = std::chrono::steady_clock::now();
    const NrptResult result = run(o);
    probe.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (options.agree_seconds) probe.seconds = options.agree_seconds(probe.seconds);
    out.rounds_run += options.burn_in + options.rounds;
    const EffectiveSampleSize ess = effective_sample_size(energy_trace(result, betas.size() - 1));
    probe.ess = ess.defined ? ess.ess : 0.0;
    probe.cost = options.cost == ExplorationCost::wall_seconds
                     ? probe.seconds
                     : static_cast<double>((options.burn_in + options.rounds) * (probe.n_expl + 1));
    probe.ess_per_cost = probe.cost > 0.0 ? probe.ess / probe.cost : 0.0;
    if (probe.ess_per_cost > best || (probe.ess_per_cost == best && probe.n_expl < out.n_expl)) {
      best = probe.ess_per_cost;
      out.n_expl = probe.n_expl;
    }
    out.probes.push_back(probe);
  }
  return out;
}

}  // namespace hamon
