// SPDX-License-Identifier: Apache-2.0
#pragma once
// The model as Views in the memory space of the execution space that samples it.

#include <Kokkos_Core.hpp>
#include <cstdint>
#include <string>
#include <type_traits>
#include <vector>

#include "hamon/core/model/device_model_tables.hpp"
#include "hamon/core/model/fingerprint.hpp"
#include "hamon/core/model/lattice_geometry.hpp"
#include "hamon/core/model/spin_model.hpp"

namespace hamon {

template <class MemorySpace>
struct DeviceModel {
  using memory_space = MemorySpace;
  template <class T>
  using view = Kokkos::View<T*, MemorySpace>;

  view<std::int64_t> row_offsets;  // symmetric CRS
  view<std::int32_t> columns;
  view<double> couplings;
  view<double> fields;
  view<std::int8_t> clamped;       // 0 free, +-1 clamped value
  view<std::int32_t> block_nodes;  // free nodes grouped by colour
  view<std::int32_t> edge_i;       // unique edges (i < j), for edge moments
  view<std::int32_t> edge_j;
  std::vector<std::int64_t> block_offsets;  // on the host: they size the sweep launches
  std::int64_t n_nodes = 0;
  std::int64_t n_free = 0;
  /// Energies are accumulated in fixed point with this many fractional bits, so their
  /// sums are exact integers whatever the reduction order (see energy.hpp).
  int energy_fraction_bits = 0;
  /// When every coupling and field is an integer and every |local field| is at most this
  /// bound (<= 64), local fields take few values and the sweep decides with integer
  /// thresholds tabulated per chain (families/spin/heat_bath.hpp) instead of calling exp; -1
  /// otherwise.
  std::int32_t integer_field_bound = -1;
  /// model_fingerprint (fingerprint.hpp) of the SpinModel this was made from: the model a
  /// Sampler's identity() names, so a checkpoint of another model is refused; 0 for a
  /// DeviceModel assembled by hand (then the identity cannot tell models apart).
  std::uint64_t fingerprint = 0;
  /// Potts models (SpinModel::is_potts): q; 0 for Ising spins. Then `fields` and
  /// `couplings` hold zeros and the Potts J, and these hold the rest:
  std::int32_t n_states = 0;
  view<double> state_fields;       // h_i(s) at i * q + s
  view<double> csr_matrices;       // per CRS entry, q * q (empty: every coupling J delta)
  view<std::int16_t> clamp_state;  // -1 free, else the clamped state
  /// Continuous models (spin_model.hpp): the kind (a ContinuousKind's value, 0 for
  /// discrete models), d_i or lambda_i per node, and whether the machines sample the
  /// annealing path between the node terms and the model (NrptOptions::reference; set
  /// by the sampler from its options, not by make_device_model).
  std::int32_t continuous_kind = 0;
  view<double> node_weights;
  bool annealed = false;
  /// The lattice fast path's geometry; `enabled` only when it applies (see
  /// lattice_geometry.hpp). Switching it off selects the general path, same bits.
  LatticeGeometry<MemorySpace> lattice;
  /// On the host: the extents of the periodic lattice an Ising SpinModel was built as
  /// (any couplings and fields, fast path or not), for the overlaps' Fourier phases;
  /// empty otherwise.
  std::vector<int> periodic_extents;
};

/// The lattice directions with a Fourier overlap (sampler/detail/overlap_accumulator.hpp):
/// those of a periodic lattice whose extents are all equal (k_min the same along each), 0
/// otherwise.
template <class MemorySpace>
std::int32_t fourier_directions(const DeviceModel<MemorySpace>& m) {
  const std::vector<int>& extents = m.periodic_extents;
  for (int extent : extents) {
    if (extent != extents.front()) return 0;
  }
  return static_cast<std::int32_t>(extents.size());
}

/// The same model over the same memory, as Views of `Target` (a memory space that can
/// address `m`'s) that own nothing: copying them counts no references, so kernels launched
/// with it (once per colour block and round) skip the atomic reference counting of every
/// View. The caller keeps `m` (the owner) alive for as long as the aliases are used. The
/// structured binding names every member of DeviceModel, so a new member is a compile error
/// here until it is carried over, never silently dropped.
template <class Target, class MemSpace>
DeviceModel<Target> view_aliases(const DeviceModel<MemSpace>& m) {
  const auto& [row_offsets, columns, couplings, fields, clamped, block_nodes, edge_i, edge_j,
               block_offsets, n_nodes, n_free, energy_fraction_bits, integer_field_bound,
               fingerprint, n_states, state_fields, csr_matrices, clamp_state, continuous_kind,
               node_weights, annealed, lattice, periodic_extents] = m;
  auto alias = [](const auto& view) {
    using T = typename std::decay_t<decltype(view)>::value_type;
    return typename DeviceModel<Target>::template view<T>(view.data(), view.extent(0));
  };
  LatticeGeometry<Target> lattice_alias;
  const auto& [enabled, dims, extent, stride, lattice_nodes, coupling_up, lattice_field] = lattice;
  lattice_alias.enabled = enabled;
  lattice_alias.dims = dims;
  for (int d = 0; d < 3; ++d) {
    lattice_alias.extent[d] = extent[d];
    lattice_alias.stride[d] = stride[d];
  }
  lattice_alias.n_nodes = lattice_nodes;
  lattice_alias.coupling_up = decltype(lattice_alias.coupling_up)(
      coupling_up.data(), coupling_up.extent(0), coupling_up.extent(1));
  lattice_alias.field = alias(lattice_field);
  return DeviceModel<Target>{alias(row_offsets),
                             alias(columns),
                             alias(couplings),
                             alias(fields),
                             alias(clamped),
                             alias(block_nodes),
                             alias(edge_i),
                             alias(edge_j),
                             block_offsets,
                             n_nodes,
                             n_free,
                             energy_fraction_bits,
                             integer_field_bound,
                             fingerprint,
                             n_states,
                             alias(state_fields),
                             alias(csr_matrices),
                             alias(clamp_state),
                             continuous_kind,
                             alias(node_weights),
                             annealed,
                             lattice_alias,
                             periodic_extents};
}

/// Copies the model once into the memory space of `space`.
template <class ExecutionSpace>
DeviceModel<typename ExecutionSpace::memory_space> make_device_model(const ExecutionSpace& space,
                                                                     const SpinModel& model) {
  DeviceModel<typename ExecutionSpace::memory_space> dm;
  dm.row_offsets = detail::to_view(space, model.row_offsets(), "hamon::row_offsets");
  dm.columns = detail::to_view(space, model.columns(), "hamon::columns");
  dm.couplings = detail::to_view(space, model.couplings(), "hamon::couplings");
  dm.fields = detail::to_view(space, model.fields(), "hamon::fields");
  dm.clamped = detail::to_view(space, model.clamped(), "hamon::clamped");
  dm.block_nodes = detail::to_view(space, model.block_nodes(), "hamon::block_nodes");
  std::vector<std::int32_t> ei, ej;
  ei.reserve(model.edges().size());
  ej.reserve(model.edges().size());
  for (const Edge& e : model.edges()) {
    ei.push_back(static_cast<std::int32_t>(e.i));
    ej.push_back(static_cast<std::int32_t>(e.j));
  }
  dm.edge_i = detail::to_view(space, ei, "hamon::edge_i");
  dm.edge_j = detail::to_view(space, ej, "hamon::edge_j");
  dm.block_offsets = model.block_offsets();
  if (model.is_potts()) {
    dm.n_states = model.n_states();
    dm.state_fields = detail::to_view(space, model.state_fields(), "hamon::state_fields");
    dm.csr_matrices = detail::to_view(space, model.csr_matrices(), "hamon::csr_matrices");
    dm.clamp_state = detail::to_view(space, model.clamped_states(), "hamon::clamp_state");
  }
  if (model.is_continuous()) {
    dm.continuous_kind = static_cast<std::int32_t>(model.continuous_kind());
    dm.node_weights = detail::to_view(space, model.node_weights(), "hamon::node_weights");
  }
  dm.n_nodes = model.n_nodes();
  dm.n_free = model.n_free();
  dm.energy_fraction_bits = detail::energy_fraction_bits_for(model);
  dm.integer_field_bound = detail::integer_field_bound_for(model);
  dm.fingerprint = model_fingerprint(model);
  dm.lattice = make_lattice_geometry(space, model, dm.integer_field_bound);
  const auto& shape = model.lattice_shape();
  if (shape && shape->periodic && !model.is_potts() && !model.is_continuous())
    dm.periodic_extents = shape->extents;
  space.fence();
  return dm;
}

}  // namespace hamon
