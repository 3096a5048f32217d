// SPDX-License-Identifier: Apache-2.0
#pragma once
// Magnetisation statistics per temperature (docs/magnetization.md), from the sampler's
// magnetisation batches (MagnetizationBatchesState): with M the unnormalised magnetisation
// of a machine (spins: sum_i s_i; Potts: q max_s n_s - N) and m = M / (N (q - 1)) (q = 2
// for spins: m = M / N), over the measured rounds and replicas at each chain:
//   <m>, <|m|>, <m^2>, <m^4>  means, errors by batch means
//   binder = 1 - <m^4> / (3 <m^2>^2)            (U4)
//   chi    = beta N (<m^2> - <|m|>^2)           (the finite-lattice susceptibility)
//   chi_m2 = beta N <m^2>                       (the zero-field form, exact where <m> = 0)
// binder and chi: errors by jackknife over the complete batches with the batch-means
// correction (moments.hpp: batch_jackknife); chi_m2 by batch means.

#include <cstdint>
#include <vector>

#include "hamon/core/state/sampler_state.hpp"

namespace hamon {

/// What the statistics need of the model and run besides the batches.
struct MagnetizationShape {
  std::int32_t n_chains = 0;
  std::int64_t n_nodes = 0;
  std::int32_t n_states = 2;  // q of a Potts model; 2 for spins
  std::int32_t replicas = 1;  // machines per chain and round
};

struct MagnetizationStatistics {
  std::vector<double> betas;  // ladder order, chain 0 first
  std::int64_t n_rounds = 0;  // measured rounds accumulated
  std::int32_t replicas = 0;
  std::vector<double> m, m_stderr, abs_m, abs_m_stderr, m2, m2_stderr, m4, m4_stderr;
  std::vector<double> binder, binder_stderr, chi, chi_stderr, chi_m2, chi_m2_stderr;
  bool empty() const { return m.empty(); }
};

/// Throws std::invalid_argument when the batches do not have the shape's size.
MagnetizationStatistics magnetization_statistics(const MagnetizationBatchesState& batches,
                                                 const MagnetizationShape& shape,
                                                 const std::vector<double>& betas);

}  // namespace hamon
