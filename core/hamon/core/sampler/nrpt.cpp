// SPDX-License-Identifier: Apache-2.0
#include "hamon/core/sampler/nrpt.hpp"

#include <cmath>
#include <cstdio>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#include "hamon/core/tempering/schedule.hpp"
#include "hamon/core/util/counter_rng.hpp"
#include "hamon/core/util/memory_limit.hpp"

namespace hamon {

namespace {

[[noreturn]] void reject(const std::string& what) {
  throw std::invalid_argument("NRPT options: " + what);
}

// The memory a run holds that grows with its size, counted in doubles (no overflow):
// the variables of every machine (`value_bytes` each: a spin's byte, a continuous model's
// double), and every recorded trace twice (the sampler keeps it on the host and the result
// copies it; a run that streams its traces to files, as the CLI does, holds only chunks
// while sampling but reads the energies back for its diagnostics). Refused before anything
// is allocated when it exceeds the memory limit (memory_limit.hpp).
void check_memory(const NrptOptions& options, std::int64_t n_nodes, std::size_t n_chains,
                  std::size_t value_bytes) {
  const ObserverOptions& obs = options.observers;
  const double chains = static_cast<double>(n_chains);
  const double rounds = static_cast<double>(options.n_rounds);
  const double value = static_cast<double>(value_bytes);
  const std::string per_value = " x " + std::to_string(value_bytes) + " B";
  struct Part {
    std::string what;
    double bytes;
  };
  std::vector<Part> parts = {
      {"variables (replicas x chains x nodes" + per_value + ")",
       static_cast<double>(options.n_replicas) * chains * static_cast<double>(n_nodes) * value}};
  if (obs.energies)
    parts.push_back({"energies (rounds x chains x 8 B, twice)", 16.0 * rounds * chains});
  if (obs.index_process) {
    parts.push_back({"index process (rounds x chains x 4 B, twice)", 8.0 * rounds * chains});
  }
  if (obs.samples_every > 0) {
    const double width = static_cast<double>(
        obs.sample_nodes.empty() ? n_nodes : static_cast<std::int64_t>(obs.sample_nodes.size()));
    parts.push_back(
        {"samples (rounds / samples_every x nodes" + per_value + ", twice)",
         2.0 * std::floor(rounds / static_cast<double>(obs.samples_every)) * width * value});
  }
  if (obs.moments) {
    parts.push_back(
        {"moments (2 x moment_batches x nodes x 8 B)",
         16.0 * static_cast<double>(obs.moment_batches) * static_cast<double>(n_nodes)});
  }
  double total = 0.0;
  for (const Part& p : parts) total += p.bytes;
  std::string detail;
  for (const Part& p : parts) {
    if (p.bytes >= 0.01 * total) {
      detail += std::string(detail.empty() ? "" : ", ") + p.what + " " + gib_text(p.bytes);
    }
  }
  require_memory(total, "NRPT options: the run", detail,
                 "record less (energies, index_process, samples_every) or run fewer rounds or "
                 "chains");
}

}  // namespace

std::vector<double> ladder_of(const NrptOptions& options) {
  if (!options.betas.empty()) return options.betas;
  return linear_ladder(options.beta_min, options.beta_max, options.n_chains);
}

void validate_options(const NrptOptions& options, std::int64_t n_nodes, std::size_t value_bytes) {
  if (options.betas.empty()) {
    if (options.n_chains < 1)
      reject("n_chains must be >= 1, got " + std::to_string(options.n_chains));
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
  if (options.n_rounds < 1)
    reject("n_rounds must be >= 1, got " + std::to_string(options.n_rounds));
  if (options.burn_in < 0) reject("burn_in must be >= 0, got " + std::to_string(options.burn_in));
  // Rounds are a 32-bit word of the random-number counter.
  const std::int64_t max_rounds = std::numeric_limits<std::uint32_t>::max();
  if (options.n_rounds > max_rounds - options.burn_in) {
    reject("burn_in + n_rounds must stay below 2^32, got " + std::to_string(options.burn_in) +
           " + " + std::to_string(options.n_rounds));
  }
  // Sweep numbers share the counter word with the Potts and tie domains (counter_rng.hpp).
  if (options.n_expl < 1 ||
      options.n_expl > static_cast<std::int64_t>(detail::kMaxSweepsPerRound)) {
    reject("n_expl must be in [1, 2^29], got " + std::to_string(options.n_expl));
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
  const std::size_t n_chains = ladder_of(options).size();
  // Machine indices are 32-bit words of the state and of the random-number counter.
  if (options.n_replicas < 1 ||
      static_cast<double>(options.n_replicas) * static_cast<double>(n_chains) > (1 << 30)) {
    reject("n_replicas must be >= 1 with n_replicas x chains below 2^30, got " +
           std::to_string(options.n_replicas));
  }
  if (options.cluster_moves == ClusterMoves::houdayer &&
      (options.n_replicas < 2 || options.n_replicas % 2 != 0)) {
    reject(
        "cluster_moves houdayer pairs replicas (0, 1), (2, 3), ...: n_replicas must be even, "
        "got " +
        std::to_string(options.n_replicas));
  }
  if (value_bytes < 1) reject("value_bytes must be >= 1, got 0");
  check_memory(options, n_nodes, n_chains, value_bytes);
}

const char* to_string(AnnealingReference reference) {
  switch (reference) {
    case AnnealingReference::none:
      return "none";
    case AnnealingReference::independent:
      return "independent";
    case AnnealingReference::automatic:
      break;
  }
  return "automatic";
}

bool anneals(const NrptOptions& options, AnnealingSupport support, const std::string& model) {
  switch (support) {
    case AnnealingSupport::refused:
      if (options.reference == AnnealingReference::independent) {
        throw std::invalid_argument(
            "NRPT options: reference independent anneals from independent spins in an Ising "
            "model's fields or a continuous model's node terms; a " +
            model + " model's ladder starts at beta = 0 (uniform states): use reference none");
      }
      return false;
    case AnnealingSupport::optional:
      return options.reference == AnnealingReference::independent;
    case AnnealingSupport::required:
      break;
  }
  if (options.reference != AnnealingReference::none) return true;
  const std::vector<double> betas = ladder_of(options);
  if (!betas.empty() && !(betas.front() > 0.0)) {
    throw std::invalid_argument(
        "NRPT options: reference none on a " + model +
        " model samples exp(-beta E), which does not normalise at beta = 0: start the ladder "
        "above 0 (beta_min) or anneal from the reference (reference independent)");
  }
  return false;
}

}  // namespace hamon
