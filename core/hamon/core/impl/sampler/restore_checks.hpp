// SPDX-License-Identifier: Apache-2.0
#pragma once
// Copies from a saved SamplerState into a part's views, each checked against the view's
// shape first: a state that does not fit is refused with std::invalid_argument naming
// the field, before it can be half-restored into a kernel's memory.

#include <Kokkos_Core.hpp>
#include <cstddef>
#include <stdexcept>
#include <string>
#include <vector>

#include "hamon/core/impl/host_copies.hpp"

namespace hamon::detail {

[[noreturn]] inline void state_misfit(const std::string& what) {
  throw std::invalid_argument("Sampler: the saved state does not fit this run: " + what);
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
