// SPDX-License-Identifier: Apache-2.0
#include "hamon/core/model/device_model.hpp"

#include <cstddef>
#include <cstdint>
#include <vector>

namespace hamon::detail {

namespace {

/// `values` as a host View that owns nothing (read only: make_device_model copies it out);
/// with no values, a View of none at a placeholder, so that it is still copied (allocated).
template <class T>
Kokkos::View<T*, Kokkos::HostSpace> over(const std::vector<T>& values) {
  static T placeholder{};
  T* data = values.empty() ? &placeholder : const_cast<T*>(values.data());
  return Kokkos::View<T*, Kokkos::HostSpace>(data, values.size());
}

}  // namespace

ModelSource::ModelSource(const SpinModel& model) {
  DeviceModel<Kokkos::HostSpace>& dm = views;
  dm.row_offsets = over(model.row_offsets());
  dm.columns = over(model.columns());
  dm.couplings = over(model.couplings());
  dm.fields = over(model.fields());
  dm.clamped = over(model.clamped());
  dm.block_nodes = over(model.block_nodes());
  edge_i.reserve(model.edges().size());
  edge_j.reserve(model.edges().size());
  for (const Edge& e : model.edges()) {
    edge_i.push_back(static_cast<std::int32_t>(e.i));
    edge_j.push_back(static_cast<std::int32_t>(e.j));
  }
  dm.edge_i = over(edge_i);
  dm.edge_j = over(edge_j);
  dm.block_offsets = model.block_offsets();
  if (model.is_potts()) {
    dm.n_states = model.n_states();
    dm.state_fields = over(model.state_fields());
    dm.csr_matrices = over(model.csr_matrices());
    dm.clamp_state = over(model.clamped_states());
  }
  if (model.is_continuous()) {
    dm.continuous_kind = static_cast<std::int32_t>(model.continuous_kind());
    dm.node_weights = over(model.node_weights());
  }
  dm.n_nodes = model.n_nodes();
  dm.n_free = model.n_free();
  dm.energy_fraction_bits = energy_fraction_bits_for(model);
  dm.integer_field_bound = integer_field_bound_for(model);
  dm.fingerprint = model_fingerprint(model);
  lattice = lattice_tables(model, dm.integer_field_bound);
  dm.lattice = lattice_over(lattice, model.n_nodes());
  const auto& shape = model.lattice_shape();
  if (shape && shape->periodic && !model.is_potts() && !model.is_continuous()) {
    dm.periodic_extents = shape->extents;
  }
}

}  // namespace hamon::detail
