#include <limits>
#include <stdexcept>
#include <string>

#include "hamon/core/impl/counter_rng.hpp"
#include "hamon/core/nrpt.hpp"
#include "hamon/core/schedule.hpp"

namespace hamon {

namespace {

[[noreturn]] void reject(const std::string& what) {
  throw std::invalid_argument("NRPT options: " + what);
}

}  // namespace

std::vector<double> ladder_of(const NrptOptions& options) {
  if (!options.betas.empty()) return options.betas;
  return linear_ladder(options.beta_min, options.beta_max, options.n_chains);
}

void validate_options(const NrptOptions& options, std::int64_t n_nodes) {
  if (options.betas.empty()) {
    if (options.n_chains < 1) reject("n_chains must be >= 1, got " + std::to_string(options.n_chains));
    if (!(options.beta_max > options.beta_min) && options.n_chains > 1) {
      reject("beta_max (" + std::to_string(options.beta_max) + ") must be above beta_min (" +
             std::to_string(options.beta_min) + ")");
    }
  }
  try {
    validate_ladder(ladder_of(options));
  } catch (const std::invalid_argument& e) {
    reject(e.what());
  }
  if (options.n_rounds < 1) reject("n_rounds must be >= 1, got " + std::to_string(options.n_rounds));
  if (options.burn_in < 0) reject("burn_in must be >= 0, got " + std::to_string(options.burn_in));
  // Rounds are a 32-bit word of the random-number counter.
  const std::int64_t max_rounds = std::numeric_limits<std::uint32_t>::max();
  if (options.n_rounds > max_rounds - options.burn_in) {
    reject("burn_in + n_rounds must stay below 2^32, got " +
           std::to_string(options.burn_in) + " + " + std::to_string(options.n_rounds));
  }
  // Sweep numbers share the counter word with the reserved streams.
  if (options.n_expl < 1 || options.n_expl >= static_cast<std::int64_t>(detail::Stream::initial_state)) {
    reject("n_expl must be >= 1, got " + std::to_string(options.n_expl));
  }
  if (options.adapt_schedule && options.adapt_phases < 1) {
    reject("adapt_phases must be >= 1, got " + std::to_string(options.adapt_phases));
  }
  const ObserverOptions& obs = options.observers;
  if (obs.samples_every < 0) {
    reject("samples_every must be >= 0, got " + std::to_string(obs.samples_every));
  }
  for (std::size_t k = 0; k < obs.sample_nodes.size(); ++k) {
    const std::int64_t node = obs.sample_nodes[k];
    if (node < 0 || node >= n_nodes) {
      reject("sample_nodes[" + std::to_string(k) + "] = " + std::to_string(node) +
             " is out of range [0, " + std::to_string(n_nodes) + ")");
    }
  }
  if (obs.moments && obs.moment_batches < 2) {
    reject("moment_batches must be >= 2 for a batch-means error, got " +
           std::to_string(obs.moment_batches));
  }
}

}  // namespace hamon
