// SPDX-License-Identifier: Apache-2.0
#pragma once
// Copies from a saved SamplerState into a part's views, each checked against the view's
// shape first: a state that does not fit is refused with std::invalid_argument naming
// the field, before it can be half-restored into a kernel's memory. The values the kernels
// index with or decide from are checked too (the permutations, the trip phases, the
// variables): a checkpoint's CRCs say only that its bytes are the ones written, and a
// state can come from elsewhere than a checkpoint.

#include <Kokkos_Core.hpp>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "hamon/core/state/best_records.hpp"
#include "hamon/core/tempering/deo_pass.hpp"
#include "hamon/core/util/host_copies.hpp"

namespace hamon::detail {

[[noreturn]] inline void state_misfit(const std::string& what) {
  throw std::invalid_argument("Sampler: the saved state does not fit this run: " + what);
}

/// Per ladder r of `n_replicas` (machines r * n .. r * n + n - 1): chain_of_machine a
/// permutation of its n chains and machine_of_chain (at r * n + chain) its inverse, so no
/// machine leaves its ladder: the swap pass and the index process index by both without
/// bounds checks.
inline void check_permutations(const std::vector<std::int32_t>& chain_of_machine,
                               const std::vector<std::int32_t>& machine_of_chain, std::int32_t n,
                               std::int32_t n_replicas = 1) {
  const auto size = static_cast<std::size_t>(n) * static_cast<std::size_t>(n_replicas);
  if (chain_of_machine.size() != size || machine_of_chain.size() != size) {
    state_misfit("the permutations have " + std::to_string(chain_of_machine.size()) + " and " +
                 std::to_string(machine_of_chain.size()) + " entries, expected " +
                 std::to_string(size));
  }
  for (std::size_t m = 0; m < size; ++m) {
    const std::int32_t c = chain_of_machine[m];
    const std::size_t ladder_start = m - m % static_cast<std::size_t>(n);
    // Every machine at a chain of its ladder that names it back: then chain_of_machine is
    // one-to-one within each ladder, so a permutation, and machine_of_chain its inverse.
    if (c < 0 || c >= n ||
        machine_of_chain[ladder_start + static_cast<std::size_t>(c)] != std::int32_t(m)) {
      state_misfit("chain_of_machine and machine_of_chain are not inverse permutations (machine " +
                   std::to_string(m) + " is at chain " + std::to_string(c) + ")");
    }
  }
}
/// Every trip phase one of TripPhase's (deo_pass.hpp).
inline void check_trip_phases(const std::vector<std::int8_t>& phases) {
  for (std::size_t m = 0; m < phases.size(); ++m) {
    if (phases[m] < trip_unstarted || phases[m] > trip_descending) {
      state_misfit("machine " + std::to_string(m) + " has trip phase " + std::to_string(phases[m]) +
                   ", not 0, 1 or 2");
    }
  }
}

/// Every variable one the model's family holds (its value_problem: a spin +1 or -1, a Potts
/// state below q, a finite real). The local updates look up tables by these values, so one
/// out of range would read past them, and a NaN would poison every later energy.
template <class Family, class Model, class Value>
void check_variables(const std::vector<Value>& values, const Family& family, const Model& model) {
  const auto n = static_cast<std::size_t>(model.n_nodes);
  for (std::size_t k = 0; k < values.size(); ++k) {
    const std::string problem = family.value_problem(model, values[k]);
    if (!problem.empty()) {
      state_misfit("machine " + std::to_string(k / n) + ", node " + std::to_string(k % n) + " " +
                   problem);
    }
  }
}

/// The best states' records (best_records.hpp) of n chains' machines after `rounds_done`
/// rounds: a machine has a best (a round before now, a chain of the ladder) or has none (the
/// sentinel energy, round and chain -1) and its counts are not negative. The tracker indexes
/// the ladder by nothing saved, but a result reads the chain and the round as they are.
template <class Best>
void check_best_records(const Best& b, std::int64_t rounds_done, std::int32_t n_machines,
                        std::int32_t n_chains) {
  const auto size = static_cast<std::size_t>(n_machines);
  if (b.energy_fixed.size() != size || b.round.size() != size || b.chain.size() != size ||
      b.beta.size() != size || b.round_trips_at.size() != size) {
    state_misfit("the best states have another number of machines than " +
                 std::to_string(n_machines));
  }
  for (std::size_t m = 0; m < size; ++m) {
    const bool none = b.round[m] == -1;
    const bool fits = none ? b.chain[m] == -1 && b.energy_fixed[m] == kNoBestEnergy
                           : b.round[m] >= 0 && b.round[m] < rounds_done && b.chain[m] >= 0 &&
                                 b.chain[m] < n_chains && b.energy_fixed[m] != kNoBestEnergy;
    if (!fits || b.round_trips_at[m] < 0) {
      state_misfit("machine " + std::to_string(m) + "'s best state has round " +
                   std::to_string(b.round[m]) + ", chain " + std::to_string(b.chain[m]) +
                   " after " + std::to_string(rounds_done) + " rounds");
    }
  }
}

/// Whether `size` entries are `rows` (>= 0) rows of `columns` (0: no entries, whatever the
/// rows). Divides rather than multiplies: a saved row count times the width can overflow.
inline bool holds_rows(std::size_t size, std::int64_t rows, std::int64_t columns) {
  if (columns <= 0) return size == 0;
  const auto width = static_cast<std::size_t>(columns);
  return size % width == 0 && size / width == static_cast<std::size_t>(rows);
}

/// A 1-D view of exactly values.size() entries.
template <class ExecutionSpace, class View, class T>
void restore_view(const ExecutionSpace& space, const View& view, const std::vector<T>& values,
                  const char* name) {
  if (values.size() != view.extent(0)) {
    state_misfit(std::string(name) + " has " + std::to_string(values.size()) +
                 " entries, expected " + std::to_string(view.extent(0)));
  }
  copy_from_host(space, view, values);
}

/// Batches [0, rows) of moment sums: a matrix (batch, column) takes rows x width values, a
/// vector (per batch) at most its length; what is not given is zero.
template <class ExecutionSpace, class View, class T>
void restore_batch_rows(const ExecutionSpace& space, const View& view, const std::vector<T>& values,
                        std::size_t rows, const char* name) {
  if constexpr (View::rank == 2) {
    const std::size_t width = view.extent(1);
    if (values.size() != rows * width || rows > view.extent(0)) {
      state_misfit(std::string("moment batches (") + name + ") have the wrong size");
    }
    auto host = writable_mirror(space, view);
    for (std::size_t r = 0; r < view.extent(0); ++r) {
      for (std::size_t c = 0; c < width; ++c) host(r, c) = r < rows ? values[r * width + c] : T(0);
    }
    copy_to_view(space, view, host);
  } else {
    if (values.size() > view.extent(0)) state_misfit(std::string("too many batches of ") + name);
    std::vector<T> padded = values;
    padded.resize(view.extent(0), T(0));
    copy_from_host(space, view, padded);
  }
}

}  // namespace hamon::detail
