// SPDX-License-Identifier: Apache-2.0
#pragma once
// A rank's rows of per-machine variables (a ChainState's spins, the best states' copies) to
// and from the saved form: every machine's row, machine-major, on rank 0.

#include <Kokkos_Core.hpp>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "hamon/core/sampler/detail/rank_link.hpp"
#include "hamon/core/sampler/detail/restore_checks.hpp"
#include "hamon/core/util/host_copies.hpp"

namespace hamon::detail {

/// The rows of `view` (local machines x nodes), of every machine on rank 0.
template <class Value, class ExecutionSpace, class View>
std::vector<Value> gathered_rows(const ExecutionSpace& space, const View& view,
                                 const RankLink& link) {
  const auto rows = host_copy(space, view);
  const auto n_local = static_cast<std::int64_t>(view.extent(0));
  const auto n_nodes = static_cast<std::int64_t>(view.extent(1));
  std::vector<Value> mine(static_cast<std::size_t>(n_local * n_nodes));
  for (std::int64_t m = 0; m < n_local; ++m) {
    for (std::int64_t i = 0; i < n_nodes; ++i) {
      mine[static_cast<std::size_t>(m * n_nodes + i)] = rows(m, i);
    }
  }
  return link.gathered_machines(std::move(mine), n_nodes);
}

/// The rows of `view` (machines [first, first + local)) from every machine's rows.
template <class ExecutionSpace, class View, class Value>
void restore_rows(const ExecutionSpace& space, const View& view, const std::vector<Value>& all,
                  std::int64_t first, const std::string& what) {
  const auto n_local = static_cast<std::int64_t>(view.extent(0));
  const auto n_nodes = static_cast<std::int64_t>(view.extent(1));
  if (n_nodes == 0 || all.size() % static_cast<std::size_t>(n_nodes) != 0 ||
      static_cast<std::int64_t>(all.size()) / n_nodes < first + n_local) {
    state_misfit(what + " have the wrong size");
  }
  auto rows = writable_mirror(space, view);
  for (std::int64_t m = 0; m < n_local; ++m) {
    for (std::int64_t i = 0; i < n_nodes; ++i) {
      rows(m, i) = all[static_cast<std::size_t>((first + m) * n_nodes + i)];
    }
  }
  copy_to_view(space, view, rows);
}

}  // namespace hamon::detail
