// SPDX-License-Identifier: Apache-2.0
#pragma once
// Everything a Sampler needs to continue exactly where it stopped, on the host, in a form
// that does not depend on the execution space, thread count or memory layout that produced
// it: spins machine-major (spins[m * n_nodes + i]), counters as 64-bit integers, the ladder
// and the energies by bit pattern. checkpoint.hpp writes it to a file; a Sampler built on
// any space from a SamplerState continues with the same bits as one that never stopped.

#include <cstdint>
#include <vector>

namespace hamon {

/// The moment accumulators of the cold chain (observers.hpp): batch b of `length` measured
/// rounds holds sums over its rounds; batches [0, n_batches) are complete and the batch
/// n_batches holds `in_batch` rounds so far. The rows are (n_batches + 1) x extent.
struct MomentBatchesState {
  std::int64_t length = 1;
  std::int64_t n_batches = 0;
  std::int64_t in_batch = 0;
  std::vector<std::int64_t> node_sums;  // rows x n_nodes
  std::vector<std::int64_t> edge_sums;  // rows x n_edges
  std::vector<double> energy_sums;      // rows
  std::vector<std::int64_t> abs_magnetization_sums;
  std::vector<std::int64_t> counts;
};

/// The traces a sampler without a sink keeps on the host (a sink's rows are the sink's).
struct TraceState {
  std::int64_t samples_rows = 0;  // rows handed out so far (to the sink or kept here)
  std::int64_t energy_rows = 0;
  std::int64_t index_rows = 0;
  std::vector<std::int8_t> samples;  // kept rows (empty with a sink)
  std::vector<double> energies;
  std::vector<std::int32_t> index_process;
};

struct SamplerState {
  std::int64_t rounds_done = 0;  // burn-in included
  std::int32_t n_machines = 0;
  std::int64_t n_nodes = 0;
  std::vector<double> betas;  // the current ladder
  std::vector<std::int8_t> spins;
  std::vector<std::int32_t> chain_of_machine;
  std::vector<std::int32_t> machine_of_chain;
  std::vector<std::int8_t> trip_phase;  // swap.hpp, TripPhase
  std::vector<std::int64_t> energy_fixed;
  std::vector<std::int64_t> attempted;
  std::vector<std::int64_t> accepted;
  std::vector<std::int64_t> round_trips;
  std::vector<std::int64_t> restarts;
  MomentBatchesState moments;  // empty rows when moments are off
  TraceState traces;
};

}  // namespace hamon
