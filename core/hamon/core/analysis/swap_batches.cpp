// SPDX-License-Identifier: Apache-2.0
#include "hamon/core/analysis/swap_batches.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>
#include <utility>

namespace hamon {

void accumulate(SwapCounts& a, const SwapCounts& b) {
  if (a.attempted.empty()) {
    a.attempted.assign(b.attempted.size(), 0);
    a.accepted.assign(b.accepted.size(), 0);
  }
  if (a.attempted.size() != b.attempted.size()) {
    throw std::invalid_argument("accumulate: swap counters of different ladders");
  }
  for (std::size_t i = 0; i < a.attempted.size(); ++i) {
    a.attempted[i] += b.attempted[i];
    a.accepted[i] += b.accepted[i];
  }
  a.rounds += b.rounds;
}

std::vector<SwapCounts> swap_counts_by_batch(const NrptResult& result, std::int64_t burn_in,
                                             std::int64_t batch_rounds) {
  if (batch_rounds < 1) {
    throw std::invalid_argument("swap_counts_by_batch: batch_rounds must be >= 1, got " +
                                std::to_string(batch_rounds));
  }
  const auto n_chains = static_cast<std::int64_t>(result.betas.size());
  const std::int64_t n_rounds = result.n_rounds;
  if (n_chains < 1 ||
      static_cast<std::int64_t>(result.index_process.size()) != n_rounds * n_chains) {
    throw std::invalid_argument(
        "swap_counts_by_batch: the run did not record its index process "
        "(ObserverOptions::index_process)");
  }
  const std::int64_t n_pairs = n_chains - 1;
  const auto machines = static_cast<std::int64_t>(result.machine_of_chain.size());
  const std::int64_t n_replicas = machines > n_chains ? machines / n_chains : 1;
  const std::int64_t n_batches = (n_rounds + batch_rounds - 1) / batch_rounds;
  std::vector<SwapCounts> batches(static_cast<std::size_t>(n_batches));
  for (std::int64_t b = 0; b < n_batches; ++b) {
    auto& batch = batches[static_cast<std::size_t>(b)];
    batch.attempted.assign(static_cast<std::size_t>(n_pairs), 0);
    batch.accepted.assign(static_cast<std::size_t>(n_pairs), 0);
    batch.rounds = std::min(batch_rounds, n_rounds - b * batch_rounds);
  }
  if (n_pairs == 0) return batches;

  std::vector<std::int32_t> before(static_cast<std::size_t>(n_chains));
  std::vector<std::int32_t> after(static_cast<std::size_t>(n_chains));
  auto machine_of_chain = [&](std::int64_t k, std::vector<std::int32_t>& out) {
    for (std::int64_t m = 0; m < n_chains; ++m) {
      const std::int32_t chain = result.index_process[static_cast<std::size_t>(k * n_chains + m)];
      out[static_cast<std::size_t>(chain)] = static_cast<std::int32_t>(m);
    }
  };
  std::vector<std::int64_t> accepted_after_first(static_cast<std::size_t>(n_pairs), 0);
  for (std::int64_t k = 0; k < n_rounds; ++k) {
    auto& batch = batches[static_cast<std::size_t>(k / batch_rounds)];
    const std::int64_t parity = (burn_in + k) % 2;
    machine_of_chain(k, after);
    for (std::int64_t i = parity; i < n_pairs && (k > 0 || n_replicas == 1); i += 2) {
      const auto p = static_cast<std::size_t>(i);
      ++batch.attempted[p];
      if (k > 0 && after[p] == before[p + 1]) {
        ++batch.accepted[p];
        ++accepted_after_first[p];
      }
    }
    std::swap(before, after);
  }
  // The counters pool every replica: replica 0's first round cannot be read from them.
  if (n_replicas > 1) return batches;
  if (result.swaps.accepted.size() != static_cast<std::size_t>(n_pairs)) {
    throw std::invalid_argument(
        "swap_counts_by_batch: the run's swap counters do not match its ladder");
  }
  for (std::size_t p = 0; p < static_cast<std::size_t>(n_pairs); ++p) {
    const std::int64_t first = result.swaps.accepted[p] - accepted_after_first[p];
    if (first < 0 || first > 1) {
      throw std::logic_error(
          "swap_counts_by_batch: the index process and the swap counters "
          "disagree");
    }
    batches[0].accepted[p] += first;
  }
  return batches;
}

}  // namespace hamon
