// SPDX-License-Identifier: Apache-2.0
#pragma once
// What a run records besides its swap statistics (NrptOptions::observers): in the state area
// because the moment buffers and the trace sizes are allocated from it, below the sampler
// that fills them.

#include <cstdint>
#include <vector>

namespace hamon {

/// What to record beyond the swap statistics (all of it about measured rounds, i.e.
/// after burn-in, and about the coldest chain unless said otherwise).
struct ObserverOptions {
  /// Record the cold chain's spins every `samples_every` measured rounds (0 = never) ...
  std::int64_t samples_every = 0;
  /// ... at these nodes (empty = every node).
  std::vector<std::int64_t> sample_nodes;
  /// Record every chain's energy (indexed by temperature) every measured round.
  bool energies = false;
  /// Record the index process: every machine's chain (temperature index) every measured
  /// round.
  bool index_process = false;
  /// Running moments of the cold chain: <s_i>, <s_i s_j> on edges, energy and
  /// |magnetisation| per node, with standard errors from batch means.
  bool moments = false;
  /// With moments: also <s_i s_j> on every edge (the largest part of the accumulators, and
  /// of a checkpoint, on graphs with many edges).
  bool edge_moments = true;
  /// The magnetisation per temperature of spin and Potts models: <m>, <|m|>, <m^2>, <m^4>,
  /// the Binder cumulant and the susceptibility at every chain, over every replica
  /// (docs/magnetization.md). In one process only (over ranks it stays off). Off by
  /// default: its extra pass over every machine each measured round is asked for.
  bool magnetization = false;
  /// K: between K and 2K equal batches are kept (batch length doubles as the run grows,
  /// so the batches depend on the measured rounds alone, never on how the run was split).
  std::int32_t moment_batches = 32;
};

}  // namespace hamon
