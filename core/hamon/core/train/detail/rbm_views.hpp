// SPDX-License-Identifier: Apache-2.0
#pragma once
// The Views training works on, in the memory of its execution space: dense LayoutRight
// matrices whose device type names the execution space (so Kokkos Kernels runs there), and
// the parameters [W | b | c] as one flat View with aliases of its parts.

#include <Kokkos_Core.hpp>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "hamon/core/train/rbm_parameters.hpp"

namespace hamon::detail {

template <class ExecutionSpace>
struct TrainViews {
  using device = Kokkos::Device<ExecutionSpace, typename ExecutionSpace::memory_space>;
  using matrix = Kokkos::View<double**, Kokkos::LayoutRight, device>;
  using matrix_alias =
      Kokkos::View<double**, Kokkos::LayoutRight, device, Kokkos::MemoryTraits<Kokkos::Unmanaged>>;
  using vector = Kokkos::View<double*, device>;
  using bytes = Kokkos::View<std::int8_t**, Kokkos::LayoutRight, device>;

  static matrix new_matrix(const ExecutionSpace& space, const char* label, std::int64_t rows,
                           std::int64_t cols) {
    return matrix(Kokkos::view_alloc(space, std::string(label)), rows, cols);
  }
  static vector new_vector(const ExecutionSpace& space, const char* label, std::int64_t n) {
    return vector(Kokkos::view_alloc(space, std::string(label)), n);
  }
};

/// The parameters [W (V x H, visible-major) | b (V) | c (H)] as one flat View (the
/// optimiser runs over it), or anything shaped like them (gradients, moments).
template <class ExecutionSpace>
struct FlatRbm {
  using views = TrainViews<ExecutionSpace>;
  std::int64_t n_visible = 0;
  std::int64_t n_hidden = 0;
  typename views::vector values;

  FlatRbm() = default;
  FlatRbm(const ExecutionSpace& space, const char* label, std::int64_t v, std::int64_t h)
      : n_visible(v), n_hidden(h), values(views::new_vector(space, label, v * h + v + h)) {}

  std::int64_t size() const { return n_visible * n_hidden + n_visible + n_hidden; }
  std::int64_t visible_offset() const { return n_visible * n_hidden; }
  std::int64_t hidden_offset() const { return n_visible * n_hidden + n_visible; }
  typename views::matrix_alias weights() const {
    return typename views::matrix_alias(values.data(), n_visible, n_hidden);
  }
  const double* visible_bias() const { return values.data() + visible_offset(); }
  const double* hidden_bias() const { return values.data() + hidden_offset(); }
};

/// [W | b | c] of host parameters, flat.
inline std::vector<double> flatten(const RbmParameters& p) {
  std::vector<double> flat(p.weights);
  flat.insert(flat.end(), p.visible_bias.begin(), p.visible_bias.end());
  flat.insert(flat.end(), p.hidden_bias.begin(), p.hidden_bias.end());
  return flat;
}

inline RbmParameters unflatten(const std::vector<double>& flat, std::int64_t v, std::int64_t h) {
  RbmParameters p;
  p.n_visible = v;
  p.n_hidden = h;
  const auto w_end = flat.begin() + static_cast<std::ptrdiff_t>(v * h);
  const auto b_end = w_end + static_cast<std::ptrdiff_t>(v);
  p.weights.assign(flat.begin(), w_end);
  p.visible_bias.assign(w_end, b_end);
  p.hidden_bias.assign(b_end, flat.end());
  return p;
}

template <class ExecutionSpace>
void copy_to(const ExecutionSpace& space, const std::vector<double>& host,
             const typename TrainViews<ExecutionSpace>::vector& out) {
  Kokkos::View<const double*, Kokkos::HostSpace, Kokkos::MemoryTraits<Kokkos::Unmanaged>> h(
      host.data(), host.size());
  Kokkos::deep_copy(space, out, h);
  space.fence();
}

template <class View>
std::vector<typename View::non_const_value_type> to_host_vector(const View& view) {
  std::vector<typename View::non_const_value_type> out(view.span());
  Kokkos::View<typename View::non_const_value_type*, Kokkos::HostSpace,
               Kokkos::MemoryTraits<Kokkos::Unmanaged>>
      h(out.data(), out.size());
  Kokkos::deep_copy(
      h, Kokkos::View<typename View::const_value_type*, typename View::memory_space,
                      Kokkos::MemoryTraits<Kokkos::Unmanaged>>(view.data(), view.span()));
  return out;
}

}  // namespace hamon::detail
